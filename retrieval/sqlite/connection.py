"""Opening the store's SQLite file so that a read-only copy never leaves debris behind.

In WAL mode SQLite creates ``-wal`` and ``-shm`` files beside the database, with the
database's own permissions, and removes them when the last writer closes. A connection to
a file it may not write cannot remove them: a mode-444 store used to leave a mode-444
``-shm`` that made the next writable open fail ("attempt to write a readonly database").
So a store we may not write is opened without creating anything, and a writable open first
makes sidecar files it owns writable again (repairing stores left that way before).
"""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path
from urllib.parse import quote

SIDECARS = ("-wal", "-shm")


def _sidecar(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def is_read_only(path: Path) -> bool:
    """True for an existing store file this process may not write."""
    return path.exists() and not os.access(path, os.W_OK)


def _repair_sidecars(path: Path) -> None:
    """Give our own unwritable ``-wal``/``-shm`` files the database's permissions back.

    chmod changes no content, so this is safe even while another reader has them open.
    """
    if not path.exists():
        return
    mode = stat.S_IMODE(path.stat().st_mode) | stat.S_IRUSR | stat.S_IWUSR
    for suffix in SIDECARS:
        sidecar = _sidecar(path, suffix)
        try:
            if not os.access(sidecar, os.W_OK) and sidecar.stat().st_uid == os.geteuid():
                sidecar.chmod(mode)
        except FileNotFoundError:
            continue


def _read_only_uri(path: Path) -> str:
    """``immutable`` when every committed page is in the main file, else ``mode=ro``.

    An immutable open takes no locks and creates no ``-shm``; a write-ahead log with
    content (a writer is active or crashed) must be read through the shared index instead.
    """
    wal = _sidecar(path, "-wal")
    pending = wal.exists() and wal.stat().st_size > 0
    return f"file:{quote(str(path.resolve()))}?{'mode=ro' if pending else 'immutable=1'}"


def connect(path: Path, timeout: float = 30) -> tuple[sqlite3.Connection, bool]:
    """A connection to the store at ``path`` and whether it may write."""
    if is_read_only(path):
        db = sqlite3.connect(
            _read_only_uri(path), uri=True, timeout=timeout, check_same_thread=False
        )
        return db, False
    _repair_sidecars(path)
    return sqlite3.connect(path, timeout=timeout, check_same_thread=False), True
