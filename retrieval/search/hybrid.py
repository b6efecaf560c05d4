"""Hybrid search over the grid: BM25 and dense candidates fused by reciprocal rank.

Both retrievers see the same grid filter, so a slice-locked search never leaves its
cell. Pages without a vector yet (embedding still running) are still found by BM25.

The rankings are independent until they are fused, so they run side by side: the BM25
rankings (and an inferred scope's nearest pages) on a small shared thread pool while the
calling thread embeds the query and asks for its own filter's nearest pages. The store's
query (its server, or SQLite's C code) and the embedder's ONNX run release the GIL, so
with cores to spare a search waits for its slowest ranking rather than for the sum. On two
cores that also run the embedded model it was faster (shared-pool p50 164 → 125-148 ms);
on two idle cores, no faster: every ranking wants the same two cores (README).
"""

from __future__ import annotations

import dataclasses
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from retrieval.companies import load_companies
from retrieval.pages import Page
from retrieval.search.embeddings import Embedder, MiniLMEmbedder
from retrieval.search.fusion import reciprocal_rank_fusion
from retrieval.search.query import PreparedQuery, prepare_query
from retrieval.search.rerank import RerankWeights, rerank
from retrieval.search.scope import infer_scope
from retrieval.search.text import snippet
from retrieval.sqlite.store import SQLiteStore
from retrieval.store import GridCell, GridFilter

#: Threads the rankings of all searches in this process share (a search asks for three at
#: most: BM25 in its own filter and in an inferred scope, and the scope's nearest pages).
_RANKINGS = ThreadPoolExecutor(max_workers=6, thread_name_prefix="wissen-rankings")


def _done(value: object) -> Future:
    """``value`` as a finished future, beside rankings still running."""
    future: Future = Future()
    future.set_result(value)
    return future


@dataclass(frozen=True)
class Hit:
    """One ranked page: everything an agent needs to read it and cite it."""

    uid: str
    page_id: int
    doc_label: str
    doc_name: str
    ticker: str
    fy: int
    fq: int
    doc_type: str
    page_index: int
    score: float
    text: str
    snippet: str = ""  # for display; filled by :func:`with_snippets` when one is wanted
    #: A web document an agent read (``doc_type`` "web", its URL as ``doc_name``, its title
    #: as ``doc_label``) is kept among the pages it may cite, so it needs what its citation
    #: prints: who published it and when it was read ("2026-12-03 15:00 UTC").
    publisher: str = ""
    retrieved: str = ""


def with_snippets(hits: list[Hit], query: str) -> list[Hit]:
    """``hits`` with the window of each page that holds most of ``query``'s words, for a
    person to read. Agents read passages instead, so searches do not pay for this."""
    terms = list(prepared_query(query).terms)
    return [dataclasses.replace(h, snippet=snippet(h.text, terms)) for h in hits]


def locked_company_words(where: GridFilter) -> tuple[str, ...]:
    """The locked ticker and its company's name, as words to drop from a query."""
    if not where.ticker:
        return ()
    names = [c.name for c in load_companies() if c.ticker == where.ticker.upper()]
    return (where.ticker, *names)


def prepared_query(query: str, where: GridFilter | None = None) -> PreparedQuery:
    """``query`` as search reads it: inside a locked company, its ticker and name are
    dropped from the terms (they match every page of the slice)."""
    return prepare_query(query, drop_words=locked_company_words(where or GridFilter()))


@dataclass
class SearchSettings:
    """Fusion knobs; the defaults are the ones the retrieval benchmark reports."""

    pool: int = 100
    rrf_k: float = 60.0
    bm25_weight: float = 1.0
    dense_weight: float = 1.0
    rerank: bool = True
    rerank_depth: int = 30
    infer_scope: bool = True
    scope_weight: float = 2.0
    rerank_weights: RerankWeights | None = None  # None: the rerank's defaults


class HybridSearcher:
    def __init__(
        self,
        store: SQLiteStore,
        embedder: Embedder | None = None,
        settings: SearchSettings | None = None,
    ) -> None:
        self.store = store
        self._embedder = embedder
        self.settings = settings or SearchSettings()
        self._cells: list[GridCell] | None = None

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = MiniLMEmbedder()
        return self._embedder

    def _dense(self, vector: np.ndarray, where: GridFilter, pool: int) -> list[int]:
        nearest = getattr(self.store, "nearest", None)
        if nearest is not None:  # the store's own vector index answers (PostgreSQL + pgvector)
            return nearest(vector, where, pool)
        if where.is_empty():
            ids, matrix = self.store.all_vectors()
        else:
            ids = self.store.candidate_ids(where)
            matrix = self.store.vectors(ids) if len(ids) else None
        if not len(ids) or matrix is None or not matrix.size:
            return []
        # Some BLAS builds (numpy 2 with OpenBLAS or Accelerate) leave floating-point flags
        # set after a correct product, and numpy reports them as "overflow encountered in
        # matmul" on the user's terminal. Unit vectors cannot overflow; scores that are not
        # finite (a damaged stored vector) rank last instead.
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            scores = matrix @ vector
        scores = np.where(np.isfinite(scores), scores, -np.inf)
        top = np.argsort(-scores)[:pool]
        return [int(ids[i]) for i in top]

    def _scope(self, query: str) -> GridFilter:
        if not self.settings.infer_scope:
            return GridFilter()
        if self._cells is None:
            self._cells = self.store.cells()
        return infer_scope(query, load_companies(), self._cells)

    def prepared(self, query: str, where: GridFilter | None = None) -> PreparedQuery:
        return prepared_query(query, where)

    def pages_by_uid(self, uids: list[str]) -> list[Page]:
        """Pages by uid, for tools that read a whole page after a search."""
        return self.store.pages_by_uid(uids)

    def search(self, query: str, where: GridFilter | None = None, k: int = 10) -> list[Hit]:
        where = where or GridFilter()
        if not query or not query.strip():
            raise ValueError("empty query")
        prepared = self.prepared(query, where)
        pool = max(self.settings.pool, k)
        scope = self._scope(query) if where.is_empty() else GridFilter()
        wheres = [where] if scope.is_empty() else [where, scope]
        lexical = [_RANKINGS.submit(self.store.bm25, prepared.terms, w, pool) for w in wheres]
        vector = self.embedder.embed([prepared.dense_text])[0]  # once, for every ranking
        dense = [_RANKINGS.submit(self._dense, vector, w, pool) for w in wheres[1:]]
        dense.insert(0, _done(self._dense(vector, wheres[0], pool)))
        rankings, weights = [], []
        for scale, bm25, nearest in zip(
            (1.0, self.settings.scope_weight), lexical, dense, strict=False
        ):
            rankings += [[pid for pid, _ in bm25.result()], nearest.result()]
            weights += [scale * self.settings.bm25_weight, scale * self.settings.dense_weight]
        fused = reciprocal_rank_fusion(rankings, k=self.settings.rrf_k, weights=weights)
        # Only the head of the fused list can reach the top k after reranking; reading and
        # scoring the whole pool costs more than the rest of the search together.
        head = fused[: max(self.settings.rerank_depth, k)]
        pages = {p.page_id: p for p in self.store.pages_by_id([pid for pid, _ in head])}
        ranked = [(pages[pid], score) for pid, score in head if pid in pages]
        if self.settings.rerank:
            ranked = rerank(prepared, ranked, self.settings.rerank_weights)
        return [
            Hit(
                uid=p.uid,
                page_id=p.page_id or 0,
                doc_label=p.doc_label,
                doc_name=p.doc_name,
                ticker=p.ticker,
                fy=p.fy,
                fq=p.fq,
                doc_type=p.doc_type,
                page_index=p.page_index,
                score=round(float(score), 6),
                text=p.text,
            )
            for p, score in ranked[:k]
        ]
