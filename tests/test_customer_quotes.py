"""Who a company's largest customers are is answered by the filing's own sentences
(``programs.customer_quotes``), through the probe loop with no model call."""

from __future__ import annotations

import pytest
from cited import TwoPageSearcher, closed_by_code, filing_page
from hypothesis import given
from hypothesis import strategies as st

from programs.customer_quotes import (
    asks_customers,
    customer_answer,
    customer_kind,
    quoted_customers,
)

ASKED = "Who are Shop's largest customers as of FY2022?"
THREE = (
    "In 2022, our three largest customers accounted for 39% of our net revenue, with Dell Inc. "
    "accounting for 17%, Lenovo Group Limited accounting for 12%, and HP Inc. accounting for 10%."
)
AIRLINES = (
    "We derive a significant portion of our revenues from a limited number of commercial airlines."
)
NONE = "For 2022, 2021 and 2020, no customer met or exceeded 10% of Shop’s consolidated net sales."


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        (THREE, "share"),
        ("One customer accounted for 16% of our consolidated net revenue for the year.", "share"),
        ("In 2022, 40% of our revenues were earned pursuant to U.S. government contracts.",
         "share"),
        ("Sales to Walmart Inc. and its affiliates represented approximately 16% of our total "
         "net sales.", "share"),
        ("In 2022, 73% of our $66.0 billion in net sales were from the U.S. Government, either "
         "as a prime contractor or as a subcontractor.", "share"),
        (AIRLINES, "mostly"),
        (NONE, "none"),
        ("No customer accounted for 10% or more of our revenues in 2022.", "none"),
        ("In 2013, the Company did not have a customer that represented 10.0% of total revenues.",
         "none"),
        ("While we do not have a single customer accounting for more than 10% of our net sales, "
         "customer concentration can be more pronounced within certain businesses.", "none"),
        # one customer named as the exception has a share
        ("No customer other than Walmart accounted for 10 percent or more of our consolidated "
         "net sales.", "share"),
        # another customer than the one a sentence before named
        ("No other customer accounted for 10% or more of our net revenues in 2022.", None),
        # credit risk, a product's share, where buyers are, a run of table text
        ("One customer accounted for approximately 18% of the total consolidated accounts "
         "receivable balance.", None),
        ("iPhone accounted for 52% of our net sales.", None),
        ("In 2022, non-U.S. customers, which includes foreign military sales (FMS), accounted "
         "for approximately 41% of our revenues.", None),
        ("We derive a significant portion of our revenues from non-U.S. sales.", None),
        ("We derive a substantial portion of our revenues from, and have significant operations, "
         "outside of the U.S.", None),
        ("Customer A " + "12% " * 200 + "of net revenue", None),
    ],
)  # fmt: skip
def test_a_sentence_says_who_buys_or_not(sentence, kind):
    assert customer_kind(sentence) == kind


@given(
    share=st.integers(1, 99),
    buyer=st.sampled_from(["One customer", "Our largest customer", "Sales to Acme Corp."]),
    verb=st.sampled_from(["accounted for", "represented", "comprised"]),
    revenue=st.sampled_from(["our net revenue", "consolidated net sales", "our total revenues"]),
)
def test_any_share_of_revenue_given_to_a_buyer_is_read(share, buyer, verb, revenue):
    assert customer_kind(f"{buyer} {verb} {share}% of {revenue} in 2022.") == "share"
    # the same share of receivables is credit risk, not who buys
    receivable = f"{buyer} {verb} {share}% of {revenue} receivables in 2022."
    assert customer_kind(receivable) is None


def test_only_the_companys_main_customers_are_asked():
    assert asks_customers(ASKED)
    assert asks_customers("Who are the primary customers of Shop as of FY2022?")
    assert asks_customers("Did Shop report customer concentration in FY22?")
    assert asks_customers("Does Shop depend on a few key customers?")
    assert not asks_customers("What is Shop's largest segment?")
    assert not asks_customers("Who are the largest customers of Shop's Data Center segment?")
    assert not asks_customers("How many customers did Shop add in FY2022?")


def test_a_share_and_a_kind_of_customer_are_quoted_each_cited():
    share, kind = filing_page(f"Customers. {THREE}", 40), filing_page(f"Risks. {AIRLINES}", 12)
    quotes = quoted_customers(ASKED, [kind, share])
    assert [(page, sentence) for page, sentence, _ in quotes] == [(share, THREE), (kind, AIRLINES)]
    answer = customer_answer(ASKED, quotes)
    assert answer.body == f"In the filing's words: “{THREE}”¹ “{AIRLINES}”²"
    assert [f.citation.uid for f in answer.references.footnotes] == [share.uid, kind.uid]
    assert quoted_customers("What was Shop's revenue in FY2022?", [share]) is None
    assert quoted_customers(ASKED, [filing_page("Revenue grew 9%.")]) is None


def test_a_yes_no_question_opens_with_the_answer_the_sentences_give():
    asked = "Did Shop report customer concentration in FY2022?"
    share, none = filing_page(THREE), filing_page(f"Significant Customers {NONE}", 73)
    assert customer_answer(asked, quoted_customers(asked, [share])).body.startswith(
        "Yes: in the filing's words: “In 2022, our three largest customers"
    )
    # a section heading the page runs into the sentence is not quoted
    assert customer_answer(asked, quoted_customers(asked, [none])).body == (
        f"No: in the filing's words: “{NONE}”¹"
    )


def test_the_probe_loop_closes_the_questions_probe_with_the_sentences_and_no_model_call():
    searcher = TwoPageSearcher(f"Customers. {THREE}", 2022)
    outcome = closed_by_code(ASKED, searcher)
    assert outcome.answer.answer.body == f"In the filing's words: “{THREE}”¹"


def test_a_sentence_of_the_year_asked_is_quoted_before_another_years():
    """Activision's FY2017 10-K was quoted "For the year ended December 31, 2016, we had two
    customers …"; Johnson & Johnson's FY2015, "In 2013, the Company did not have …"."""
    older = filing_page("In 2013, one customer accounted for 12% of our net revenue.", 30)
    before = filing_page("In 2021, one customer accounted for 14% of our net revenue.", 31)
    undated = filing_page("Our largest customer accounted for 15% of our net revenue.", 32)
    dated = filing_page("In 2022, one customer accounted for 16% of our net revenue.", 33)
    pages = [older, before, undated, dated]
    assert [q[0] for q in quoted_customers(ASKED, pages, 2022)] == [dated]
    assert [q[0] for q in quoted_customers(ASKED, pages[:3], 2022)] == [undated]
    assert [q[0] for q in quoted_customers(ASKED, pages[:2], 2022)] == [before]
    assert quoted_customers(ASKED, pages[:1], 2022) is None  # another year's


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("Key customers could cut orders for our products In 2022, Shop’s ten largest customers "
         "accounted for 45% of our sales.",
         "In 2022, Shop’s ten largest customers accounted for 45% of our sales."),
        ("Total sales to external customers $ 3,991 $ 5,506 The Company had two customers that "
         "accounted for more than 10% of the Company’s net revenue.",
         "The Company had two customers that accounted for more than 10% of the Company’s net "
         "revenue."),
        ("Table of Contents We derive a significant portion of our revenues from a limited "
         "number of commercial airlines.", AIRLINES),
        ("Significant Customers For 2022, no customer met or exceeded 10% of Shop’s "
         "consolidated net sales.",
         "For 2022, no customer met or exceeded 10% of Shop’s consolidated net sales."),
    ],
)  # fmt: skip
def test_a_heading_or_table_the_page_runs_into_the_sentence_is_not_quoted(text, quoted):
    assert quoted_customers(ASKED, [filing_page(text)], 2022)[0][1] == quoted
