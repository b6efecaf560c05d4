"""Facts in the grid store: written with a document's pages, rebuilt on re-ingest, read by slice."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from retrieval.facts.columns import Column
from retrieval.facts.fiscal import ColumnPeriod, place_columns
from retrieval.ingest.pipeline import ingest
from retrieval.sqlite.store import SQLiteStore
from retrieval.store import GridFilter

FIXTURE = Path(__file__).parent / "fixtures" / "facts_statement_pages.jsonl"


def write_pages(path: Path, rows: list[dict]) -> Path:
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row) + "\n")
    return path


@pytest.fixture
def rows() -> list[dict]:
    return [json.loads(line) for line in FIXTURE.read_text().splitlines() if line.strip()]


@pytest.fixture
def store(tmp_path):
    store = SQLiteStore(tmp_path / "grid.sqlite")
    yield store
    store.close()


def capex(store, fy=2018):
    return [f for f in store.facts(GridFilter(ticker="MMM", fy=fy), ["capex"])]


def test_ingest_writes_facts_and_reads_them_by_slice(tmp_path, rows, store):
    report = ingest(write_pages(tmp_path / "pages.jsonl.gz", rows), store)
    assert report.facts == store.count_facts() > 0
    found = capex(store)
    assert [(f.fy, f.value) for f in found] == [
        (2018, -1_577_000_000.0),
        (2017, -1_373_000_000.0),
        (2016, -1_420_000_000.0),
    ]
    page = store.pages_by_uid([found[0].uid])[0]
    assert (page.page_index, page.page_id) == (59, found[0].page_id)
    # The slice is the documents': PepsiCo's facts are not MMM's, whatever their year.
    assert {f.ticker for f in store.facts(GridFilter(ticker="MMM"))} == {"MMM"}
    assert store.facts(GridFilter(ticker="MMM", fy=2019)) == []
    assert store.facts(GridFilter(ticker="MMM"), []) == []
    everything = store.facts(GridFilter(ticker="MMM", fy=2018))
    assert [(f.page_id, f.page_index) for f in everything] == sorted(
        (f.page_id, f.page_index) for f in everything
    )


def test_quarterly_slice_by_fq(tmp_path, rows, store):
    ingest(write_pages(tmp_path / "pages.jsonl.gz", rows), store)
    q2 = store.facts(GridFilter(ticker="PEP", fy=2023, fq=2), ["revenue"])
    assert {(f.fy, f.fq, f.duration) for f in q2} == {
        (2023, 2, "quarter"),
        (2022, 2, "quarter"),
        (2023, 2, "ytd"),
        (2022, 2, "ytd"),
    }


def test_reingest_rebuilds_facts(tmp_path, rows, store):
    ingest(write_pages(tmp_path / "pages.jsonl.gz", rows), store)
    before = store.count_facts()
    changed = [
        {**r, "text": r["text"].replace("(1,577)", "(1,600)")}
        if (r["doc_name"], r["page_num"]) == ("3M_2018_10K", 59)
        else r
        for r in rows
    ]
    ingest(write_pages(tmp_path / "changed.jsonl.gz", changed), store)
    assert store.count_facts() == before
    assert capex(store)[0].value == -1_600_000_000.0
    # A document re-ingested without its cash-flow page loses that page's facts.
    fewer = [r for r in rows if (r["doc_name"], r["page_num"]) != ("3M_2018_10K", 59)]
    ingest(write_pages(tmp_path / "fewer.jsonl.gz", fewer), store)
    assert capex(store) == []
    assert store.facts(GridFilter(ticker="MMM", fy=2018), ["total_assets"])


def test_pages_and_facts_are_one_transaction(tmp_path, rows, store):
    from retrieval.ingest.pages_file import _page_from_row

    pages = [_page_from_row(r) for r in rows if r["doc_name"] == "3M_2018_10K"]

    def broken(_pages):
        raise RuntimeError("extractor failed")

    with pytest.raises(RuntimeError):
        store.upsert_document(pages, facts=broken)
    assert store.stats()["pages"] == 0 and store.count_facts() == 0


def test_replace_facts_rejects_another_documents_facts(tmp_path, rows, store):
    ingest(write_pages(tmp_path / "pages.jsonl.gz", rows), store)
    mmm = capex(store)
    with pytest.raises(ValueError, match="other documents"):
        store.replace_facts("PEPSICO_2022_10K", mmm)
    store.replace_facts("3M_2018_10K", mmm[:1])
    assert capex(store) == mmm[:1]
    assert store.facts(GridFilter(ticker="MMM", fy=2018), ["total_assets"]) == []


def test_sample_grid_ships_with_facts(sample_store):
    found = sample_store.facts(GridFilter(ticker="MMM", fy=2018), ["capex"])
    assert any(f.value == -1_577_000_000.0 and f.page_index == 59 for f in found)
    pep = sample_store.facts(GridFilter(ticker="PEP", fy=2022, doc_type="10-K"), ["capex"])
    assert any(f.fy == 2022 and f.value == -5_207_000_000.0 for f in pep)


def test_balance_dates_of_a_january_fiscal_year_in_a_quarterly_report():
    # A retailer's FY2024 Q2 report: the quarter ends July 2023, the last year-end January 2023.
    cols = [Column(2023, 7, None, "July 31, 2023"), Column(2023, 1, None, "January 31, 2023"),
            Column(2022, 7, None, "July 31, 2022")]  # fmt: skip
    assert place_columns(cols, "balance", "10-Q", 2024, 2) == [
        ColumnPeriod(2024, 2, "instant"),
        ColumnPeriod(2023, None, "instant"),
        ColumnPeriod(2023, 2, "instant"),
    ]


def test_columns_an_8k_or_a_historical_table_cannot_place():
    cols = [Column(2018, None, "year", "2018")]
    assert place_columns(cols, "income", "8-K", 2018, 4) is None
    assert place_columns(cols, "income", "10-K", 2023, 4) is None
    assert place_columns([Column(2023, 6, None, "June 30")], "balance", "10-Q", 2023, 2) == [
        ColumnPeriod(2023, 2, "instant")
    ]
    assert place_columns([Column(2023, None, None, "2023")], "balance", "10-Q", 2023, 2) is None


def test_a_document_labelled_a_year_behind_its_columns_is_placed_by_them():
    # Labelled FY2022 Q2, printing June 2023 beside June 2022: FY2023 Q2 and FY2022 Q2.
    cols = [Column(2023, 6, "quarter", "June 2, 2023"), Column(2022, 6, "quarter", "June 3, 2022")]
    assert place_columns(cols, "income", "10-Q", 2022, 2) == [
        ColumnPeriod(2023, 2, "quarter"),
        ColumnPeriod(2022, 2, "quarter"),
    ]
    # A January year-end: the FY2024 Q1 report's columns end in calendar 2023 and 2022.
    cols = [Column(2023, 4, "quarter", "April 30, 2023"), Column(2022, 4, "quarter", "2022")]
    assert place_columns(cols, "income", "10-Q", 2024, 1) == [
        ColumnPeriod(2024, 1, "quarter"),
        ColumnPeriod(2023, 1, "quarter"),
    ]


def test_a_53_week_year_ending_in_january_keeps_its_label():
    # Kraft Heinz's FY2015 ended on January 3, 2016.
    cols = [Column(2016, 1, None, "January 3, 2016"), Column(2014, 12, None, "December 28, 2014")]
    assert place_columns(cols, "balance", "10-K", 2015, 4) == [
        ColumnPeriod(2015, None, "instant"),
        ColumnPeriod(2014, None, "instant"),
    ]
