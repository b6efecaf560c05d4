"""A company's fiscal calendar: the fiscal year and quarter a period-end date closes.

The grid names a fiscal year for the calendar year it ends in (Nike's FY2023 ends on May
31, 2023; Walmart's FY2024 on January 31, 2024), as the filings' XBRL does, and numbers
its quarters from the month after the fiscal year end. A 52/53-week period that ends in
the first week of a month belongs to the month before: Johnson & Johnson's 2015 ended on
January 3, 2016, and is FY2015. Two readers need this: placing a fetched filing in the
grid (:mod:`edgar.cells`) and reading a question's dated quarter ("the quarter ended
November 30, 2023" is Nike's Q2 FY2024, not a calendar Q4).
"""

from __future__ import annotations

import re

#: A fiscal year end as SEC submissions write it (``fiscalYearEnd``): month and day, MMDD.
DECEMBER_YEAR_END = "1231"
_MMDD = re.compile(r"^(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$")
#: Days into a month that still count as the previous month's end (52/53-week years).
EARLY_DAYS = 7
#: How many fiscal years before its own an annual filing prints in its comparative columns:
#: the income and cash-flow statements show three years.
COMPARATIVE_YEARS = 2
_MONTH_NAMES = (
    "January February March April May June July August September October November December"
).split()


def check_year_end(value: str) -> str:
    """``value`` if it is a fiscal year end written MMDD ("0531"), else ValueError."""
    if not _MMDD.match(value):
        raise ValueError(f"{value!r} is not a fiscal year end (write month and day, as 0531)")
    return value


def effective_month(year: int, month: int, day: int) -> tuple[int, int]:
    """(year, month) a period end stands for: January 3 is December of the year before."""
    if day <= EARLY_DAYS:
        return (year - 1, 12) if month == 1 else (year, month - 1)
    return year, month


def year_end_month(fiscal_year_end: str | None) -> int:
    """The month a fiscal year ending on ``fiscal_year_end`` (MMDD) closes: "0201" is a
    52/53-week year that ends around January 31, so January."""
    fye = fiscal_year_end or DECEMBER_YEAR_END
    return effective_month(2001, int(fye[:2]), int(fye[2:]))[1]


def year_end_name(fiscal_year_end: str | None) -> str:
    """The month's name, for a reader ("May")."""
    return _MONTH_NAMES[year_end_month(fiscal_year_end) - 1]


def fiscal_cell(
    year: int, month: int, day: int, fiscal_year_end: str | None, annual: bool = False
) -> tuple[int, int]:
    """The ``(fy, fq)`` of a period ending on the date for a company whose fiscal year ends
    on ``fiscal_year_end`` (MMDD; December when unknown). An annual period is its year's Q4;
    a quarter is numbered from the month after the year end."""
    fye_month = year_end_month(fiscal_year_end)
    year, month = effective_month(year, month, day)
    fy = year if month <= fye_month else year + 1
    if annual:
        return fy, 4
    quarter = round(((month - fye_month) % 12) / 3)
    return fy, quarter if 1 <= quarter <= 3 else 4


def in_comparative_columns(fy: int, filing_fy: int) -> bool:
    """Whether the annual filing of ``filing_fy`` prints fiscal year ``fy`` beside its own
    (a later filing, at most :data:`COMPARATIVE_YEARS` later): where the planner lets it
    stand in for ``fy`` and code reads ``fy``'s figures from it, alike."""
    return fy < filing_fy <= fy + COMPARATIVE_YEARS
