"""Creating the local MLflow SQLite store exactly once, however many runs start at once.

MLflow creates and migrates a missing SQLite store from whichever process touches it first;
two processes doing so together interleave their migrations and one fails ("duplicate
column name", "No such constraint"). So the first process to find no store takes an
exclusive lock beside it, builds the store in a private temporary file and links it into
place; the others wait on the lock and then find it made. A reader never sees a half-made
store, because putting the finished file in place is one atomic step.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterator
from pathlib import Path


def _exists(path: Path) -> bool:
    """A store is there once the file is non-empty (SQLite writes a header on creation)."""
    try:
        return path.stat().st_size > 0
    except FileNotFoundError:
        return False


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on ``<store>.lock``, released when the process ends at the latest.

    Where there is no ``fcntl`` (Windows) the processes build side by side instead, and
    :func:`_publish` still lets only the first store into place.
    """
    try:
        import fcntl
    except ImportError:
        yield
        return
    with open(path.with_name(path.name + ".lock"), "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _publish(built: Path, path: Path) -> None:
    """Put ``built`` at ``path`` unless a store got there first (a hard link never replaces
    a file, so a store runs were already written to is never swapped for an empty one)."""
    try:
        os.link(built, path)
    except FileExistsError:
        if not _exists(path):  # an empty file (``touch mlflow.db``) holds no runs
            os.replace(built, path)
    except OSError as exc:  # a file system without hard links: the lock has to do
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EXDEV, errno.EMLINK):
            raise
        if not _exists(path):
            os.replace(built, path)


def ensure_store(path: Path, artifact_root: Path) -> None:
    """Make the MLflow store at ``path`` if it is missing (safe under concurrent starts)."""
    if _exists(path):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with _locked(path):
        if _exists(path):  # made by another process while this one waited
            return
        from mlflow.store.tracking.sqlalchemy_store import SqlAlchemyStore

        building = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            store = SqlAlchemyStore(f"sqlite:///{building}", artifact_root.as_uri())
            store.engine.dispose()
            _publish(building, path)
        finally:
            building.unlink(missing_ok=True)
