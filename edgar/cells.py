"""The grid cell ``{FY, FQ}`` of a filing, from the filing's own period.

Why this order of evidence: the grid labels a document with the company's own fiscal
year (Nike's FY2023 ends in May 2023, Walmart's FY2024 in January 2024), which is what a
filing's XBRL ``DocumentFiscalYearFocus`` / ``DocumentFiscalPeriodFocus`` say (carried in
company facts as each fact's ``fy`` and ``fp``). Where a filing has no XBRL, its report
date and the company's fiscal year end (submissions ``fiscalYearEnd``, ``MMDD``) place
it by the company's fiscal calendar (:mod:`domain.fiscal_calendar`). An annual report is
its year's Q4 cell; an 8-K takes the calendar year and quarter of its date, as ``research
ingest`` labels FinanceBench's 8-Ks (``retrieval.ingest.filenames``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from domain.fiscal_calendar import fiscal_cell
from edgar.errors import DocumentError
from edgar.filings import Filing
from retrieval.ingest.filenames import fiscal_quarter


@dataclass(frozen=True)
class Placement:
    """Where a filing lands in the grid, and what placed it there."""

    fy: int
    fq: int
    source: str  # "xbrl" | "report date" | "event date": what placed the filing


def cell_from_date(period_end: str, fiscal_year_end: str | None, annual: bool) -> Placement:
    """The cell of a period ending on ``period_end`` (YYYY-MM-DD) for a company whose
    fiscal year ends on ``fiscal_year_end`` (MMDD; December when unknown)."""
    end = date.fromisoformat(period_end)
    fy, fq = fiscal_cell(end.year, end.month, end.day, fiscal_year_end, annual)
    return Placement(fy, fq, "report date")


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
