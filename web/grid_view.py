"""The grid as the browser sees it: the ticker × fiscal-period matrix, search, and pages.

Search takes the same filters as ``research search`` and goes through the same checks
(``check_filter``: a ticker or period the grid does not hold is an error that lists what it
does hold) and the same ``HybridSearcher``. One SQLite connection serves the app, so reads
take a lock: request handlers run on several threads.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from pathlib import Path

from retrieval.coverage import OutsideGridError, check_filter
from retrieval.open_store import open_store
from retrieval.pages import Page, normalise_doc_type
from retrieval.periods import parse_fq, parse_fy
from retrieval.search import Hit, HybridSearcher, with_snippets
from retrieval.store import GridCell, GridFilter
from web.settings import MAX_QUERY_CHARS

UID_RE = re.compile(r"[0-9a-f]{8,16}")
MAX_HITS = 50


class SearchError(ValueError):
    """A search the grid cannot answer; the message says why (and what the grid holds)."""


@dataclass(frozen=True)
class Period:
    fy: int
    fq: int

    @property
    def label(self) -> str:
        return f"FY{self.fy} Q{self.fq}"


@dataclass
class Matrix:
    """Rows = tickers, columns = fiscal periods the grid holds, cells where it holds pages."""

    tickers: list[str]
    companies: dict[str, str]
    periods: list[Period]
    cells: dict[tuple[str, int, int], GridCell] = field(default_factory=dict)
    pages: int = 0
    documents: int = 0
    vectors: int = 0

    def cell(self, ticker: str, period: Period) -> GridCell | None:
        return self.cells.get((ticker, period.fy, period.fq))


@dataclass(frozen=True)
class SearchRequest:
    query: str
    ticker: str | None = None
    fy: str | None = None
    fq: str | None = None
    doc_type: str | None = None
    k: int = 10


class GridView:
    """Read-only access to one store for the app's handlers."""

    def __init__(self, store_path: str | Path | None) -> None:
        self.store = open_store(store_path)
        self.searcher = HybridSearcher(self.store)
        self._lock = threading.Lock()

    def close(self) -> None:
        self.store.close()

    def matrix(self) -> Matrix:
        with self._lock:
            cells, stats = self.store.cells(), self.store.stats()
        periods = sorted({Period(c.fy, c.fq) for c in cells}, key=lambda p: (p.fy, p.fq))
        return Matrix(
            tickers=sorted({c.ticker for c in cells}),
            companies={c.ticker: c.company for c in cells},
            periods=periods,
            cells={(c.ticker, c.fy, c.fq): c for c in cells},
            pages=stats["pages"],
            documents=stats["documents"],
            vectors=stats["vectors"],
        )

    def search(self, request: SearchRequest) -> list[Hit]:
        """Hits for ``request``; :class:`SearchError` for a bad query or a filter off the grid."""
        query = request.query.strip()
        if not query:
            raise SearchError("the query is empty: say what to look for")
        if len(query) > MAX_QUERY_CHARS:
            raise SearchError(
                f"the query is {len(query):,} characters; the limit is {MAX_QUERY_CHARS}"
            )
        if not 1 <= request.k <= MAX_HITS:
            raise SearchError(f"k must be between 1 and {MAX_HITS}")
        try:
            where = GridFilter(
                ticker=request.ticker.strip().upper() if request.ticker else None,
                fy=parse_fy(request.fy) if request.fy else None,
                fq=parse_fq(request.fq) if request.fq else None,
                doc_type=normalise_doc_type(request.doc_type) if request.doc_type else None,
            )
            with self._lock:
                check_filter(self.store.cells(), where)
                return with_snippets(self.searcher.search(query, where, k=request.k), query)
        except (ValueError, OutsideGridError) as exc:
            raise SearchError(str(exc)) from None

    def page(self, uid: str) -> Page | None:
        """The page with ``uid``, or None (an id that is not a uid is simply not found)."""
        if not UID_RE.fullmatch(uid):
            return None
        with self._lock:
            pages = self.store.pages_by_uid([uid])
        return pages[0] if pages else None
