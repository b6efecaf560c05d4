"""Hybrid search over the bundled sample filings (real 10-K pages, real vectors)."""

import pytest

from retrieval.search.hybrid import HybridSearcher, SearchSettings, with_snippets
from retrieval.store import GridFilter

CAPEX_3M = (
    "What is the FY2018 capital expenditure amount (in USD millions) for 3M? Give a response "
    "to the question by relying on the details shown in the cash flow statement."
)


def test_sample_grid_is_seeded_with_vectors(sample_store):
    stats = sample_store.stats()
    assert stats["documents"] >= 10
    assert stats["vectors"] == stats["pages"]


def test_slice_locked_search_finds_the_cash_flow_statement(searcher):
    hits = searcher.search(CAPEX_3M, GridFilter("MMM", 2018, 4), k=5)
    assert 59 in [h.page_index for h in hits]  # FinanceBench's evidence page
    assert all((h.ticker, h.fy, h.fq) == ("MMM", 2018, 4) for h in hits)
    top = hits[0]
    assert top.doc_label == "MMM 10-K FY2018" and len(top.uid) == 12 and top.page_id > 0


@pytest.mark.parametrize("mode", ["bm25", "dense"])
def test_each_retriever_alone_respects_filters(sample_store, mode):
    settings = SearchSettings(
        bm25_weight=0.0 if mode == "dense" else 1.0,
        dense_weight=0.0 if mode == "bm25" else 1.0,
        rerank=False,
    )
    hits = HybridSearcher(sample_store, settings=settings).search(
        "net revenue by division", GridFilter(ticker="PEP", fy=2021), k=10
    )
    assert hits and {(h.ticker, h.fy) for h in hits} == {("PEP", 2021)}


def test_unfiltered_search_spans_companies(searcher):
    hits = searcher.search("beverage concentrate bottling partners", k=10)
    assert {"KO", "PEP"} & {h.ticker for h in hits}


def test_quarter_filter_reaches_quarterly_documents(searcher):
    hits = searcher.search("full year guidance organic revenue", GridFilter("PEP", 2023, 1), k=3)
    assert hits and all(h.doc_label == "PEP Earnings FY2023 Q1" for h in hits)


def test_empty_query_is_refused(searcher):
    with pytest.raises(ValueError, match="empty"):
        searcher.search("   ")


def test_snippet_shows_query_terms(searcher):
    query = "purchases of property, plant and equipment"
    (plain,) = searcher.search(query, GridFilter("MMM", 2018, 4), k=1)
    assert plain.snippet == ""  # agents read passages: a search makes no snippet
    (hit,) = with_snippets([plain], query)
    assert "property" in hit.snippet.lower() and len(hit.snippet) < 400


def test_locked_company_name_and_ticker_leave_the_terms(searcher):
    locked = searcher.prepared("3M capital expenditures for MMM", GridFilter("MMM", 2018, 4))
    assert "3m" not in locked.terms and "mmm" not in locked.terms
    assert "capital" in locked.terms
    assert "3m" in searcher.prepared("3M capital expenditures").terms  # unlocked: kept


def test_boilerplate_pages_are_recognised_and_statements_are_not():
    from retrieval.search.rerank import _is_boilerplate

    contents = "table of contents part i " + " ".join(f"item {n}. x 12" for n in range(1, 10))
    index = (
        "index to consolidated financial statements consolidated statements of operations 50 "
        "consolidated balance sheets 51 consolidated statements of cash flows 52 "
        "consolidated statements of shareholders equity 53"
    )
    statement = (
        "index to consolidated financial statements consolidated balance sheets "
        "at december 31, in millions 2031 2030 cash 12 10 inventories 40 38"
    )
    assert _is_boilerplate(contents, 400) and _is_boilerplate(index, 400)
    assert _is_boilerplate("report of independent registered public accounting firm ...", 400)
    assert not _is_boilerplate(statement, 400)


def test_statement_heading_is_found_when_pdf_text_splits_words():
    from retrieval.search.rerank import _heading_score

    headings = ("statements of cash flows", "statement of cash flows")
    assert _heading_score("3m company consolidated statement of cash flow s years", headings)
    assert _heading_score("consolidatedstatementsofcashflows (in millions)", headings)
    assert not _heading_score("consolidated balance sheets", headings)
