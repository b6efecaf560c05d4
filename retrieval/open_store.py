"""Opening the grid: the one place that decides which store backend and location to use.

A location is a SQLite file path (the default: ``$WISSEN_STORE`` or the user data dir) or a
``postgresql://user:password@host:port/database`` address (``postgres://`` and SQLAlchemy's
``postgresql+psycopg://`` are read too), given as ``--store`` or in ``$WISSEN_STORE``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from retrieval.ingest.sample import seed_from_sample
from retrieval.sqlite.store import SQLiteStore
from retrieval.store_location import StoreLocation


def store_location(location: StoreLocation | str | Path | None = None) -> str | Path:
    """``location``, else ``$WISSEN_STORE``, else the default SQLite file, as a backend opens
    it: a PostgreSQL address as a string, a SQLite file as a ``Path``
    (:meth:`StoreLocation.chosen`)."""
    return StoreLocation.chosen(location).target


def is_postgres(location: StoreLocation | str | Path) -> bool:
    if isinstance(location, StoreLocation):
        return location.is_postgres
    return (
        isinstance(location, str) and bool(location) and StoreLocation.parse(location).is_postgres
    )


def describe_location(store: Any) -> str:
    """Where ``store`` lives, as a user may be shown it (a server address without password)."""
    return str(getattr(store, "location", None) or getattr(store, "path", "?"))


#: Told, before an empty store is seeded, where it is and whether it is new (a file that
#: did not exist, or was empty, before it was opened).
SeedNotice = Callable[[StoreLocation, bool], None]


def is_new_file(location: StoreLocation) -> bool:
    """Whether ``location`` is a SQLite file that does not exist yet (or is empty)."""
    path = location.path
    return path is not None and not (path.exists() and path.stat().st_size > 0)


def open_store(
    path: StoreLocation | str | Path | None = None,
    seed_if_empty: bool = True,
    on_seed: SeedNotice | None = None,
) -> Any:
    """The grid at ``path`` (a :class:`StoreLocation`, or text parsed as one): a
    :class:`SQLiteStore`, or a ``PostgresStore`` for an address.

    An empty store is seeded from the bundled sample filings so the first search
    on a fresh machine has something real to find; ``on_seed`` is told first, so the
    notice comes from the code that makes the store, only when it does.
    """
    location = StoreLocation.chosen(path)
    new = is_new_file(location)
    if location.address is not None:
        from retrieval.postgres.store import PostgresStore  # psycopg only when asked for

        store: Any = PostgresStore(location.address)
    else:
        store = SQLiteStore(location.path)
    if seed_if_empty and store.stats()["pages"] == 0:
        if on_seed:
            on_seed(location, new)
        seed_from_sample(store)
    return store
