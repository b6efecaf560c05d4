"""A company's fiscal calendar: a dated quarter is read as the company's own fiscal quarter
(``domain.fiscal_calendar``, ``domain.periods.in_fiscal_terms``), and the planner uses the
company map's fiscal year end (``programs.planning_facets.in_company_calendar``)."""

from __future__ import annotations

import calendar
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.fiscal_calendar import check_year_end, fiscal_cell, year_end_name
from domain.periods import in_fiscal_terms, read_periods
from programs.planning_facets import in_company_calendar, prepass
from retrieval.companies import load_companies

MONTHS = list(calendar.month_name)[1:]


@given(
    year=st.integers(2000, 2090),
    quarters_after=st.integers(0, 3),
    day=st.integers(8, 28),
    fye_month=st.integers(1, 12),
)
def test_a_quarter_end_is_the_quarter_it_closes_in_the_fiscal_year_it_closes_into(
    year, quarters_after, day, fye_month
):
    fye = f"{fye_month:02d}28"
    month = (fye_month - 1 + 3 * quarters_after) % 12 + 1
    fy, fq = fiscal_cell(year, month, day, fye)
    assert fq == (quarters_after or 4)
    # the fiscal year is named for the calendar year it ends in
    assert fy == (year if month <= fye_month else year + 1)


@given(year=st.integers(2000, 2090), quarter=st.integers(1, 4), day=st.integers(8, 31))
def test_a_december_year_reads_a_quarter_end_as_its_calendar_quarter(year, quarter, day):
    assert fiscal_cell(year, 3 * quarter, day, "1231") == (year, quarter)


def test_off_december_years_and_52_53_week_ends():
    assert fiscal_cell(2023, 11, 30, "0531") == (2024, 2)  # Nike
    assert fiscal_cell(2023, 5, 31, "0531") == (2023, 4)
    assert fiscal_cell(2022, 10, 29, "0131") == (2023, 3)  # Foot Locker's FY2023 Q3 10-Q
    assert fiscal_cell(2016, 1, 3, "1231") == (2015, 4)  # J&J's 2015 ended January 3, 2016
    assert fiscal_cell(2023, 7, 2, "1231") == (2023, 2)
    assert fiscal_cell(2018, 2, 3, "0201", annual=True) == (2018, 4)  # Best Buy
    assert year_end_name("0201") == "January"


@pytest.mark.parametrize("bad", ["1331", "531", "0532", "May 31", ""])
def test_a_fiscal_year_end_is_written_mmdd(bad):
    with pytest.raises(ValueError, match="not a fiscal year end"):
        check_year_end(bad)


@pytest.mark.parametrize(
    ("question", "fye", "years", "quarters"),
    [
        ("Revenue in the quarter ended November 30, 2023?", "0531", [2024], [2]),
        ("Revenue in the quarter ended 11/30/2023?", "0531", [2024], [2]),
        ("Revenue in the quarter ended 2023-11-30?", "0531", [2024], [2]),
        ("Revenue for the six months ended November 30, 2023?", "0531", [2024], [2]),
        ("Revenue in the November 2023 quarter?", "0531", [2024], [2]),
        ("Revenue in the quarter ended August 2022?", "0531", [2023], [1]),
        ("Inventory as of May 31, 2023?", "0531", [2023], [4]),
        ("Sales in the quarter ended October 31, 2023?", "0131", [2024], [3]),
        ("Sales as of July 2, 2023?", "1231", [2023], [2]),  # a 52/53-week Q2 end
        ("Revenue in the quarter ended June 30, 2023?", "1231", [2023], [2]),
        # not a quarter end: a year end, and an event's date, are read as before
        ("Revenue for the fiscal year ended May 31, 2023?", "0531", [2023], []),
    ],
)
def test_a_dated_quarter_is_read_in_the_companys_calendar(question, fye, years, quarters):
    found = read_periods(in_fiscal_terms(question, fye))
    assert (found.fiscal_years, found.fiscal_quarters) == (years, quarters)


def test_the_planner_reads_a_dated_quarter_in_the_named_companys_calendar():
    companies = load_companies()
    question = "What was Nike's revenue in the quarter ended November 30, 2023?"
    pre = prepass(question, companies, [])
    assert (pre.fiscal_years, pre.fiscal_quarters) == ([2023], [4])  # the calendar reading
    nike = next(c for c in companies if c.ticker == "NKE")
    fiscal, scope = in_company_calendar(question, pre, ["NKE"], nike.fiscal_year_end)
    assert (fiscal.fiscal_years, fiscal.fiscal_quarters) == ([2024], [2])
    assert scope == [
        "NKE: the dates asked about are read in the fiscal calendar (the fiscal year ends "
        "in May): FY2024 Q2"
    ]
    # a December company reads the same date as before, and says nothing
    assert in_company_calendar(question, pre, ["MMM"], "1231") == (pre, [])


def test_a_company_map_with_a_bad_fiscal_year_end_is_refused_by_name(tmp_path):
    path = tmp_path / "companies.json"
    path.write_text(json.dumps({"Acme": {"ticker": "ACME", "fiscal_year_end": "May"}}))
    with pytest.raises(ValueError, match=r"cannot read the company map .*not a fiscal year end"):
        load_companies(str(path))


def test_companies_whose_years_end_apart_are_planned_each_in_its_calendar():
    import dspy

    from benchmarks.planner import _NoModel
    from programs.planner import SlicePlanner
    from retrieval.store import GridCell

    cells = [
        GridCell("NKE", "Nike", 2023, 2, ("10-Q",), 40),
        GridCell("NKE", "Nike", 2023, 4, ("10-K",), 90),
        GridCell("MMM", "3M", 2022, 4, ("10-K",), 120),
        GridCell("MMM", "3M", 2023, 2, ("10-Q",), 60),
    ]
    question = "Compare Nike's and 3M's revenue in the quarter ended November 30, 2022"
    with dspy.context(lm=_NoModel()):
        plan = SlicePlanner(cells)(question=question)
    assert [s.label for s in plan.slices] == ["NKE FY2023 Q2", "MMM FY2022 Q4"]
    assert any(line.startswith("NKE: the dates asked about") for line in plan.scope)
