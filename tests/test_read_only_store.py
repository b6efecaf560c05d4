"""A store file nobody may write (mode 444) can be searched and leaves nothing behind.

SQLite in WAL mode creates ``-wal``/``-shm`` files with the database's own permissions; a
read-only connection cannot remove them on close, so a 444 ``-shm`` used to stay behind and
made the next writable open fail with "attempt to write a readonly database".
"""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

from unprivileged import run_unprivileged

from retrieval.pages import Page
from retrieval.sqlite.store import SQLiteStore
from retrieval.store import GridFilter


def _pages(texts: tuple[str, ...]) -> list[Page]:
    return [
        Page(
            doc_name="ACME_2018_10K",
            ticker="ACME",
            company="Acme",
            fy=2018,
            fq=4,
            doc_type="10-K",
            page_index=i,
            text=text,
        )
        for i, text in enumerate(texts)
    ]


def _read_only_then_writable(folder: Path) -> None:
    path = folder / "grid.sqlite"
    store = SQLiteStore(path)
    store.upsert_document(_pages(("capital expenditures", "revenue")))
    store.close()
    path.chmod(0o444)

    shared = SQLiteStore(path)
    assert shared.stats()["pages"] == 2
    assert shared.bm25(["capital"], GridFilter(ticker="ACME"), 5)
    shared.close()
    left = {p.name: stat.filemode(p.stat().st_mode) for p in folder.iterdir() if p != path}
    assert left == {}, f"a read-only open left files behind: {left}"

    path.chmod(0o644)
    writable = SQLiteStore(path)
    writable.upsert_document(_pages(("capital expenditures", "revenue", "cash")))
    assert writable.stats()["pages"] == 3
    writable.close()


def _heals_a_stale_read_only_shm(folder: Path) -> None:
    """A 444 ``-shm``/``-wal`` left by an older version no longer blocks writing."""
    path = folder / "grid.sqlite"
    store = SQLiteStore(path)
    store.upsert_document(_pages(("alpha",)))
    store.close()
    path.chmod(0o444)
    old_style = sqlite3.connect(path)  # how the store used to open a file it cannot write
    old_style.execute("SELECT COUNT(*) FROM pages").fetchone()
    old_style.close()
    shm = Path(f"{path}-shm")
    assert shm.exists() and not os.access(shm, os.W_OK), "precondition: a stale 444 -shm"

    path.chmod(0o644)
    writable = SQLiteStore(path)
    writable.upsert_document(_pages(("alpha", "beta")))
    assert writable.stats()["pages"] == 2
    writable.close()


def test_read_only_store_is_searchable_and_leaves_no_files():
    run_unprivileged(_read_only_then_writable)


def test_writable_open_repairs_a_read_only_shm_left_behind():
    run_unprivileged(_heals_a_stale_read_only_shm)
