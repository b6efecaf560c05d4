"""The browse service ``research grid|search`` and the web app share: the matrix and the
checked search, over the sample grid (a real SQLite store seeded from the bundled filings)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cli.app import app
from domain.periods import Period
from retrieval.browse import (
    BrowseError,
    check_query,
    grid_filter,
    grid_matrix,
    search_grid,
)
from retrieval.coverage import SHOWN_IN_ERRORS, OutsideGridError, check_filter, held_tickers_text
from retrieval.search.text import clean_page_text
from retrieval.sqlite.store import SQLiteStore
from retrieval.store import GridCell, GridFilter

runner = CliRunner()


@pytest.fixture
def empty_store(tmp_path):
    store = SQLiteStore(tmp_path / "empty.sqlite")
    yield store
    store.close()


class _NoSearch:
    """A searcher that fails the test if a search gets as far as it."""

    def search(self, *args, **kwargs):
        raise AssertionError("searched although the request should have been refused")


def test_the_matrix_is_what_the_grid_holds(sample_store):
    matrix = grid_matrix(sample_store)
    cells = sample_store.cells()
    assert matrix.tickers == ["KO", "MMM", "PEP"]
    assert matrix.companies == {"KO": "Coca-Cola", "MMM": "3M", "PEP": "PepsiCo"}
    assert set(matrix.cells) == {(c.ticker, c.fy, c.fq) for c in cells}
    assert matrix.periods == sorted(matrix.periods, key=lambda p: (p.fy, p.fq))
    assert Period(2023, 2) in matrix.periods and Period(2018, 4) in matrix.periods
    assert matrix.cell("MMM", Period(2018, 4)).doc_types == ("10-K",)
    assert matrix.cell("KO", Period(2023, 2)) is None  # PepsiCo's quarter, not Coca-Cola's
    stats = sample_store.stats()
    assert (matrix.pages, matrix.documents, matrix.vectors) == (
        stats["pages"],
        stats["documents"],
        stats["vectors"],
    )
    assert sum(matrix.ticker_pages(t) for t in matrix.tickers) == stats["pages"]
    assert matrix.ticker_pages("KO") == sum(c.pages for c in cells if c.ticker == "KO")


def test_coverage_labels_annual_filings_by_year_and_quarters_by_quarter(sample_store):
    coverage = grid_matrix(sample_store).coverage()
    assert list(coverage) == ["KO", "MMM", "PEP"]
    assert coverage["KO"] == ["FY2019", "FY2020"]
    assert coverage["PEP"][-2:] == ["FY2023 Q1", "FY2023 Q2"]


def test_an_empty_grid_has_an_empty_matrix_and_cannot_be_searched(empty_store):
    matrix = grid_matrix(empty_store)
    assert (matrix.tickers, matrix.periods, matrix.cells, matrix.pages) == ([], [], {}, 0)
    with pytest.raises(BrowseError, match="the grid is empty: run `research ingest PATH`"):
        search_grid(empty_store, "revenue")


def test_typed_filters_are_read_into_a_grid_filter():
    assert grid_filter(" mmm ", "FY18", "q2", "10k") == GridFilter("MMM", 2018, 2, "10-K")
    assert grid_filter() == GridFilter()
    assert check_query("  capex \n") == "capex"


def test_search_finds_pages_inside_the_filter_with_snippets(sample_store, searcher):
    where = grid_filter("mmm", "FY2018")
    hits = search_grid(sample_store, "capital expenditures", where, k=3)
    expected = searcher.search("capital expenditures", GridFilter("MMM", 2018), k=3)
    assert [h.uid for h in hits] == [h.uid for h in expected]
    assert len(hits) == 3
    assert all(h.doc_label == "MMM 10-K FY2018" for h in hits)
    for hit in hits:  # a window of the page's own text, not the whole page
        assert 0 < len(hit.snippet) <= 300
        assert hit.snippet.strip("…") in clean_page_text(hit.text)
    assert any("capital" in h.snippet.lower() for h in hits)


def test_search_uses_the_callers_searcher(sample_store, searcher):
    hits = search_grid(sample_store, "dividends", grid_filter("KO", "2020"), k=2, searcher=searcher)
    assert [h.doc_label for h in hits] == ["KO 10-K FY2020"] * 2


@pytest.mark.parametrize(
    ("query", "filters", "message"),
    [
        ("capex", {"ticker": "ZZZ"}, "ZZZ is not in the grid; it holds KO, MMM, PEP"),
        ("capex", {"ticker": "KO", "fy": "2031"}, "FY2031 is not in the grid for KO"),
        ("capex", {"ticker": "KO", "fq": "Q2"}, "Q2 is not in the grid for that selection"),
        ("capex", {"ticker": "KO", "doc_type": "8-K"}, "no 8-K in that selection"),
        ("capex", {"fq": "Q7"}, "cannot read a fiscal quarter"),
        ("capex", {"doc_type": "memo"}, "unknown document type"),
        ("   ", {}, "the query is empty: say what to look for"),
    ],
)
def test_bad_searches_are_refused_before_searching(sample_store, query, filters, message):
    with pytest.raises(BrowseError, match=message) as caught:
        search_grid(sample_store, query, grid_filter(**filters), searcher=_NoSearch())
    assert isinstance(caught.value, ValueError)  # callers that catch ValueError still do


def test_the_cli_and_the_web_give_the_same_hits_and_errors(sample_store_path):
    from web.grid_view import GridView, SearchRequest

    view = GridView(sample_store_path)
    try:
        web_hits = view.search(SearchRequest("capital expenditures", "MMM", "2018", k=3))
        with pytest.raises(BrowseError) as web_error:
            view.search(SearchRequest("capex", "KO", "2031"))
        matrix = view.matrix()
    finally:
        view.close()
    store = ["--store", str(sample_store_path)]
    args = ["capital expenditures", "--ticker", "MMM", "--fy", "2018", "-k", "3", "--json"]
    cli = runner.invoke(app, ["search", *args, *store])
    assert cli.exit_code == 0, cli.output
    assert [json.loads(line)["uid"] for line in cli.stdout.splitlines()] == [
        h.uid for h in web_hits
    ]
    bad = runner.invoke(app, ["search", "capex", "--ticker", "KO", "--fy", "2031", *store])
    assert bad.exit_code != 0 and str(web_error.value) in " ".join(bad.output.split())
    listing = runner.invoke(app, ["grid", *store])
    assert listing.exit_code == 0, listing.output
    for ticker in matrix.tickers:
        assert str(matrix.ticker_pages(ticker)) in listing.stdout
    assert f"{matrix.documents} documents, {matrix.pages} pages" in listing.stdout


def test_an_error_names_the_nearest_tickers_and_counts_the_rest():
    held = [f"T{i:02d}" for i in range(40)] + ["PEP", "MMM"]
    assert held_tickers_text(held, "PEPP").startswith("PEP, ")
    assert held_tickers_text(["KO", "MMM", "PEP"], "NOPE") == "KO, MMM, PEP"
    text = held_tickers_text(held, "ZZZ")
    assert text.endswith(f"and {len(held) - SHOWN_IN_ERRORS} more (`research grid` lists them)")
    assert text.count(",") == SHOWN_IN_ERRORS - 1


def test_a_quarter_off_a_large_grid_is_one_short_line():
    cells = [
        GridCell(f"T{i:02d}", f"Company {i:02d}", fy, fq, ("10-Q",), 9)
        for i in range(40)
        for fy in (2021, 2022)
        for fq in (1, 2, 3)
    ]
    with pytest.raises(OutsideGridError) as caught:
        check_filter(cells, GridFilter(fy=2022, fq=4))
    assert str(caught.value) == (
        "Q4 is not in the grid for that selection; held: FY2022 Q3, FY2022 Q2, FY2022 Q1"
    )
    with pytest.raises(OutsideGridError) as caught:
        check_filter(cells, GridFilter(ticker="T1"))
    assert "and 32 more" in str(caught.value) and len(str(caught.value)) < 200
