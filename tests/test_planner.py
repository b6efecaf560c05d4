"""Slice planner: the pre-pass, the spec's rules (property tests), the LLM steps, bad questions."""

from __future__ import annotations

import itertools

import dspy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scripted_lm import ScriptedLM

from domain.cells import SliceRef
from programs.errors import PlanningError
from programs.latest_periods import latest_full_fy, latest_periodic_cell
from programs.planner import SlicePlanner
from programs.planning_facets import merge_facets, prepass
from programs.planning_rules import (
    MAX_STAND_IN_DISTANCE,
    names_no_period,
    nearest_cell,
    plan_slices,
    with_context_period,
)
from programs.question import looks_ahead
from retrieval.companies import Company, load_companies
from retrieval.store import GridCell
from signatures.planner import Facets

# -- the pre-pass ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cells(sample_store) -> list[GridCell]:
    return sample_store.cells()


@pytest.mark.parametrize(
    ("question", "tickers", "years", "quarters", "last_n", "deep"),
    [
        ("3M's capex from FY2018 to FY2020?", ["MMM"], [2018, 2019, 2020], [], None, False),
        ("PepsiCo vs The Coca-Cola Company, fiscal 2019", ["PEP", "KO"], [2019], [], None, False),
        ("PEP revenue in Q1 and Q2 FY23", ["PEP"], [2023], [1, 2], None, False),
        ("MMM Q3 2023 margins", ["MMM"], [2023], [3], None, False),
        ("KO dividends over the last three years", ["KO"], [], [], 3, False),
        ("quarterly cash flow for $PEP in 2022", ["PEP"], [2022], [], None, True),
        ("Coca-Cola between 2019 and 2020, third quarter", ["KO"], [2019, 2020], [3], None, False),
        ("3M net sales of $32,765 million", ["MMM"], [], [], None, False),
    ],
)  # fmt: skip
def test_prepass_reads_companies_and_periods(
    cells, question, tickers, years, quarters, last_n, deep
):
    found = prepass(question, load_companies(), cells)
    assert found.tickers == tickers
    assert found.fiscal_years == years
    assert found.fiscal_quarters == quarters
    assert found.last_n_years == last_n
    assert found.deep is deep


def test_prepass_reports_companies_the_grid_does_not_hold(cells):
    found = prepass("Compare Apple and 3M in FY2020", load_companies(), cells)
    assert found.tickers == ["MMM"]
    assert found.unknown == ["Apple (AAPL) is not in the grid"]


def test_prepass_periods_win_over_the_llm_and_companies_are_a_union(cells):
    pre = prepass("3M over the last two years", load_companies(), cells)
    llm = Facets(tickers=["pep"], equities=["Pepsi"], fiscal_years=[2010], granularity="deep")
    merged = merge_facets(pre, llm)
    assert merged.tickers == ["MMM", "PEP"]
    assert merged.fiscal_years == [] and merged.last_n_years == 2
    assert merged.granularity == "deep"
    # With no period in the question, the LLM's years are used.
    assert merge_facets(prepass("3M capex", load_companies(), cells), llm).fiscal_years == [2010]


def test_llm_quarters_count_only_when_the_question_speaks_of_quarters(cells):
    llm = Facets(tickers=["PEP"], fiscal_quarters=[3])
    years = prepass("PepsiCo's buybacks from FY2020 to FY2022", load_companies(), cells)
    assert (
        merge_facets(years, llm, "PepsiCo's buybacks from FY2020 to FY2022").fiscal_quarters == []
    )
    for question in ("PepsiCo in the third quarter", "PEP 3Q23", "PEP Q3 results"):
        kept = merge_facets(prepass(question, load_companies(), cells), llm, question)
        assert kept.fiscal_quarters == [3]


@pytest.mark.parametrize(
    ("question", "quarters"),
    [
        ("By how much did PepsiCo raise its credit facility on May 26, 2023?", [2]),
        ("What was on the agenda of PepsiCo's 8-K dated 1st July 2022?", [3]),
        ("PepsiCo's AGM held on Sept. 3rd, 2022 and Dec 1 2022", [3, 4]),
        ("PepsiCo's revenue in the fiscal year ended December 31, 2022", []),
        # a filing dated by its month alone is in that month's quarter
        ("What was the key agenda of PepsiCo's 8-K filing dated May 2023?", [2]),
        ("What did the 8-K PepsiCo filed in July 2022 announce?", [3]),
        ("PepsiCo's revenue in the fiscal year ended May 2023", []),
    ],
)
def test_a_dated_event_falls_in_its_calendar_quarter(cells, question, quarters):
    found = prepass(question, load_companies(), cells)
    assert found.date_quarters == quarters and found.fiscal_quarters == []
    assert merge_facets(found, Facets(), question).fiscal_quarters == quarters


def test_a_dated_event_is_researched_in_the_quarter_that_holds_it(cells):
    question = "By how much did PepsiCo raise its credit facility on May 26, 2023?"
    facets = merge_facets(prepass(question, load_companies(), cells), Facets(), question)
    assert [s.label for s in plan_slices(facets, cells).slices] == ["PEP FY2023 Q2"]


# -- the rules, one test each --------------------------------------------------------------


def test_no_period_means_the_latest_10k_or_10q_per_ticker(cells):
    # PEP holds FY2023 Q1/Q2 earnings releases, not 10-Qs: its latest filing that reports a
    # whole period is FY2022's 10-K.
    plan = plan_slices(Facets(tickers=["PEP", "KO"]), cells)
    assert [s.label for s in plan.slices] == ["PEP FY2022 Q4", "KO FY2020 Q4"]
    grid = [*cells, GridCell("PEP", "PepsiCo", 2023, 2, ("10-Q",), 10)]
    plan = plan_slices(Facets(tickers=["PEP"]), grid)
    assert [s.label for s in plan.slices] == ["PEP FY2023 Q2"]
    assert plan.scope == [
        "PEP: no period given, so the latest period in the grid (FY2023 Q2, 10-Q) was used"
    ]
    trend = plan_slices(Facets(tickers=["PEP"], trend=True), grid)
    assert [s.label for s in trend.slices] == ["PEP FY2023 Q2"]  # FY2022 Q2 is not held:
    assert any("comparative columns of FY2023 Q2's filing" in line for line in trend.scope)


def test_a_trends_absent_prior_is_read_from_the_later_filing_only_when_the_grid_holds_it():
    # Asked whether growth accelerates in FY2024 with only FY2022's 10-K held: FY2024 is
    # stood in for by FY2022, and no filing in the grid prints FY2023 beside FY2024.
    grid = [GridCell("MCD", "McDonald's", 2022, 4, ("10-K",), 10)]
    plan = plan_slices(Facets(tickers=["MCD"], fiscal_years=[2024], trend=True), grid)
    assert [s.label for s in plan.slices] == ["MCD FY2022 Q4"]
    assert "MCD FY2023 Q4 is not in the grid, nor is FY2024's filing: no change is computed" in (
        plan.scope
    )
    assert not any("comparative columns" in line for line in plan.scope)
    # With FY2024 held, FY2023 comes from its comparative columns.
    grid.append(GridCell("MCD", "McDonald's", 2024, 4, ("10-K",), 10))
    plan = plan_slices(Facets(tickers=["MCD"], fiscal_years=[2024], trend=True), grid)
    assert [s.label for s in plan.slices] == ["MCD FY2024 Q4"]
    assert any("comparative columns of FY2024's filing" in line for line in plan.scope)


def test_a_year_counted_back_is_counted_from_the_latest_annual_filing(cells):
    # Grid-relative, not calendar-relative: "last year" is the latest year a 10-K reports,
    # and the Scope line says which year that is. A 10-Q of a later year does not move it.
    grid = [*cells, GridCell("PEP", "PepsiCo", 2023, 2, ("10-Q",), 10)]
    question = "How did PepsiCo's revenue change from the year before last to last year?"
    facets = merge_facets(prepass(question, load_companies(), grid), Facets(), question)
    plan = plan_slices(facets, grid)
    assert [s.label for s in plan.slices] == ["PEP FY2021 Q4", "PEP FY2022 Q4"]
    assert plan.scope == [
        "PEP: years counted back from FY2022, the latest fiscal year the grid holds: FY2021, FY2022"
    ]
    # A year the question names wins over "last year" said beside it.
    question = "PepsiCo's revenue in FY2021 compared with last year"
    facets = merge_facets(prepass(question, load_companies(), grid), Facets(), question)
    assert (facets.fiscal_years, facets.years_back) == ([2021], [])


def test_last_quarter_is_the_latest_quarter_filed_with_its_year_ago_quarter_for_a_trend(cells):
    # PEP's latest quarter is an earnings release (FY2023 Q2), newer than its last 10-K.
    grid = [*cells, GridCell("PEP", "PepsiCo", 2022, 2, ("10-Q",), 10)]
    question = "What was PepsiCo's revenue last quarter?"
    facets = merge_facets(prepass(question, load_companies(), grid), Facets(), question)
    assert [s.label for s in plan_slices(facets, grid).slices] == ["PEP FY2023 Q2"]
    question = "How did PepsiCo's revenue grow year over year last quarter?"
    facets = merge_facets(prepass(question, load_companies(), grid), Facets(), question)
    plan = plan_slices(facets, grid)
    assert [s.label for s in plan.slices] == ["PEP FY2022 Q2", "PEP FY2023 Q2"]
    assert [s.label for s in plan.compared] == ["PEP FY2022 Q2"]
    # Without the year-ago quarter in the grid, its comparative columns are said to serve.
    plan = plan_slices(facets, cells)
    assert [s.label for s in plan.slices] == ["PEP FY2023 Q2"]
    assert "PEP FY2022 Q2 is not in the grid; its figures come from the comparative" in (
        " ".join(plan.scope)
    )


def test_the_trailing_twelve_months_are_the_latest_annual_year_with_later_quarters_named(cells):
    question = "What was PepsiCo's revenue over the last twelve months?"
    facets = merge_facets(prepass(question, load_companies(), cells), Facets(), question)
    plan = plan_slices(facets, cells)
    assert [s.label for s in plan.slices] == ["PEP FY2022 Q4"]
    assert plan.scope == [
        "PEP: the trailing twelve months are read as FY2022, the latest twelve months an "
        "annual filing reports; the quarters filed since (FY2023 Q1, FY2023 Q2) are not "
        "added to it"
    ]


def test_the_last_n_years_are_named_per_company(cells):
    plan = plan_slices(Facets(tickers=["PEP"], last_n_years=2), cells)
    assert "PEP: the last 2 fiscal years the grid holds: FY2021, FY2022" in plan.scope


def test_no_quarter_means_q4_only(cells):
    plan = plan_slices(Facets(tickers=["MMM"], fiscal_years=[2019, 2020]), cells)
    assert {s.fq for s in plan.slices} == {4}


def test_deep_granularity_means_q1_to_q4_and_reports_quarters_not_held(cells):
    plan = plan_slices(Facets(tickers=["PEP"], fiscal_years=[2023], granularity="deep"), cells)
    assert [s.label for s in plan.slices] == ["PEP FY2023 Q1", "PEP FY2023 Q2"]
    assert plan.missing == ["PEP FY2023 Q3", "PEP FY2023 Q4"]


def test_cartesian_product_de_duplicated(cells):
    facets = Facets(tickers=["MMM", "PEP", "MMM"], fiscal_years=[2021, 2022, 2021])
    plan = plan_slices(facets, cells)
    assert [s.label for s in plan.slices] == [
        "MMM FY2021 Q4", "MMM FY2022 Q4", "PEP FY2021 Q4", "PEP FY2022 Q4",
    ]  # fmt: skip


def test_quarter_without_year_takes_the_latest_fy_holding_that_quarter(cells):
    plan = plan_slices(Facets(tickers=["PEP"], fiscal_quarters=[2]), cells)
    assert [s.label for s in plan.slices] == ["PEP FY2023 Q2"]


def test_last_n_years_counts_full_fiscal_years(cells):
    plan = plan_slices(Facets(tickers=["PEP", "KO"], last_n_years=3), cells)
    assert [s.label for s in plan.slices] == [
        "PEP FY2020 Q4", "PEP FY2021 Q4", "PEP FY2022 Q4", "KO FY2019 Q4", "KO FY2020 Q4",
    ]  # fmt: skip
    assert any("KO" in n and "2 full fiscal year" in n for n in plan.notes)


def test_relative_periods_are_read_by_the_rules(cells):
    companies = load_companies()
    since = prepass("How has Coca-Cola's revenue changed since FY2019?", companies, cells)
    assert since.since_fy == 2019
    plan = plan_slices(merge_facets(since, None), cells)
    assert [s.label for s in plan.slices] == ["KO FY2019 Q4", "KO FY2020 Q4"]
    prior = prepass("3M's capex in FY2022 versus the prior year", companies, cells)
    assert prior.fiscal_years == [2021, 2022] and prior.since_fy is None
    assert prepass("3M's capex in FY2022", companies, cells).fiscal_years == [2022]


# -- the rules' deterministic part, as properties --------------------------------------------

TICKERS = ["AAA", "BBB", "CCC"]


@st.composite
def grids(draw) -> list[GridCell]:
    keys = draw(
        st.lists(
            st.tuples(
                st.sampled_from(TICKERS),
                st.integers(2015, 2024),
                st.integers(1, 4),
                st.sampled_from(["10-Q", "10-Q", "8-K"]),  # an 8-K reports an event
            ),
            min_size=1,
            max_size=25,
            unique_by=lambda key: key[:3],
        )
    )
    return [
        GridCell(t, f"{t} Inc", fy, fq, ("10-K",) if fq == 4 else (quarterly,), 10)
        for t, fy, fq, quarterly in sorted(keys)
    ]


@st.composite
def facet_sets(draw) -> Facets:
    return Facets(
        tickers=draw(st.lists(st.sampled_from(TICKERS), min_size=1, max_size=4)),
        fiscal_years=draw(st.lists(st.integers(2014, 2025), max_size=3)),
        fiscal_quarters=draw(st.lists(st.integers(1, 4), max_size=2)),
        last_n_years=draw(st.none() | st.integers(1, 4)),
        last_n_quarters=draw(st.none() | st.integers(1, 6)),
        years_back=draw(st.lists(st.integers(0, 3), max_size=2)),
        trailing=draw(st.booleans()),
        year_to_date=draw(st.booleans()),
        granularity=draw(st.sampled_from([None, "FY", "deep"])),
        trend=draw(st.booleans()),
        sequential=draw(st.booleans()),
    )


@settings(max_examples=300, deadline=None)
@given(grids(), facet_sets())
def test_plan_properties(grid, facets):
    plan = plan_slices(facets, grid)
    held = {(c.ticker, c.fy, c.fq) for c in grid}
    keys = [(s.ticker, s.fy, s.fq) for s in plan.slices]
    assert set(keys) <= held  # only cells the grid holds
    assert len(keys) == len(set(keys))  # de-duplicated
    assert len(plan.missing) == len(set(plan.missing))
    assert plan_slices(facets, grid) == plan  # deterministic
    planned = {s.label for s in plan.slices}
    scope = " ".join(plan.scope)
    quarters = sorted(set(facets.fiscal_quarters)) or (
        [1, 2, 3, 4] if facets.granularity == "deep" else [4]
    )
    for ticker in set(facets.tickers):
        own = [s for s in plan.slices if s.ticker == ticker]
        to_date = facets.year_to_date and facets.fiscal_years and not facets.fiscal_quarters
        if to_date and facets.granularity != "deep" and not facets.last_n_quarters:
            # "YTD": every year at the quarter of the latest year's latest filing (a 10-Q's
            # year-to-date columns), never an earlier year's annual filing standing in.
            latest = max(facets.fiscal_years)
            filed = [
                c.fq
                for c in grid
                if (c.ticker, c.fy) == (ticker, latest) and c.doc_types[0] != "8-K"
            ]
            if filed and max(filed) != 4:
                assert {s.fq for s in own} == {max(filed)}
            continue
        if facets.last_n_quarters:
            # The last n quarters back from the latest filed: quarters filed alone, or, with
            # none among them, the latest annual filing, said in a Scope line; no prior period.
            positions = [c.fy * 4 + c.fq for c in grid if c.ticker == ticker]
            own = [s for s in plan.slices if s.ticker == ticker]
            compared = [s for s in plan.compared if s.ticker == ticker]
            if not positions:
                assert not own
                continue
            if compared:  # "last quarter" in a trend question: with its year-ago quarter
                assert facets.trend and facets.last_n_quarters == 1
                assert len(compared) == 1 and len(own) == 2
                (prior,), later = compared, next(s for s in own if s not in compared)
                step = (0, 1) if facets.sequential else (1, 0)
                assert (prior.fy + step[0], prior.fq + step[1]) == (later.fy, later.fq)
                own = [later]
            run = range(max(positions) - facets.last_n_quarters + 1, max(positions) + 1)
            if f"{ticker}: the grid holds no quarterly filing for" in scope:
                assert len(own) == 1
            else:
                assert own and all(s.fq != 4 and s.fy * 4 + s.fq in run for s in own)
            continue
        years = set(facets.fiscal_years)
        if not years and facets.years_back and (latest := latest_full_fy(ticker, grid)):
            # "the year before last": counted back from the latest annual year, said so.
            years = {latest - back for back in facets.years_back}
            assert f"{ticker}: years counted back from FY{latest}," in scope
        elif not years and facets.trailing and (latest := latest_full_fy(ticker, grid)):
            # "TTM": the latest year an annual filing reports, said so.
            years = {latest}
            assert f"{ticker}: the trailing twelve months are read as FY{latest}," in scope
        if years:
            # Cartesian product: every requested cell is planned, stood in for by a named
            # neighbour the grid holds (a Scope line says which), or reported missing.
            for fy, fq in itertools.product(years, quarters):
                label = SliceRef(ticker=ticker, fy=fy, fq=fq).label
                if label in planned or label in plan.missing:
                    continue
                if fq != 4 and fy + 1 in years and (ticker, fy + 1, fq) in held:
                    # a year-ago quarter: read from the later quarter's comparative columns
                    assert (
                        f"{label} is not in the grid; its figures come from the "
                        + (f"comparative columns of FY{fy + 1} Q{fq}'s filing")
                        in scope
                    )
                    assert f"{ticker} FY{fy + 1} Q{fq}" in planned
                    continue
                assert f"{label} is not in the grid; researched" in scope
                used = scope.split(f"{label} is not in the grid; researched ")[1].split(" (")[0]
                used = used.split(",")[0]
                assert used in planned
                cell = nearest_cell(ticker, fy, fq, grid)
                assert cell is not None and cell.ticker == ticker
                assert abs((cell.fy * 4 + cell.fq) - (fy * 4 + fq)) <= MAX_STAND_IN_DISTANCE
        own = [s for s in plan.slices if s.ticker == ticker]
        held_own = {(c.fy, c.fq) for c in grid if c.ticker == ticker}
        assert {(s.fy, s.fq) for s in own} <= held_own
        # A slice added for a trend's prior period stands beside a later one, never alone.
        compared = [s for s in plan.compared if s.ticker == ticker]
        assert facets.trend or not compared
        assert set(compared) <= set(own)
        assert not compared or any(s not in compared for s in own)
        for prior in compared:  # the year-ago period, or with "sequential" the quarter before
            later = (prior.fy, prior.fq + 1) if facets.sequential else (prior.fy + 1, prior.fq)
            assert later in {(s.fy, s.fq) for s in own}
            assert not facets.sequential or prior.fq in (1, 2)  # a quarter filed alone
        if names_no_period(facets) and held_own:
            latest = latest_periodic_cell(ticker, grid)
            assert latest is not None
            if facets.trend:
                prior = (
                    (latest.fy, latest.fq - 1) if facets.sequential else (latest.fy - 1, latest.fq)
                )
                assert {(s.fy, s.fq) for s in own} <= {(latest.fy, latest.fq), prior}
            else:
                assert [(s.fy, s.fq) for s in own] == [(latest.fy, latest.fq)]
            # No held 10-K or 10-Q is newer than the one used.
            periodic = [
                c for c in grid if c.ticker == ticker and {"10-K", "10-Q"} & set(c.doc_types)
            ]
            assert all(c.fy * 4 + c.fq <= latest.fy * 4 + latest.fq for c in periodic)


@settings(max_examples=100, deadline=None)
@given(grids(), st.sampled_from(TICKERS), st.integers(2010, 2030), st.integers(1, 4))
def test_a_missing_cell_is_stood_in_for_by_the_nearest_held_cell(grid, ticker, fy, fq):
    cell = nearest_cell(ticker, fy, fq, grid)
    own = [c for c in grid if c.ticker == ticker]
    if cell is None:
        assert all(abs((c.fy * 4 + c.fq) - (fy * 4 + fq)) > MAX_STAND_IN_DISTANCE for c in own)
        return
    assert cell in own
    if fq != 4 and any(c.fy == fy and c.fq == 4 for c in own):
        assert (cell.fy, cell.fq) == (fy, 4)  # the FY's annual filing first


@settings(max_examples=100, deadline=None)
@given(grids(), st.sampled_from(TICKERS), st.integers(2010, 2030), st.integers(1, 4))
def test_an_outlook_is_looked_for_in_the_latest_filing_before_its_period(grid, ticker, fy, fq):
    """Guidance for a quarter is given in the quarter before's filing, for a year in the year
    before's annual one: asked ahead, the stand-in is the latest held cell before the period
    began, when one is near."""
    cell = nearest_cell(ticker, fy, fq, grid, ahead=True)
    began = (fy - 1) * 4 + 4 if fq == 4 else fy * 4 + fq - 1
    before = [
        c for c in grid
        if c.ticker == ticker and c.fy * 4 + c.fq <= began
        and fy * 4 + fq - (c.fy * 4 + c.fq) <= MAX_STAND_IN_DISTANCE
    ]  # fmt: skip
    if before:
        assert cell is not None and cell.fy * 4 + cell.fq == max(c.fy * 4 + c.fq for c in before)
    else:
        assert cell == nearest_cell(ticker, fy, fq, grid)


def test_guidance_for_a_missing_quarter_is_researched_in_the_quarter_before():
    grid = [
        GridCell("INTC", "Intel", 2023, 1, ("8-K", "EARNINGS"), 229),
        GridCell("INTC", "Intel", 2023, 3, ("8-K",), 5),
        GridCell("INTC", "Intel", 2023, 4, ("8-K",), 103),
    ]
    facets = Facets(tickers=["INTC"], fiscal_years=[2023], fiscal_quarters=[2])
    assert looks_ahead("What revenue guidance did Intel give for Q2 FY2023?")
    ahead = plan_slices(facets, grid, ahead=True)
    assert [s.label for s in ahead.slices] == ["INTC FY2023 Q1"]
    assert "INTC FY2023 Q2 is not in the grid; researched INTC FY2023 Q1, the latest filing " \
        "before it" in " ".join(ahead.scope)  # fmt: skip
    assert [s.label for s in plan_slices(facets, grid).slices] == ["INTC FY2023 Q4"]
    assert not looks_ahead("What was Intel's revenue in Q2 FY2023?")
    assert looks_ahead("What revenue did Intel guide for Q2 2023?")  # the verb too
    assert not looks_ahead("What is Intel's guideline on dividends?")


# -- the planner module: LLM steps and clear messages --------------------------------------


def plan(cells, question, **lm_kwargs):
    with dspy.context(lm=ScriptedLM(**lm_kwargs)):
        return SlicePlanner(cells)(question=question)


def test_llm_equities_are_mapped_and_validated_against_the_grid(cells):
    result = plan(
        cells,
        "How does Coke's dividend compare with Tesla's in 2020?",
        facets={"equities": ["Coke", "Tesla"]},
        tickers_for={"Coke": "KO", "Tesla": "TSLA"},
    )
    assert result.labels == ["KO FY2020 Q4"]
    assert result.unknown == ["Tesla (TSLA) is not in the grid"]
    assert "Tesla (TSLA) is not in the grid" in result.user_notes()


def test_a_models_mapping_beside_a_named_company_must_be_plausible(cells):
    """A name the map lacks, read by the model as a company the question neither names nor
    abbreviates, does not add that company's slices to a question about another; a brand
    or nickname ("Coke", "Pepsi") still does."""
    result = plan(
        cells,
        "What was 3M (formerly Minnesota Mining, not Pepsi) capex in FY2020?",
        facets={"equities": ["Minnesota Mining", "Pepsi"]},
        tickers_for={"Minnesota Mining": "PEP", "Pepsi": "PEP"},
    )
    assert result.labels == ["MMM FY2020 Q4", "PEP FY2020 Q4"]  # "Pepsi" abbreviates PepsiCo
    spurious = plan(
        cells,
        "What was 3M (formerly Minnesota Mining) capex in FY2020?",
        facets={"equities": ["Minnesota Mining"]},
        tickers_for={"Minnesota Mining": "PEP"},
    )
    assert spurious.labels == ["MMM FY2020 Q4"]
    assert "'Minnesota Mining' read as PEP by the model, not kept" in spurious.notes


def test_unknown_names_alongside_known_ones_are_reported(cells):
    result = plan(cells, "Apple vs 3M capex in FY2020", facets={"equities": ["Apple", "3M"]})
    assert result.labels == ["MMM FY2020 Q4"]
    assert result.unknown == ["Apple (AAPL) is not in the grid"]


def test_planner_survives_unusable_facets(cells):
    result = plan(cells, "3M capex FY2019", garbage=lambda agent, _: agent.startswith("planner"))
    assert result.labels == ["MMM FY2019 Q4"]
    assert any("facet extraction failed" in n for n in result.notes)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("   ", "The question is empty"),
        ("What is the outlook for Tesla?", "No company in the question is in the grid"),
        ("How did Apple do in FY2020?", "Apple (AAPL) is not in the grid"),
        ("3M revenue in FY2012", "None of the periods asked for are in the grid (MMM FY2012 Q4)"),
        ("3M revenue in Q5 2021", "Q5 is not a fiscal quarter"),
        ("3M revenue in FY20222", "FY20222 is not a fiscal year"),
    ],
)
def test_bad_questions_give_clear_messages(cells, question, expected):
    with pytest.raises(PlanningError) as err:
        plan(cells, question)
    assert expected in err.value.message
    assert len(err.value.message.splitlines()) <= 3
    if "None of the periods" in err.value.message:
        assert "Nearest held: MMM FY2018, MMM FY2019" in err.value.message
    elif "No company" in err.value.message or "empty" in err.value.message:
        assert "3M (MMM), Coca-Cola (KO), PepsiCo (PEP)" in err.value.message


def _big_grid() -> list[GridCell]:
    return [
        GridCell(f"T{i:02d}", f"Company {i:02d}", fy, fq, ("10-K",) if fq == 4 else ("10-Q",), 9)
        for i in range(40)
        for fy in range(2015, 2024)
        for fq in (2, 4)
    ]


@pytest.mark.parametrize(
    "question",
    ["What is the outlook for Tesla?", "Company 07 revenue in FY1999", "Is the margin healthy?"],
)
def test_errors_on_a_large_grid_stay_three_lines_and_name_the_nearest_cells(question):
    grid = _big_grid()
    companies = [Company(c.company, c.ticker, (c.company,)) for c in grid]
    with dspy.context(lm=ScriptedLM()), pytest.raises(PlanningError) as err:
        SlicePlanner(grid, companies=companies)(question=question)
    message = err.value.message
    assert len(message.splitlines()) <= 3 and len(message) < 400, message
    assert "more" in message  # the rest of a 720-cell grid is summarised, never listed
    if "FY1999" in message:
        assert "Nearest held: T07 FY2015, T07 FY2015 Q2" in message


@pytest.mark.parametrize(
    ("question", "label", "scope"),
    [
        # A quarter the grid lacks: the FY's annual filing, said so.
        ("KO results for Q2 2020", "KO FY2020 Q4", "KO FY2020 Q2 is not in the grid"),
        ("Coca-Cola's first half of FY2020", "KO FY2020 Q4", "annual filing"),
        # A year the grid lacks: the nearest year held.
        ("Coca-Cola's results for FY2021", "KO FY2020 Q4", "the nearest period held"),
        # A quarter and its year absent: the nearest cell of any kind.
        ("PepsiCo's Q3 2023 results", "PEP FY2023 Q2", "PEP FY2023 Q3 is not in the grid"),
    ],
)
def test_a_missing_cell_is_answered_from_its_neighbour_with_a_scope_line(
    cells, question, label, scope
):
    result = plan(cells, question)
    assert result.labels == [label]
    assert result.missing == []
    assert any(scope in line for line in result.user_notes()), result.user_notes()


def test_a_trend_question_adds_the_prior_year(cells):
    result = plan(cells, "Is 3M's operating margin improving as of FY2022?")
    assert result.labels == ["MMM FY2021 Q4", "MMM FY2022 Q4"]
    assert [s.label for s in result.compared] == ["MMM FY2021 Q4"]  # added, not asked for
    one_year = plan(cells, "What was 3M's operating margin in FY2022?")
    assert one_year.labels == ["MMM FY2022 Q4"] and one_year.compared == []


@pytest.mark.parametrize(
    "question",
    [
        "How did PepsiCo's revenue in Q2 2023 change quarter over quarter?",
        "What was PepsiCo's sequential revenue growth in Q2 2023?",
        "How did PepsiCo's Q2 2023 revenue compare with the previous quarter?",
    ],
)
def test_a_sequential_question_adds_the_quarter_before(cells, question):
    grid = [*cells, *(GridCell("PEP", "PepsiCo", 2023, q, ("10-Q",), 10) for q in (1, 2))]
    result = plan(grid, question)
    assert result.labels == ["PEP FY2023 Q1", "PEP FY2023 Q2"]  # not the year-ago FY2022 Q2
    assert [s.label for s in result.compared] == ["PEP FY2023 Q1"]


def test_a_sequential_change_from_an_annual_filing_is_not_computed(cells):
    # Q1's quarter before is the fourth, which the grid holds as the year's annual filing:
    # its figures are the year's, so it is not added, and the Scope line says why.
    grid = [*cells, GridCell("PEP", "PepsiCo", 2023, 1, ("10-Q",), 10)]
    result = plan(grid, "How did PepsiCo's Q1 2023 revenue change quarter over quarter?")
    assert result.labels == ["PEP FY2023 Q1"] and result.compared == []
    assert any("FY2022's fourth, filed in the annual report" in n for n in result.user_notes())
    # A quarter before that the grid lacks is said, not stood in for by a year-ago quarter.
    grid = [*cells, GridCell("MMM", "3M", 2023, 3, ("10-Q",), 10)]
    result = plan(grid, "What was 3M's QoQ revenue growth in Q3 2023?")
    assert result.labels == ["MMM FY2023 Q3"] and result.compared == []
    assert any(
        "MMM FY2023 Q2 is not in the grid, and no later quarter's filing reports it" in n
        for n in result.user_notes()
    )


def test_the_last_n_quarters_are_the_quarters_filed_alone_back_from_the_latest(cells):
    quarterly = [GridCell("PEP", "PepsiCo", 2023, q, ("10-Q",), 10) for q in (1, 2)]
    event = GridCell("PEP", "PepsiCo", 2022, 3, ("8-K",), 10)  # an event, not a quarter's figures
    result = plan(
        [*cells, *quarterly, event], "How did PepsiCo's revenue trend over the last four quarters?"
    )
    # FY2023 Q2 back to FY2022 Q3; the fourth quarter is the annual filing, said not researched
    assert result.labels == ["PEP FY2023 Q1", "PEP FY2023 Q2"] and result.compared == []
    notes = " ".join(result.user_notes())
    assert "PEP FY2022 Q4: the fourth quarter is filed in the annual report" in notes
    assert "Not in the grid, so not researched: PEP FY2022 Q3." in notes
    # A company with annual filings only: its latest annual filing, said, never a failed run.
    result = plan(cells, "What was 3M's revenue in the past two quarters?")
    assert result.labels == ["MMM FY2022 Q4"]
    assert "MMM: the grid holds no quarterly filing for the last 2 quarters" in " ".join(
        result.user_notes()
    )


def test_year_to_date_is_the_years_latest_filing_and_an_earlier_year_its_comparatives(cells):
    grid = [*cells, GridCell("PEP", "PepsiCo", 2023, 2, ("10-Q",), 10)]
    result = plan(grid, "What was PepsiCo's revenue YTD 2023?")
    assert result.labels == ["PEP FY2023 Q2"]
    assert "PEP: year to date FY2023 is read as the year to Q2" in " ".join(result.user_notes())
    # the year-ago year to date is printed beside it, not stood in for by a whole year
    result = plan(grid, "How did PepsiCo's year-to-date 2023 revenue compare with YTD 2022?")
    assert result.labels == ["PEP FY2023 Q2"]
    assert "PEP FY2022 Q2 is not in the grid; its figures come from the comparative columns" in (
        " ".join(result.user_notes())
    )
    # a closed year's year to date is the whole year: its annual filing
    assert plan(cells, "3M's revenue YTD 2022").labels == ["MMM FY2022 Q4"]


def test_a_year_ago_quarter_is_read_from_the_later_quarters_filing_not_the_annual_one(cells):
    # PEP holds FY2023 Q2 (an earnings release) and FY2022's 10-K, but no FY2022 Q2 filing:
    # the annual filing would compare a whole year with a quarter; the later quarter's
    # filing prints the year-ago quarter beside its own.
    for question in [
        "Did PepsiCo's revenue grow in Q2 of FY2023 compared to Q2 of FY2022?",
        "Compare PepsiCo's operating income in Q2 2022 and Q2 2023.",
    ]:
        result = plan(cells, question)
        assert result.labels == ["PEP FY2023 Q2"], question
        said = " ".join(result.user_notes())
        assert (
            "PEP FY2022 Q2 is not in the grid; its figures come from the comparative "
            + ("columns of FY2023 Q2's filing")
            in said
        ), said
    # a quarter asked alone still gets its year's annual filing, said so
    result = plan(cells, "What was PepsiCo's revenue in Q2 of FY2022?")
    assert result.labels == ["PEP FY2022 Q4"]


TWO_YEARS = ["MMM FY2021 Q4", "MMM FY2022 Q4"]


@pytest.mark.parametrize(
    "question",
    [
        "Did 3M's margins expand in FY2022?",
        "Did 3M's cash balance drop in 2022?",
        "What was 3M's revenue in the two most recent fiscal years?",
        "How did 3M's capex move over the last couple of years?",
    ],
)
def test_moves_and_counted_recent_years_plan_each_period(cells, question):
    assert plan(cells, question).labels == TWO_YEARS


def test_a_question_naming_no_period_says_which_was_used(cells):
    result = plan(cells, "What is 3M's operating margin?")
    assert result.labels == ["MMM FY2022 Q4"]
    assert any("latest period in the grid (FY2022 Q4, 10-K)" in n for n in result.user_notes())


def test_llm_years_the_question_does_not_write_are_ignored(cells):
    result = plan(
        cells,
        "What is 3M's operating margin?",
        facets={"tickers": ["MMM"], "fiscal_years": [2018, 2019]},
    )
    assert result.labels == ["MMM FY2022 Q4"]


def test_too_many_slices_is_a_clear_error(cells):
    with dspy.context(lm=ScriptedLM()), pytest.raises(PlanningError, match="limit is 3"):
        SlicePlanner(cells, max_slices=3)(question="3M and PepsiCo from FY2018 to FY2022")


def test_empty_grid_is_a_clear_error():
    with pytest.raises(PlanningError, match="grid is empty"):
        SlicePlanner([])(question="3M capex")


def test_llm_facets_must_be_grounded_in_the_question():
    from programs.planning_facets import grounded

    llm = Facets(
        tickers=["MMM", "KO", "3M"],
        equities=["3M", "PepsiCo", "Coca-Cola", "40.25% of the company's capital expenditure"],
        granularity="deep",
    )
    kept = grounded(llm, "How did 3M's capex compare with PepsiCo's in FY2022?")
    assert kept.tickers == ["3M"] and kept.equities == ["3M", "PepsiCo"]
    assert kept.granularity is None
    assert grounded(llm, "3M capex in each quarter of FY2022").granularity == "deep"
    assert grounded(Facets(tickers=["KO"]), "What did KO pay in dividends?").tickers == ["KO"]
    # a word of the name counts whole: "healthy" names no "CVS Health"
    healthy = "Does Apple have a reasonably healthy liquidity profile in FY2022?"
    assert grounded(Facets(equities=["Apple", "CVS Health"]), healthy).equities == ["Apple"]
    assert grounded(Facets(equities=["CVS Health"]), "CVS's health care costs").equities == [
        "CVS Health"
    ]


def test_an_llm_count_of_years_the_question_does_not_ask_for_is_ignored(cells):
    invented = {"tickers": ["MMM"], "last_n_years": 3}
    result = plan(
        cells, "What does 3M expect to pay for litigation in the future?", facets=invented
    )
    assert result.labels == ["MMM FY2022 Q4"]
    asked = plan(cells, "How did 3M's revenue move over the past few years?", facets=invented)
    assert asked.labels == ["MMM FY2020 Q4", "MMM FY2021 Q4", "MMM FY2022 Q4"]


def test_a_peer_name_the_map_lacks_is_in_the_plan_unless_the_model_maps_it(cells):
    result = plan(cells, "Compare 3M and Honeywell capex in FY2022", facets={"equities": ["3M"]})
    assert result.labels == ["MMM FY2022 Q4"]
    assert result.unknown == ["Honeywell is not a company the grid holds"]
    mapped = plan(
        cells,
        "Compare Coke and PepsiCo gross margins in 2020",
        facets={"equities": ["Coke", "PepsiCo"]},
        tickers_for={"Coke": "KO"},
    )
    assert sorted(mapped.labels) == ["KO FY2020 Q4", "PEP FY2020 Q4"] and mapped.unknown == []


def test_a_prior_period_is_not_kept_beside_a_stand_in_for_the_period_asked():
    # FY2023 Q1 is missing and FY2022 Q2 stands in: FY2022 Q1 beside it would compare two
    # other quarters, not the year-over-year move asked.
    grid = [GridCell("AAA", "AAA Inc", 2022, q, ("10-Q",), 10) for q in (1, 2)]
    facets = Facets(tickers=["AAA"], fiscal_years=[2023], fiscal_quarters=[1], trend=True)
    result = plan_slices(facets, grid)
    assert [s.label for s in result.slices] == ["AAA FY2022 Q2"] and result.compared == []
    assert "AAA FY2023 Q1 is not in the grid; researched AAA FY2022 Q2" in result.scope[0]


def test_one_of_two_periods_set_side_by_side_is_reported_missing_not_stood_in_for():
    """ "Q3 of FY2024 compared with Q3 of FY2023" with FY2024 Q3 absent: Q2 FY2024 beside Q3
    FY2023 would compare another pair of quarters than the one asked."""
    grid = [GridCell("AAA", "AAA Inc", 2023, 3, ("10-Q",), 10)]
    grid += [GridCell("AAA", "AAA Inc", 2024, q, ("10-Q",), 10) for q in (1, 2)]
    facets = Facets(tickers=["AAA"], fiscal_years=[2024, 2023], fiscal_quarters=[3])
    result = plan_slices(facets, grid)
    assert [s.label for s in result.slices] == ["AAA FY2023 Q3"]
    assert result.missing == ["AAA FY2024 Q3"]
    alone = plan_slices(Facets(tickers=["AAA"], fiscal_years=[2024], fiscal_quarters=[3]), grid)
    assert [s.label for s in alone.slices] == ["AAA FY2024 Q2"]  # asked alone: its neighbour


def test_a_question_naming_no_period_is_about_the_period_of_the_filing_it_is_asked_of(cells):
    planner = SlicePlanner(cells)
    with dspy.context(lm=ScriptedLM()):
        asked = planner(question="What was 3M's capital expenditure?", period="FY2019")
        alone = planner(question="What was 3M's capital expenditure?")
        named = planner(question="What was 3M's capital expenditure in FY2020?", period="FY2019")
        trend = planner(question="Is 3M's gross margin improving?", period="FY2019 Q4")
    assert asked.labels == ["MMM FY2019 Q4"]
    assert "the question names no period; read as the run's period, FY2019" in asked.scope
    assert alone.labels == ["MMM FY2022 Q4"]  # the latest period the grid holds
    assert named.labels == ["MMM FY2020 Q4"]  # a period the question names wins
    assert trend.labels == ["MMM FY2018 Q4", "MMM FY2019 Q4"]  # and a trend adds the prior year
    with pytest.raises(PlanningError, match="not one fiscal year or quarter"):
        planner(question="What was 3M's capital expenditure?", period="FY2019-FY2021")


def test_a_count_of_years_asked_of_a_filing_ends_in_its_period(cells):
    planner = SlicePlanner(cells)
    with dspy.context(lm=ScriptedLM()):
        counted = planner(
            question="How did 3M's capex move over the past two years?", period="FY2020"
        )
        historic = planner(
            question="Are 3M's gross margins historically consistent?", period="FY2021"
        )
        alone = planner(question="Are 3M's gross margins historically consistent?")
    assert counted.labels == ["MMM FY2019 Q4", "MMM FY2020 Q4"]
    assert "the 2 years asked for end in the run's period, FY2020" in counted.scope
    assert historic.labels == ["MMM FY2019 Q4", "MMM FY2020 Q4", "MMM FY2021 Q4"]
    assert alone.labels == ["MMM FY2020 Q4", "MMM FY2021 Q4", "MMM FY2022 Q4"]  # the latest


@given(st.integers(2000, 2030), st.sampled_from([None, 1, 2, 3, 4]))
def test_a_run_period_in_any_form_gives_its_year_and_quarter(fy, fq):
    facets = Facets(tickers=["MMM"])
    for text in [f"FY{fy}" + (f" Q{fq}" if fq else ""), f"Q{fq} {fy}" if fq else str(fy)]:
        given_facets, line = with_context_period(facets, text)
        assert given_facets.fiscal_years == [fy]
        assert given_facets.fiscal_quarters == ([fq] if fq else [])
        assert line.endswith(f"FY{fy}" + (f" Q{fq}" if fq else ""))


def test_quarters_each_written_with_their_year_are_those_cells(cells):
    """Intel's "Q1 of FY2023 compared with Q4 of FY2022" was planned as every year with every
    quarter (FY2022 Q1 and Q4, FY2023 Q1 and Q4) and answered against the year-ago quarter."""
    question = "Has PepsiCo's gross margin improved in Q1 of FY2023 compared with Q4 of FY2022?"
    assert plan(cells, question).labels == ["PEP FY2022 Q4", "PEP FY2023 Q1"]
    # the same quarter of two years is both years' quarter, as before
    same = plan(cells, "Did PepsiCo's revenue grow in Q2 of FY2023 compared to Q2 of FY2022?")
    assert same.labels == ["PEP FY2023 Q2"]


def test_years_set_side_by_side_none_held_are_read_from_the_later_annual_filing():
    """FedEx's FY2022 capex "compared with FY2021", with only its FY2023 10-K held: the 10-K
    prints both years beside its own, so it is researched (before, the run failed)."""
    grid = [GridCell("FDX", "FedEx", 2023, 4, ("10-K",), 10)]
    plan = plan_slices(Facets(tickers=["FDX"], fiscal_years=[2021, 2022]), grid)
    assert [s.label for s in plan.slices] == ["FDX FY2023 Q4"]
    assert (
        "FDX FY2022 Q4 is not in the grid; researched FDX FY2023 Q4, whose annual filing "
        "reports FY2022 beside its own" in plan.scope
    )
    held = [*grid, GridCell("FDX", "FedEx", 2021, 4, ("10-K",), 10)]
    plan = plan_slices(Facets(tickers=["FDX"], fiscal_years=[2021, 2022]), held)
    assert [s.label for s in plan.slices] == ["FDX FY2021 Q4"]  # one held: no stand-in beside it
    assert plan.missing == ["FDX FY2022 Q4"]
