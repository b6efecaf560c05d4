"""The grid as the browser sees it: the ticker × fiscal-period matrix, search, and pages.

The matrix and the search are :mod:`retrieval.browse`'s, the same ones ``research grid``
and ``research search`` use: the same filters, the same checks (a ticker or period the
grid does not hold is an error that lists what it does hold) and the same
``HybridSearcher``. This module adds what only the web needs: limits on a request (query
length, hits), one searcher kept for the app, and a lock, since one SQLite connection
serves the app and request handlers run on several threads.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from pathlib import Path

from retrieval.browse import BrowseError, Matrix, check_query, grid_filter, grid_matrix, search_grid
from retrieval.open_store import open_store
from retrieval.pages import Page
from retrieval.search.hybrid import Hit, HybridSearcher
from web.settings import MAX_QUERY_CHARS

UID_RE = re.compile(r"[0-9a-f]{8,16}")
MAX_HITS = 50


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
            return grid_matrix(self.store)

    def search(self, request: SearchRequest) -> list[Hit]:
        """Hits for ``request``; :class:`BrowseError` for a bad query or a filter off the grid."""
        query = check_query(request.query)
        if len(query) > MAX_QUERY_CHARS:
            raise BrowseError(
                f"the query is {len(query):,} characters; the limit is {MAX_QUERY_CHARS}"
            )
        if not 1 <= request.k <= MAX_HITS:
            raise BrowseError(f"k must be between 1 and {MAX_HITS}")
        try:
            where = grid_filter(request.ticker, request.fy, request.fq, request.doc_type)
            with self._lock:
                return search_grid(self.store, query, where, k=request.k, searcher=self.searcher)
        except ValueError as exc:  # BrowseError, or a query the searcher cannot take
            raise BrowseError(str(exc)) from None

    def page(self, uid: str) -> Page | None:
        """The page with ``uid``, or None (an id that is not a uid is simply not found)."""
        if not UID_RE.fullmatch(uid):
            return None
        with self._lock:
            pages = self.store.pages_by_uid([uid])
        return pages[0] if pages else None
