"""A statement fact: one number of one row of one financial-statement table on one filing page.

Facts are read from page text by code at ingest, so a report's numbers come from the
filing, not from a language model's copy of it. A fact is cited like a page: by the
``uid`` of the page it was read from.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The statements a fact can come from.
STATEMENTS = ("income", "balance", "cash_flow", "comprehensive_income", "equity")
#: What a fact read from a note's table carries instead (:mod:`retrieval.facts.note_rows`).
NOTES = "notes"

#: Units a fact's value is expressed in (values are in base units: dollars, not millions).
UNITS = ("USD", "shares", "USD/share", "%")


@dataclass(frozen=True)
class Fact:
    """One value, in base units, with the page it was printed on.

    ``fy``/``fq`` name the column's period: ``fq is None`` is the full fiscal year (or, on a
    balance sheet, the fiscal year-end date); ``fq`` 1-4 is that fiscal quarter (three
    months, or the quarter-end date on a balance sheet). ``duration`` says which:
    ``"year"``, ``"quarter"``, ``"ytd"`` (year to date, e.g. nine months) or ``"instant"``
    (a balance-sheet date).
    """

    uid: str  # the page's uid: what a citation to this fact points at
    page_id: int
    doc_name: str
    doc_label: str  # as footnotes print it: "MMM 10-K FY2018"
    page_index: int  # zero-based
    ticker: str
    statement: str  # one of STATEMENTS, or NOTES
    label: str  # the row label as printed
    concept: str | None  # canonical concept ("capex", "revenue", ...) or None
    fy: int
    fq: int | None
    duration: str  # "year" | "quarter" | "ytd" | "instant"
    column: str  # the column header as printed ("2018", "December 31, 2018")
    value: float  # base units: 1,577 "(Millions)" -> -1_577_000_000.0 when printed (1,577)
    unit: str  # one of UNITS

    @property
    def period_label(self) -> str:
        """``FY2018`` or ``FY2023 Q2``."""
        return f"FY{self.fy}" if self.fq is None else f"FY{self.fy} Q{self.fq}"
