"""Placing a statement column in the company's fiscal calendar.

A document's ``fy`` is the company's own fiscal-year label (Nike's FY2023 ends in May
2023; Walmart's FY2024 in January 2024), so calendar years printed in a header are not
fiscal years. The anchor is the document itself: its latest column is its own period
(a 10-K's fiscal year, a 10-Q's quarter), and every other column is placed by its
distance from that one — whole years for annual columns, quarters (three months) for
balance-sheet dates in quarterly documents. The one exception: a column that ends after
the first weeks of the calendar year following the document's fiscal year (no fiscal year
N ends in the spring of N + 1) places the document by its content instead of its label.
"""

from __future__ import annotations

from dataclasses import dataclass

from retrieval.facts.columns import Column

ANNUAL_DOC_TYPES = ("10-K", "ANNUAL REPORT")
QUARTERLY_DOC_TYPES = ("10-Q", "EARNINGS")


@dataclass(frozen=True)
class ColumnPeriod:
    """The fiscal period a statement column reports, with its duration."""

    fy: int
    fq: int | None  # None: the full fiscal year, or its year-end date on a balance sheet
    duration: str  # "year" | "quarter" | "ytd" | "instant"


def place_columns(
    cols: list[Column], statement: str, doc_type: str, doc_fy: int, doc_fq: int
) -> list[ColumnPeriod] | None:
    """The fiscal period of each column, or None when the document cannot anchor them.

    8-Ks are not placed: what period an 8-K's tables cover is not in its grid cell.
    """
    if not cols or doc_type not in ANNUAL_DOC_TYPES + QUARTERLY_DOC_TYPES:
        return None
    annual = doc_type in ANNUAL_DOC_TYPES
    latest = max(c.year for c in cols)
    if abs(latest - doc_fy) > 1:
        return None  # a historical table (selected data), not this document's statement
    # A fiscal year is named for the calendar year it ends in, so no column of FY N ends
    # after the first days of N + 1 (a 53-week year may end on January 3): a document whose
    # latest column ends in March of N + 1 or later is labelled a year behind its content,
    # and its columns are placed by what they print.
    newest = [c for c in cols if c.year == latest]
    if latest > doc_fy and all(c.month is not None and c.month >= 3 for c in newest):
        doc_fy = latest
    if statement == "balance":
        return _instants(cols, annual, doc_fy, doc_fq)
    anchor = max(cols, key=_month_index)
    periods = []
    for col in cols:
        fy = doc_fy - _years_back(col, anchor)
        duration = col.duration or ("year" if annual else None)
        if duration is None:
            return None
        if annual:
            if duration != "year":
                return None  # quarterly columns in an annual report: not placed
            periods.append(ColumnPeriod(fy, None, "year"))
        elif duration == "quarter":
            periods.append(ColumnPeriod(fy, doc_fq, "quarter"))
        elif duration == "ytd" and doc_fq != 4:
            periods.append(ColumnPeriod(fy, doc_fq, "ytd"))
        else:  # twelve months, or year to date at the fourth quarter
            periods.append(ColumnPeriod(fy, None, "year"))
    return periods


def _month_index(col: Column) -> int:
    return col.year * 12 + (col.month or 12)


def _years_back(col: Column, anchor: Column) -> int:
    """Whole years from ``col`` to ``anchor``: by months when both print one (a 53-week year
    ending January 3, 2016 is one year after December 28, 2014), else by calendar year."""
    if col.month is None or anchor.month is None:
        return anchor.year - col.year
    return round((_month_index(anchor) - _month_index(col)) / 12)


def _instants(
    cols: list[Column], annual: bool, doc_fy: int, doc_fq: int
) -> list[ColumnPeriod] | None:
    if annual:
        anchor = max(cols, key=_month_index)
        return [ColumnPeriod(doc_fy - _years_back(c, anchor), None, "instant") for c in cols]
    if any(c.month is None for c in cols):
        return None  # a quarter-end beside a year-end cannot be told apart without months
    anchor = max(c.year * 12 + (c.month or 0) for c in cols)
    anchor_index = doc_fy * 4 + doc_fq - 1
    periods = []
    for col in cols:
        quarters_back = round((anchor - (col.year * 12 + (col.month or 0))) / 3)
        index = anchor_index - quarters_back
        fy, fq = divmod(index, 4)
        periods.append(ColumnPeriod(fy, None if fq == 3 else fq + 1, "instant"))
    return periods
