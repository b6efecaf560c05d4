"""Opening the grid: the one place that decides which store backend and location to use.

A location is a SQLite file path (the default: ``$WISSEN_STORE`` or the user data dir) or a
``postgresql://user:password@host:port/database`` address (``postgres://`` and SQLAlchemy's
``postgresql+psycopg://`` are read too), given as ``--store`` or in ``$WISSEN_STORE``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from retrieval.sample import seed_from_sample
from retrieval.sqlite_store import SQLiteStore
from retrieval.store import default_store_path

_POSTGRES = re.compile(r"(?i)^(postgres(?:ql)?(?:\+psycopg)?):/*")


def store_location(location: str | Path | None = None) -> str | Path:
    """``location``, else ``$WISSEN_STORE``, else the default SQLite file; a PostgreSQL address
    is returned as a string (one that went through ``pathlib`` lost a slash: it is put back)."""
    chosen = location if location not in (None, "") else os.environ.get("WISSEN_STORE")
    if not chosen:
        return default_store_path()
    text = str(chosen)
    found = _POSTGRES.match(text)
    if found:
        return f"{found.group(1)}://{text[found.end() :]}"
    return Path(text).expanduser()


def is_postgres(location: str | Path) -> bool:
    return isinstance(location, str) and _POSTGRES.match(location) is not None


def describe_location(store: Any) -> str:
    """Where ``store`` lives, as a user may be shown it (a server address without password)."""
    return str(getattr(store, "location", None) or getattr(store, "path", "?"))


def open_store(
    path: str | Path | None = None,
    seed_if_empty: bool = True,
    on_seed: Callable[[str | Path], None] | None = None,
) -> Any:
    """The grid at ``path``: a :class:`SQLiteStore`, or a ``PostgresStore`` for an address.

    An empty store is seeded from the bundled sample filings so the first search
    on a fresh machine has something real to find.
    """
    location = store_location(path)
    if is_postgres(location):
        from retrieval.postgres_store import PostgresStore  # psycopg only when asked for

        store: Any = PostgresStore(str(location))
    else:
        store = SQLiteStore(location)
    if seed_if_empty and store.stats()["pages"] == 0:
        if on_seed:
            on_seed(describe_location(store))
        seed_from_sample(store)
    return store
