"""Which securities are registered on an exchange: the cover page's list, read by code."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from domain.cells import SliceRef
from programs.page_answers import page_answer
from programs.registered_securities import asks_registered, cover_classes

SLICE = SliceRef(ticker="SHOP", fy=2023, fq=2)

# A title, its symbol and its exchange on lines of their own (Apple's, 3M's covers).
TRIPLES = """Securities registered pursuant to Section 12(b) of the Act:
Title of each class
Trading
symbol(s)
Name of each exchange on which registered
Common Stock, $0.00001 par value per share
SHOP
The Nasdaq Stock Market LLC
1.000% Notes due 2022
—
The Nasdaq Stock Market LLC
3.600% Notes due 2042
—
The Nasdaq Stock Market LLC
Securities registered pursuant to Section 12(g) of the Act: None
"""
# All titles first, then the symbols, then the exchanges (FedEx's cover).
GROUPED = """Title of each class
Trading Symbol
Name of each exchange on which registered
Common Stock, par value $0.10 per share
SHOP
New York Stock Exchange
0.450% Notes due 2025
1.625% Notes due 2027
SHOP 25A
SHOP 27
New York Stock Exchange
New York Stock Exchange
Securities registered pursuant to Section 12(g) of the Act: None
"""
STOCK_ONLY = """Title of each class
Trading symbol
Name of exchange on which registered
Common stock
SHOP
The Nasdaq Global Select Market
Securities registered pursuant to Section 12(g) of the Act: None
"""
QUESTION = (
    "Which debt securities are registered to trade on a national securities exchange under "
    "Shop's name as of FY2022?"
)


@dataclass(frozen=True)
class _Page:
    text: str
    uid: str = "0123456789ab"
    page_id: int = 3
    doc_label: str = "SHOP 10-K FY2022"
    page_index: int = 0


def _in_the_slice(*pages: _Page):
    """A search that finds ``pages`` in the slice's own cell and nothing elsewhere."""
    return lambda query, where: list(pages) if (where.fy, where.fq) == (2023, 2) else []


@pytest.mark.parametrize(
    ("text", "classes"),
    [
        (
            TRIPLES,
            [
                "Common Stock, $0.00001 par value per share",
                "1.000% Notes due 2022",
                "3.600% Notes due 2042",
            ],
        ),
        (
            GROUPED,
            [
                "Common Stock, par value $0.10 per share",
                "0.450% Notes due 2025",
                "1.625% Notes due 2027",
            ],
        ),
        (STOCK_ONLY, ["Common stock"]),
        ("Item 7. Management's discussion and analysis", None),
    ],
)
def test_the_covers_class_titles_are_read_whatever_the_layout(text, classes):
    assert cover_classes(text) == classes


def test_the_debt_asked_for_is_listed_and_cited_to_the_cover():
    page, answer, answered_by = page_answer(
        QUESTION, SLICE, _in_the_slice(_Page("Risk factors."), _Page(TRIPLES))
    )
    assert answered_by == "the filing's cover page" and page.text == TRIPLES
    assert answer.body == (
        "2 debt securities are registered to trade on an exchange: 1.000% Notes due 2022; "
        "3.600% Notes due 2042¹."
    )
    assert answer.references.footnotes[0].citation.page_index == 0


def test_a_cover_with_no_debt_says_so_and_names_what_it_registers():
    _, answer, _ = page_answer(QUESTION, SLICE, _in_the_slice(_Page(STOCK_ONLY)))
    assert answer.body == "None: the cover registers no debt security, only Common stock¹."
    _, listed, _ = page_answer(
        "What securities are registered on an exchange?", SLICE, _in_the_slice(_Page(GROUPED))
    )
    assert listed.body.startswith("Registered to trade on an exchange: Common Stock, par value")


def test_a_yes_no_question_on_registered_debt_opens_with_yes_or_no():
    """ "Does eBay have any debt securities registered …?" had been answered "None: …"."""
    asked = "Does Shop have any debt securities registered to trade on an exchange?"
    _, none, _ = page_answer(asked, SLICE, _in_the_slice(_Page(STOCK_ONLY)))
    assert none.body == "No: the cover registers no debt security, only Common stock¹."
    _, some, _ = page_answer(asked, SLICE, _in_the_slice(_Page(TRIPLES)))
    assert some.body.startswith("Yes: 2 debt securities are registered to trade on an exchange")


def test_only_a_question_about_registration_is_read_from_the_cover():
    assert asks_registered(QUESTION)
    assert asks_registered("Is Shop's common stock listed on the NYSE?")
    assert not asks_registered("What was Shop's long-term debt in FY2022?")
    assert not asks_registered("Who is Shop's registered public accounting firm?")
    assert not asks_registered("How many shares are listed in the equity table?")
    assert (
        page_answer(
            "What was Shop's long-term debt in FY2022?", SLICE, _in_the_slice(_Page(TRIPLES))
        )
        is None
    )


def _covers(**by_cell: _Page):
    """A search that finds each page in its cell ("2022Q4"), a release's text elsewhere."""

    def search(query, where):
        found = by_cell.get(f"y{where.fy}q{where.fq}")
        return [found] if found else [_Page("Quarterly results: revenue rose 12%.")]

    return search


def test_a_quarter_without_a_cover_is_answered_from_the_nearest_filings_cover():
    """A quarter the grid holds only an earnings release for (McDonald's Q2 2023): the cover
    is read from the nearest filing that prints one, and the answer says whose."""
    annual = _Page(TRIPLES, doc_label="SHOP 10-K FY2022")
    page, answer, answered_by = page_answer(QUESTION, SLICE, _covers(y2022q4=annual))
    assert page is annual and answered_by == "the nearest filing's cover page"
    assert answer.body == (
        "2 debt securities are registered to trade on an exchange: 1.000% Notes due 2022; "
        "3.600% Notes due 2042¹. The grid holds no cover page for SHOP FY2023 Q2; this is the "
        "cover of SHOP 10-K FY2022, the nearest filing that prints one¹."
    )


def test_of_two_covers_a_quarter_apart_the_earlier_is_read():
    """A later filing may register notes issued after the period asked about."""
    earlier = _Page(TRIPLES, doc_label="SHOP 10-Q FY2023 Q1")
    later = _Page(STOCK_ONLY, doc_label="SHOP 10-Q FY2023 Q3")
    page, _, _ = page_answer(QUESTION, SLICE, _covers(y2023q1=earlier, y2023q3=later))
    assert page is earlier
    page, _, _ = page_answer(QUESTION, SLICE, _covers(y2022q4=earlier, y2023q3=later))
    assert page is later  # a quarter ahead is nearer than two back


def test_no_cover_near_the_slice_leaves_the_question_to_research():
    assert page_answer(QUESTION, SLICE, lambda query, where: [_Page("Revenue rose 12%.")]) is None
