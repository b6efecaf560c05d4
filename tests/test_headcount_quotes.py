"""How many people a company employs is answered by the filing's own sentence
(``programs.headcount_quotes``), through the probe loop with no model call."""

from __future__ import annotations

import pytest
from cited import TwoPageSearcher, closed_by_code
from hypothesis import given
from hypothesis import strategies as st

from programs.headcount_quotes import (
    asks_headcount,
    company_headcount,
    headcount_answer,
    quoted_headcount,
)
from tests.test_cause_quotes import _page  # a searched page of a filing

ASKED = "How many employees did Shop have at the end of FY2022?"
HEADCOUNT = "As of December 31, 2022, we employed approximately 11,600 people globally."
PART = "Approximately 6,800 of our employees were located in the U.S."


@pytest.mark.parametrize(
    ("sentence", "headcount"),
    [
        (HEADCOUNT, "11,600"),
        ("As of May 31, 2023, we employed approximately 164,000 full-time employees, of which "
         "approximately 62,000 were employed in the U.S.", "164,000"),
        ("As of September 24, 2022, the Company had approximately 164,000 full-time equivalent "
         "employees.", "164,000"),
        ("We invest in our highly-skilled global workforce of 110,600 people.", "110,600"),
        ("The Company employed approximately 2.1 million associates worldwide, with "
         "approximately 1.6 million associates in the U.S.", "2.1 million"),
        ("As of December 31, 2018, we had approximately 55,000 full-time and 17,000 part-time "
         "employees domestically.", "55,000"),
        # a part of the staff, what staff did, a plan's terms, a facility's, another count
        (PART, None),
        ("In the U.S., we had approximately 1.6 million associates.", None),
        ("In addition, we had approximately 10,000 employees at Shop China.", None),
        ("During 2022, employees purchased approximately 2 million shares.", None),
        ("No more than 50 employees identified by compensation shall be treated as officers.",
         None),
        ("The facility employed 350 individuals and no employees were injured.", None),
        ("We have over 27,000 people managers who complete required training.", None),
        ("Over 42 million people have accessed free training through our initiative.", None),
        ("We had 134 million active buyers and 1.7 billion live listings.", None),
        ("Products valued at approximately $8,600 were delivered to individuals.", None),
        ("We have monitored how COVID-19 affected employees.", None),
        ("As of December 31, 2017 and 2016, our Company had approximately 12,400 and 51,000 "
         "employees, respectively, located in the United States.", None),
        ("As of December 31, 2017, our Company had approximately 61,800 associates, of which "
         "approximately 12,400 associates were located in the United States.", "61,800"),
    ],
)  # fmt: skip
def test_a_sentence_states_the_companys_headcount_or_not(sentence, headcount):
    assert company_headcount(sentence) == headcount


@given(
    number=st.integers(10, 999_999),
    lead=st.sampled_from(["we employed", "the Company had", "we had a workforce of"]),
    about=st.sampled_from(["", "approximately ", "about "]),
    noun=st.sampled_from(["employees", "people", "full-time employees", "associates"]),
)
def test_any_headcount_stated_so_is_read_back(number, lead, about, noun):
    if 1900 <= number <= 2099:
        return  # read as a year: no headcount
    sentence = f"As of December 31, 2022, {lead} {about}{number:,} {noun} worldwide."
    assert company_headcount(sentence) == f"{number:,}"
    # the same count of a part named first is the part's
    assert company_headcount(f"In the U.S., {lead} {about}{number:,} {noun}.") is None


def test_only_the_whole_companys_headcount_is_asked():
    assert asks_headcount(ASKED)
    assert asks_headcount("How many people did Shop employ in FY2022?")
    assert not asks_headcount("How many employees did Shop have in the U.S. in FY2022?")
    assert not asks_headcount("How many stores did Shop operate in FY2022?")
    assert not asks_headcount("What was Shop's revenue per employee in FY2022?")


def test_one_headcount_on_the_pages_is_the_answer_and_two_are_left_to_research():
    first, again = (
        _page(f"Human Capital. {HEADCOUNT} {PART}"),
        _page(
            "We thank each of our approximately 11,600 people. The Company had 11,600 employees.",
            30,
        ),
    )
    page, sentence = quoted_headcount(ASKED, [first, again])
    assert (page, sentence) == (first, HEADCOUNT)  # the same number twice: the first
    other = _page("The Company had approximately 4,600 employees at Coram.", 50)
    assert quoted_headcount(ASKED, [first, other]) is None  # two headcounts: researched
    assert quoted_headcount("What was Shop's revenue in FY2022?", [first]) is None
    assert headcount_answer(first, HEADCOUNT).body == f"In the filing's words: “{HEADCOUNT}”¹"
    # a section heading the page text runs into the sentence is not quoted
    headed = _page(f"Human Capital Management {HEADCOUNT}")
    assert quoted_headcount(ASKED, [headed]) == (headed, HEADCOUNT)
    for heading in ("EMPLOYEES", "Employees —", "Table of Contents Resources Human Capital"):
        assert quoted_headcount(ASKED, [_page(f"{heading} {HEADCOUNT}")])[1] == HEADCOUNT


def test_the_probe_loop_closes_the_questions_probe_with_the_sentence_and_no_model_call():
    searcher = TwoPageSearcher(
        f"Human Capital Management. {HEADCOUNT} {PART}", 2022, "We had 134 million active buyers."
    )
    outcome = closed_by_code(ASKED, searcher)
    assert outcome.answer.answer.body == f"In the filing's words: “{HEADCOUNT}”¹"
