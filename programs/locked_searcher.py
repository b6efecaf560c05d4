"""LockedSearcher: one searcher shared by every probe's worker thread."""

from __future__ import annotations

import threading
from typing import Any

from domain.cells import SliceRef
from retrieval.search.hybrid import Hit
from retrieval.search.tools import store_faults
from retrieval.store import GridFilter


class LockedSearcher:
    """Serialises searches on a shared searcher.

    The SQLite store shares one connection between threads; searches are milliseconds next
    to LM calls, so one lock costs nothing on the critical path and rules out interleaved
    cursor use on that connection.
    """

    def __init__(self, searcher: Any) -> None:
        self.searcher = searcher
        self._lock = threading.Lock()

    def search(self, *args: Any, **kwargs: Any) -> list[Hit]:
        with self._lock:
            return self.searcher.search(*args, **kwargs)

    def pages_by_uid(self, uids: Any) -> list[Any]:
        lookup = getattr(getattr(self.searcher, "store", None), "pages_by_uid", None)
        if lookup is None:
            return []
        # A store that fails here stops the run, as it does under a search (StoreFault).
        with self._lock, store_faults("reading pages"):
            return lookup(uids)

    def facts(self, ref: SliceRef) -> list[Any]:
        """The statement facts of a slice's documents (what figures are computed from)."""
        facts = getattr(getattr(self.searcher, "store", None), "facts", None)
        if facts is None:  # a searcher without a store (tests, custom back ends): no figures
            return []
        with self._lock, store_faults("reading statement facts"):
            return facts(GridFilter(ref.ticker, ref.fy, ref.fq))

    def __deepcopy__(self, memo: dict) -> LockedSearcher:
        return self  # a shared resource, not program state
