"""A sentence that moves a figure the other way than its own numbers do is removed
(``programs.direction_check``); one that says it right, or cannot be read, stays."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citations.markup import parse_cited_answer
from programs.direction_check import drop_misdirected, misdirected

SOURCES = (
    "\n\n**Sources**\n\n¹ ACME 10-K FY2022 p.5 (page_id: 1, uid: aaaaaaaaaaaa)"
    "\n² ACME 10-K FY2022 p.9 (page_id: 2, uid: bbbbbbbbbbbb)"
)


@pytest.mark.parametrize(
    ("sentence", "wrong"),
    [
        ("Revenue rose from $1.2 billion in FY2021 to $1.5 billion in FY2022.", False),
        ("Revenue rose from $1.5 billion in FY2021 to $1.2 billion in FY2022.", True),
        ("Debt decreased to $47,237 million against $49,781 million in the prior year.", False),
        ("Debt increased to $47,237 million against $49,781 million in the prior year.", True),
        ("Sales of $10 million were higher than the prior year's $12 million.", True),
        ("The margin fell from 20.8% to 19.1%.", False),
        # each figure with its own year: the years order them, whichever is written first
        ("The increase was $0.63 in 2020 compared to $0.66 in 2019.", True),
        ("Revenue rose to $5.1 billion in FY2022 versus $4.9 billion in FY2021.", False),
        ("Revenue rose: $4.9 billion in fiscal 2021 against $5.1 billion in fiscal 2022.", False),
        ("Revenue fell: $4.9 billion in fiscal 2021 against $5.1 billion in fiscal 2022.", True),
        ("Revenue rose: $5.1 billion in 2022 against $4.9 billion in 2022.", False),
        ("The margin fell from 19.1% to 20.8%.", True),
        # not code's to say: two directions, no direction, a loss, a period order not written
        ("Revenue rose while margin fell from 20% to 19%.", False),
        ("Gross margin moved from 5.3% to 4.9%.", False),
        ("Net loss increased from $(2,902) million to $(5,033) million.", False),
        ("Revenue grew 5% to $10.5 billion from $11 billion.", False),
        ("Capex increased to $1,749 million; revenue was $34,229 million.", False),
    ],
)  # fmt: skip
def test_a_sentence_is_misdirected_only_when_its_own_numbers_say_so(sentence, wrong):
    assert misdirected(sentence) is wrong


@given(
    st.integers(1, 10**6),
    st.integers(1, 10**6),
    st.sampled_from(["rose", "increased", "grew", "fell", "decreased", "declined"]),
)
def test_from_a_to_b_is_wrong_exactly_when_the_verb_disagrees(a, b, verb):
    sentence = f"Cash from operations {verb} from ${a:,} million to ${b:,} million."
    rising = verb in ("rose", "increased", "grew")
    assert misdirected(sentence) == (a != b and (b > a) != rising)


@given(
    st.integers(1, 10**6),
    st.integers(1, 10**6),
    st.integers(2000, 2029),
    st.booleans(),
    st.sampled_from(["rose", "fell"]),
)
def test_figures_each_dated_are_ordered_by_their_years(a, b, year, later_first, verb):
    """a in ``year``, b the year after, written in either order."""
    dated = [f"${a:,} million in {year}", f"${b:,} million in FY{year + 1}"]
    first, second = reversed(dated) if later_first else dated
    sentence = f"Capex {verb}: {first} compared with {second}."
    assert misdirected(sentence) == (a != b and (b > a) != (verb == "rose"))


def test_a_this_sentence_is_read_against_the_figure_before_it_and_removed_alone():
    # the embedded model, asked about 3M's operating cash flow with no flags (renamed)
    body = (
        "Acme provided net cash of $5,591 million from its operating activities in FY2022¹. "
        "This is a significant increase compared to the previous year's $7,454 million²."
    )
    answer, dropped = drop_misdirected(parse_cited_answer(body + SOURCES))
    assert dropped == 1
    assert answer.body == (
        "Acme provided net cash of $5,591 million from its operating activities in FY2022¹."
    )
    assert [f.number for f in answer.references.footnotes] == [1]
    right = body.replace("increase", "decrease")
    assert drop_misdirected(parse_cited_answer(right + SOURCES))[1] == 0


def test_the_composers_prose_loses_a_misdirected_sentence_too():
    from programs.prose_checks import check_composed

    findings = parse_cited_answer(
        "Capital expenditure was $1,749 million in FY2021¹ and $1,500 million in FY2022²." + SOURCES
    )
    prose = parse_cited_answer(
        "Capital expenditure increased from $1,749 million in FY2021 to $1,500 million in "
        "FY2022¹˒². It was $1,500 million in FY2022²." + SOURCES
    )
    checked = check_composed(prose, findings, [], [])
    assert checked.body == "It was $1,500 million in FY2022²."
