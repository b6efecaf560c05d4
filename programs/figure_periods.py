"""The period a figure question asks of its slice, and how a figure's sentence names it."""

from __future__ import annotations

from dataclasses import replace

from calculator.result import Calculation
from domain.cells import SliceRef
from domain.fiscal_calendar import in_comparative_columns
from domain.periods import Period, read_periods, slice_period


def asked_period(question: str, ref: SliceRef) -> Period:
    """The slice's period as the question asks for it: the year to date at a Q2 or Q3 cell
    when it asks for the year so far ("H1", "nine months ended …", "YTD"). The planner puts
    such a question in that quarter's cell, whose 10-Q prints the quarter and the year to
    date side by side: read as the quarter, "the first half of 2023" was PepsiCo's Q2
    revenue, $22,322 million, not the half's $40,168 million. A fourth quarter written with
    its year ("Q4 2022", "the three months ended December 31, 2022") is the three months an
    earnings release prints beside the year: read as the year, Intel's Q4 2022 operating
    margin was given as FY2022's 3.7%. A question naming only years before an annual
    slice's own asks of a later filing standing in for them (the grid lacks FedEx's FY2022
    10-K; its FY2023 10-K prints FY2022's capex beside its own): the latest year named; not
    so "since 2020", whose later years are each researched as their own."""
    period, asked = slice_period(ref), read_periods(question)
    if period.fq in (2, 3) and asked.year_to_date:
        return replace(period, to_date=True)
    if ref.fq == 4 and (ref.fy, 4) in asked.quarter_cells:
        return Period(ref.fy, 4)  # "Q4 of FY2022", "the fourth quarter": the three months
    last = max(asked.fiscal_years, default=ref.fy)
    named = ref.fq == 4 and not asked.fiscal_quarters and asked.since_fy is None  # not "since"
    if named and in_comparative_columns(last, ref.fy):
        return Period(last)  # a later annual filing standing in for the year asked
    return period


def period_text(period: Period) -> str:
    """``FY2023 Q2``, or ``FY2023 Q2 year to date``: how a figure's sentence names its
    period, as reports name their slices."""
    return period.name + (" year to date" if period.to_date else "")


def figure_when(calculation: Calculation, fixed_years: bool) -> str:
    """When a figure's sentence says it was: ``in FY2023``, or ``from FY2020 to FY2022`` for
    a figure over fixed years (a growth or a CAGR spans its flows' years; a ratio to an
    average balance does not)."""
    when = f"in {period_text(calculation.period)}"
    read = [f for f in calculation.inputs if f.duration != "instant"] or calculation.inputs
    spans = sorted({Period(f.fy, f.fq) for f in read}, key=lambda p: (p.fy, p.fq or 0))
    if calculation.title.startswith("Change in") and calculation.title.endswith(" growth"):
        spans = spans[1:]  # two years' growths: the first year read is the first's base
    if fixed_years and len(spans) > 1 and not calculation.period.to_date:
        when = f"from {spans[0].label} to {spans[-1].label}"
    return when
