"""A sentence that states a figure as quarter over quarter stands only on a cited page that
speaks of such a comparison (``programs.basis_check``)."""

from __future__ import annotations

import pytest

from citations.markup import parse_cited_answer
from programs.basis_check import drop_unsupported_sequential

SOURCES = (
    "\n\n**Sources**\n\n¹ ACME Earnings FY2023 Q2 p.1 (page_id: 1, uid: aaaaaaaaaaaa)"
    "\n² ACME 10-Q FY2023 Q2 p.4 (page_id: 2, uid: bbbbbbbbbbbb)"
)
#: A release's highlights: growth rates with no word of what they compare with.
RELEASE = "Second-Quarter Results\nNet revenue growth\n10.4%\nCore EPS\n$2.09"
#: A page that compares with the quarter before in its own words.
SEQUENTIAL_PAGE = "Revenue increased 3% sequentially, from $9.7 billion in the first quarter."
PAGES = {"aaaaaaaaaaaa": RELEASE, "bbbbbbbbbbbb": SEQUENTIAL_PAGE}


def _kept(body: str) -> tuple[str, int]:
    answer, dropped = drop_unsupported_sequential(parse_cited_answer(body + SOURCES), PAGES)
    return answer.body, dropped


@pytest.mark.parametrize(
    "sentence",
    [
        "ACME reported 10.4% net revenue growth quarter over quarter in Q2 2023¹.",
        "Net revenue grew 10.4% QoQ¹.",
        "Net revenue rose 10.4% from the previous quarter¹.",
        "Sequential revenue growth was 10.4%¹.",
    ],
)
def test_a_sequential_claim_on_a_page_that_makes_none_is_removed(sentence):
    body, dropped = _kept(f"{sentence} Core EPS was $2.09¹.")
    assert dropped == 1
    assert body == "Core EPS was $2.09¹."


@pytest.mark.parametrize(
    "sentence",
    [
        # the page itself compares with the quarter before
        "Revenue increased 3% sequentially².",
        "Revenue rose 3% quarter over quarter¹˒².",
        # no figure: a sentence about the comparison, not a number on a wrong basis
        "The release does not compare the quarter with the previous quarter¹.",
        # no sequential words: a year-over-year rate as the page prints it
        "Net revenue grew 10.4% in the second quarter¹.",
    ],
)
def test_a_sequential_claim_its_page_makes_or_no_claim_stays(sentence):
    body, dropped = _kept(sentence)
    assert dropped == 0
    assert body == sentence


def test_a_removed_sentence_takes_its_footnote_and_followers_with_it():
    answer, dropped = drop_unsupported_sequential(
        parse_cited_answer(
            "Revenue grew 10.4% quarter over quarter¹. This shows strong momentum. "
            "Revenue rose 3% sequentially²." + SOURCES
        ),
        PAGES,
    )
    assert dropped == 1
    assert answer.body == "Revenue rose 3% sequentially²."
    assert [f.number for f in answer.references.footnotes] == [2]
