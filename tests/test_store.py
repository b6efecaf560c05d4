"""The SQLite store: replace-on-reingest, stable ids, filters, vector freshness."""

import numpy as np
import pytest

from retrieval.pages import Page
from retrieval.sqlite_store import SQLiteStore
from retrieval.store import GridFilter


def make_pages(doc="3M_2018_10K", ticker="MMM", fy=2018, fq=4, texts=("alpha", "beta gamma")):
    return [
        Page(
            doc_name=doc,
            ticker=ticker,
            company="3M",
            fy=fy,
            fq=fq,
            doc_type="10-K",
            page_index=i,
            text=t,
        )
        for i, t in enumerate(texts)
    ]


@pytest.fixture
def store(tmp_path):
    s = SQLiteStore(tmp_path / "g.sqlite")
    yield s
    s.close()


def test_reingest_replaces_without_duplicates_and_keeps_page_ids(store):
    store.upsert_document(make_pages())
    first = {p.uid: p.page_id for p in store.document_pages("3M_2018_10K")}
    store.upsert_document(make_pages(texts=("alpha", "beta delta")))
    pages = store.document_pages("3M_2018_10K")
    assert len(pages) == 2
    assert {p.uid: p.page_id for p in pages} == first
    assert store.bm25(["delta"], GridFilter(), 5) and not store.bm25(["gamma"], GridFilter(), 5)


def test_shorter_reingest_drops_vanished_pages(store):
    store.upsert_document(make_pages(texts=("a1", "b2", "c3")))
    store.upsert_document(make_pages(texts=("a1",)))
    assert store.stats() == {"pages": 1, "documents": 1, "vectors": 0}
    assert not store.bm25(["c3"], GridFilter(), 5)


def test_filters_lock_bm25_to_the_cell(store):
    store.upsert_document(make_pages(texts=("capital expenditures 2018",)))
    store.upsert_document(make_pages("3M_2019_10K", fy=2019, texts=("capital expenditures",)))
    store.upsert_document(
        make_pages("PEPSICO_2018_10K", ticker="PEP", texts=("capital expenditures",))
    )
    assert len(store.bm25(["capital"], GridFilter(), 10)) == 3
    hits = store.bm25(["capital"], GridFilter(ticker="MMM", fy=2019, fq=4), 10)
    assert [p.doc_name for p in store.pages_by_id([h for h, _ in hits])] == ["3M_2019_10K"]
    assert store.bm25(["capital"], GridFilter(ticker="MMM", fy=2020), 10) == []
    assert len(store.bm25(["capital"], GridFilter(doc_type="10-K"), 10)) == 3


def test_vectors_go_stale_when_text_changes(store):
    store.upsert_document(make_pages())
    ids = [p.page_id for p in store.document_pages("3M_2018_10K")]
    store.put_vectors(store.model_id, [(i, np.ones(4, np.float32) / 2) for i in ids])
    assert store.count_missing_vectors(store.model_id) == 0
    store.upsert_document(make_pages(texts=("alpha", "changed")))
    assert store.count_missing_vectors(store.model_id) == 1
    assert store.count_missing_vectors("another-model") == 2
    assert len(store.candidate_ids(GridFilter(ticker="MMM"))) == 1


def test_cells_describe_the_grid(store):
    store.upsert_document(make_pages())
    store.upsert_document(make_pages("PEPSICO_2023Q2_10Q", ticker="PEP", fy=2023, fq=2))
    cells = {(c.ticker, c.fy, c.fq): c.pages for c in store.cells()}
    assert cells == {("MMM", 2018, 4): 2, ("PEP", 2023, 2): 2}


def test_one_document_per_upsert(store):
    with pytest.raises(ValueError, match="one document"):
        store.upsert_document(make_pages() + make_pages("3M_2019_10K"))
