"""The grid cell ``{FY, FQ}`` of a filing, from the filing's own period.

Why this order of evidence: the grid labels a document with the company's own fiscal
year (Nike's FY2023 ends in May 2023, Walmart's FY2024 in January 2024), which is what a
filing's XBRL ``DocumentFiscalYearFocus`` / ``DocumentFiscalPeriodFocus`` say (carried in
company facts as each fact's ``fy`` and ``fp``). Where a filing has no XBRL, its report
date and the company's fiscal year end (submissions ``fiscalYearEnd``, ``MMDD``) place
it: a fiscal year is named for the calendar year it ends in, a period ending in the
first week of a month belongs to the month before (52/53-week years: a year ending on
January 3, 2016 is FY2015, as ``retrieval.facts.fiscal`` reads statement columns). An
annual report is its year's Q4 cell; an 8-K takes the calendar year and quarter of its
date, as ``research ingest`` labels FinanceBench's 8-Ks (``retrieval.ingest.filenames``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from edgar.errors import DocumentError
from edgar.filings import Filing
from retrieval.ingest.filenames import fiscal_quarter

#: Days into a month that still count as the previous month's end (52/53-week years).
_EARLY_DAYS = 7


@dataclass(frozen=True)
class Placement:
    """Where a filing lands in the grid, and what placed it there."""

    fy: int
    fq: int
    source: str  # "xbrl" | "report date" | "event date": what placed the filing


def _effective_month(year: int, month: int, day: int) -> tuple[int, int]:
    """(year, month) a period end stands for: January 3 is December of the year before."""
    if day <= _EARLY_DAYS:
        return (year - 1, 12) if month == 1 else (year, month - 1)
    return year, month


def cell_from_date(period_end: str, fiscal_year_end: str | None, annual: bool) -> Placement:
    """The cell of a period ending on ``period_end`` (YYYY-MM-DD) for a company whose
    fiscal year ends on ``fiscal_year_end`` (MMDD; December when unknown)."""
    end = date.fromisoformat(period_end)
    fye = fiscal_year_end or "1231"
    _, fye_month = _effective_month(2001, int(fye[:2]), int(fye[2:]))
    year, month = _effective_month(end.year, end.month, end.day)
    fy = year if month <= fye_month else year + 1
    if annual:
        return Placement(fy, 4, "report date")
    quarter = round(((month - fye_month) % 12) / 3)
    return Placement(fy, quarter if 1 <= quarter <= 3 else 4, "report date")


def filing_cell(
    filing: Filing, fiscal_year_end: str | None, focus: tuple[int, str] | None
) -> Placement:
    """The grid cell of ``filing``; ``focus`` is its XBRL ``(fy, fp)`` when it has one.

    The XBRL focus is used when it agrees with the form (``FY`` for an annual report,
    ``Q1``-``Q3`` for a quarterly one) and lies within a year of the report date; else the
    report date places the filing. DocumentError when no date can.
    """
    form = filing.base_form
    when = filing.report_date or filing.filing_date
    if form == "8-K":
        if not filing.filing_date and not filing.report_date:
            raise DocumentError(f"{filing.accession}: no date to place the 8-K by")
        dated = filing.report_date or filing.filing_date
        return Placement(int(dated[:4]), fiscal_quarter("8-K", None, dated), "event date")
    annual = form == "10-K"
    if focus is not None:
        fy, fp = focus
        near = not when or abs(fy - int(when[:4])) <= 1
        if near and annual and fp == "FY":
            return Placement(fy, 4, "xbrl")
        if near and not annual and fp in ("Q1", "Q2", "Q3"):
            return Placement(fy, int(fp[1]), "xbrl")
    if not when:
        raise DocumentError(f"{filing.accession}: no report date to place the filing by")
    return cell_from_date(when, fiscal_year_end, annual)
