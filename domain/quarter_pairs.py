"""The cells a question names quarter by quarter, each quarter with its own year.

Apart from :mod:`domain.periods`, which reads every period a text names, because the
planner and the figures both ask it of a question already read: which cells were asked
as pairs, so that "Q1 of FY2023 compared with Q4 of FY2022" is those two cells, not every
year named with every quarter named.
"""

from __future__ import annotations

from domain.periods import Periods


def paired_cells(periods: Periods) -> list[tuple[int, int]]:
    """The cells a question names quarter by quarter, each with its own year, when they are
    different quarters ("Q1 of FY2023 compared with Q4 of FY2022": FY2022 Q4 and FY2023 Q1,
    not every year with every quarter); empty otherwise (Q2 of two years is both years' Q2)."""
    pairs = periods.quarter_cells
    quarters, years = {fq for _, fq in pairs}, {fy for fy, _ in pairs}
    whole = quarters == set(periods.fiscal_quarters) and years == set(periods.fiscal_years)
    return list(pairs) if len(quarters) > 1 and whole and not periods.year_to_date else []
