"""The PageStore contract, held by both backends: the SQLite file and PostgreSQL + pgvector.

Every test here runs twice (``store`` is parametrised); behaviour only one backend has is
tested beside it (tests/test_store.py for SQLite, tests/test_postgres_*.py for PostgreSQL).
"""

from __future__ import annotations

import numpy as np
import pytest

from retrieval.facts.model import Fact
from retrieval.pages import Page
from retrieval.store import GridFilter

pytest_plugins = ("postgres_server",)


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


def make_fact(page: Page, label: str, value: float, concept: str | None = None) -> Fact:
    assert page.page_id is not None
    return Fact(
        uid=page.uid,
        page_id=page.page_id,
        doc_name=page.doc_name,
        doc_label=page.doc_label,
        page_index=page.page_index,
        ticker=page.ticker,
        statement="cash_flow",
        label=label,
        concept=concept,
        fy=page.fy,
        fq=None,
        duration="year",
        column=str(page.fy),
        value=value,
        unit="USD",
    )


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    if request.param == "sqlite":
        from retrieval.sqlite.store import SQLiteStore

        s = SQLiteStore(tmp_path / "g.sqlite")
    else:
        from retrieval.postgres.store import PostgresStore

        s = PostgresStore(request.getfixturevalue("postgres_uri"))
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


def test_bm25_prefers_rare_terms_repeated_terms_and_short_pages(store):
    texts = (
        "revenue revenue revenue goodwill",  # the rare term once, a common one thrice
        "revenue goodwill goodwill",  # the rare term twice
        "revenue",
        "revenue " + "filler " * 60 + "goodwill",  # the rare term once on a long page
        "revenue cash",
        *("cash flow", "other text", "more words", "still more"),  # so goodwill is rare
    )
    store.upsert_document(make_pages(texts=texts))
    ids = {p.page_index: p.page_id for p in store.document_pages("3M_2018_10K")}
    ranked = [pid for pid, _ in store.bm25(["revenue", "goodwill"], GridFilter(), 10)]
    assert ranked[:3] == [ids[1], ids[0], ids[3]]
    assert set(ranked) == {ids[i] for i in range(5)}
    scores = [s for _, s in store.bm25(["revenue", "goodwill"], GridFilter(), 10)]
    assert scores == sorted(scores, reverse=True) and all(s > 0 for s in scores)
    assert len(store.bm25(["revenue"], GridFilter(), 2)) == 2
    assert store.bm25(["nowhere"], GridFilter(), 5) == [] and store.bm25([], GridFilter(), 5) == []


def test_bm25_reads_hyphenated_and_dotted_terms_as_filings_print_them(store):
    store.upsert_document(make_pages(texts=("Form 10-K annual report", "rate of 3.5 percent")))
    ids = {p.page_index: p.page_id for p in store.document_pages("3M_2018_10K")}
    assert [pid for pid, _ in store.bm25(["10-k"], GridFilter(), 5)] == [ids[0]]
    assert [pid for pid, _ in store.bm25(["3.5"], GridFilter(), 5)] == [ids[1]]


def test_pages_by_id_keeps_the_order_asked_and_skips_unknown_ids(store):
    store.upsert_document(make_pages(texts=("one", "two", "three")))
    ids = [p.page_id for p in store.document_pages("3M_2018_10K")]
    got = store.pages_by_id([ids[2], 999_999, ids[0]])
    assert [p.page_id for p in got] == [ids[2], ids[0]]
    assert [p.text for p in got] == ["three", "one"]
    assert {p.uid for p in store.pages_by_uid([got[0].uid])} == {got[0].uid}
    assert store.pages_by_id([]) == [] and store.pages_by_uid([]) == []


def test_vectors_go_stale_when_text_changes(store):
    store.upsert_document(make_pages())
    ids = [p.page_id for p in store.document_pages("3M_2018_10K")]
    store.put_vectors(store.model_id, [(i, np.ones(4, np.float32) / 2) for i in ids])
    assert store.count_missing_vectors(store.model_id) == 0
    store.upsert_document(make_pages(texts=("alpha", "changed")))
    assert store.count_missing_vectors(store.model_id) == 1
    assert store.count_missing_vectors("another-model") == 2
    assert len(store.candidate_ids(GridFilter(ticker="MMM"))) == 1
    assert [pid for pid, _ in store.missing_vectors(store.model_id, 10)] == [ids[1]]


def test_vectors_round_trip_as_float16_and_unknown_pages_are_ignored(store):
    store.upsert_document(make_pages(texts=("one", "two", "three")))
    ids = [p.page_id for p in store.document_pages("3M_2018_10K")]
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(3, 8)).astype(np.float32)
    store.put_vectors(store.model_id, [*zip(ids, vectors, strict=True), (999_999, vectors[0])])
    got = store.vectors(np.array([ids[2], ids[0]]))
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, vectors[[2, 0]].astype(np.float16).astype(np.float32))
    assert sorted(store.candidate_ids(GridFilter()).tolist()) == sorted(ids)
    assert store.stats()["vectors"] == 3


def test_cells_describe_the_grid(store):
    store.upsert_document(make_pages())
    store.upsert_document(make_pages("PEPSICO_2023Q2_10Q", ticker="PEP", fy=2023, fq=2))
    cells = {(c.ticker, c.fy, c.fq): c.pages for c in store.cells()}
    assert cells == {("MMM", 2018, 4): 2, ("PEP", 2023, 2): 2}
    assert {c.doc_types for c in store.cells()} == {("10-K",)}


def test_one_document_per_upsert(store):
    with pytest.raises(ValueError, match="one document"):
        store.upsert_document(make_pages() + make_pages("3M_2019_10K"))


def test_facts_are_replaced_with_their_document_and_filtered_by_cell_and_concept(store):
    def extract(pages):
        return [
            make_fact(pages[0], "Capital expenditures", -1.5e9, "capex"),
            make_fact(pages[0], "Net income", 4.8e9, "net_income"),
            make_fact(pages[1], "Purchases of PP&E", -1.4e9),
        ]

    store.upsert_document(make_pages(), facts=extract)
    store.upsert_document(make_pages("PEPSICO_2018_10K", ticker="PEP"), facts=extract)
    mmm = store.facts(GridFilter(ticker="MMM", fy=2018))
    assert [(f.label, f.value) for f in mmm] == [
        ("Capital expenditures", -1.5e9),
        ("Net income", 4.8e9),
        ("Purchases of PP&E", -1.4e9),
    ]
    assert mmm[0].fq is None and mmm[0].column == "2018" and mmm[0].doc_label == "MMM 10-K FY2018"
    assert [f.ticker for f in store.facts(GridFilter(), ["capex"])] == ["MMM", "PEP"]
    assert store.facts(GridFilter(), []) == []
    assert store.facts(GridFilter(ticker="MMM", fy=2019)) == []

    store.replace_facts("3M_2018_10K", extract(store.document_pages("3M_2018_10K"))[:1])
    assert [f.label for f in store.facts(GridFilter(ticker="MMM"))] == ["Capital expenditures"]
    store.upsert_document(make_pages(texts=("alpha",)))  # page 2 vanishes: so do its facts
    assert len(store.facts(GridFilter(ticker="MMM"))) == 1


def test_facts_of_another_document_are_refused(store):
    store.upsert_document(make_pages())
    other = make_pages("PEPSICO_2018_10K", ticker="PEP")
    store.upsert_document(other)
    stray = make_fact(store.document_pages("PEPSICO_2018_10K")[0], "Revenue", 1.0)
    with pytest.raises(ValueError, match="other documents"):
        store.replace_facts("3M_2018_10K", [stray])


def test_a_failed_document_write_leaves_the_previous_document_whole(store):
    store.upsert_document(make_pages(texts=("alpha", "beta")), facts=lambda pages: [])

    def broken(pages):
        raise RuntimeError("extractor failed half way")

    with pytest.raises(RuntimeError, match="half way"):
        store.upsert_document(make_pages(texts=("changed", "beta", "gamma")), facts=broken)
    assert [p.text for p in store.document_pages("3M_2018_10K")] == ["alpha", "beta"]
    assert store.stats() == {"pages": 2, "documents": 1, "vectors": 0}
