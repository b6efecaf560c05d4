"""Opening the grid: the one place that decides which store backend and path to use."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from retrieval.sample import seed_from_sample
from retrieval.sqlite_store import SQLiteStore
from retrieval.store import default_store_path


def open_store(
    path: str | Path | None = None,
    seed_if_empty: bool = True,
    on_seed: Callable[[Path], None] | None = None,
) -> SQLiteStore:
    """The SQLite store at ``path`` (default: ``$WISSEN_STORE`` or the user data dir).

    An empty store is seeded from the bundled sample filings so the first search
    on a fresh machine has something real to find.
    """
    store = SQLiteStore(Path(path) if path else default_store_path())
    if seed_if_empty and store.stats()["pages"] == 0:
        if on_seed:
            on_seed(store.path)
        seed_from_sample(store)
    return store
