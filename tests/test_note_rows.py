"""Interest expense read from a note's table where the income statement prints none.

The fixture pages were copied verbatim from ``pages.jsonl.gz`` (FinanceBench's PyMuPDF
text): eBay's FY2017 income statement (no interest expense row) and its "Interest and
other, net" note; eBay's FY2016 MD&A table with a change column after each year's; 3M's
FY2020 note of interest expense and income, and its table of derivative gains by the line
they were booked in.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from calculator import calculate
from calculator.resolution import FactResolver
from domain.periods import Period
from retrieval.facts.extract import document_facts
from retrieval.facts.model import NOTES
from retrieval.facts.note_rows import note_facts
from retrieval.ingest.pages_file import _page_from_row

FIXTURE = Path(__file__).parent / "fixtures" / "note_interest_pages.jsonl"


@pytest.fixture(scope="module")
def pages():
    rows = [json.loads(line) for line in FIXTURE.read_text().splitlines() if line.strip()]
    found = {}
    for row in rows:
        page = _page_from_row(row)
        found[(row["doc_name"], row["page_num"])] = page.model_copy(
            update={"page_id": 1000 + row["page_num"]}
        )
    return found


def _interest(facts):
    return {(f.fy, f.page_index): f.value for f in facts if f.concept == "interest_expense"}


def test_ebays_interest_expense_comes_from_its_note(pages):
    statement, note = pages[("EBAY_2017_10K", 62)], pages[("EBAY_2017_10K", 99)]
    facts = document_facts([statement, note])
    assert {f.statement for f in facts if f.concept == "interest_expense"} == {NOTES}
    assert _interest(facts) == {(2017, 99): -292e6, (2016, 99): -225e6, (2015, 99): -144e6}
    # interest coverage now computes: operating income over the note's interest expense
    result = calculate("interest_coverage", facts, Period(2017, None))
    assert round(result.value, 2) == round(2_265 / 292, 2)


def test_a_statements_own_row_is_preferred_and_stops_the_notes_being_read(pages):
    note = pages[("EBAY_2017_10K", 99)]
    statement_row = next(
        f for f in document_facts([pages[("EBAY_2017_10K", 62)]]) if f.concept == "operating_income"
    )
    own = dataclasses.replace(statement_row, concept="interest_expense", label="Interest expense")
    assert note_facts([note], [own], 1e6) == []
    # were both read, the calculator would take the statement's
    read = note_facts([note], [], 1e6)
    resolver = FactResolver([*read, dataclasses.replace(own, statement="income")])
    assert resolver.pick("interest_expense", Period(2017, None)).statement == "income"


def test_change_columns_and_tables_without_interest_income_are_not_read(pages):
    """eBay's MD&A prints "% Change" after each year; 3M's derivative table names the
    interest expense line it booked gains in, and prints no interest income."""
    assert _interest(note_facts([pages[("EBAY_2016_10K", 41)]], [], 1e6)) == {}
    assert _interest(note_facts([pages[("3M_2020_10K", 103)]], [], 1e6)) == {}
    found = _interest(note_facts([pages[("3M_2020_10K", 79)]], [], 1e6))
    assert found == {(2020, 79): 529e6, (2019, 79): 448e6, (2018, 79): 350e6}
