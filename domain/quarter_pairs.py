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
    not every year with every quarter); empty otherwise (Q2 of two years is both years' Q2).
    A year written as its end beside a quarter of another year is that year's last cell:
    "between the end of FY2022 and the end of Q2 FY2023" is FY2022 Q4 and FY2023 Q2, not
    both years' Q2 (eBay's cash was answered for Q2 FY2023 alone, FY2022 Q2 missing)."""
    pairs = periods.quarter_cells
    paired_years = {fy for fy, _ in pairs}
    ends = [(fy, 4) for fy in periods.year_ends if fy not in paired_years] if pairs else []
    quarters, years = {fq for _, fq in pairs}, paired_years | {fy for fy, _ in ends}
    whole = quarters == set(periods.fiscal_quarters) and years == set(periods.fiscal_years)
    if len(quarters | {fq for _, fq in ends}) < 2 or not whole or periods.year_to_date:
        return []
    return sorted([*pairs, *ends])
