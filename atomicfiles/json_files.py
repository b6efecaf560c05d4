"""JSON files that survive a crash: written whole or not at all, read as data or as absent.

Kept free of heavy imports so the command line can read run directories without loading
DSPy.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)


def write_atomic(path: Path, write: Callable[[Path], None], suffix: str = ".tmp") -> None:
    """Run ``write(tmp)`` on a temporary file beside ``path``, then rename it over ``path``.

    The file is fsynced before the rename and the directory after it, so a crash leaves
    either the old file or the new one, never a partial file. ``suffix`` is for writers
    that choose a format by file name (DSPy's ``program.save`` wants ``.json``).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=suffix)
    os.close(fd)
    tmp = Path(name)
    try:
        write(tmp)
        with open(tmp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(path.parent)


def write_json_atomic(path: Path, data: Any) -> None:
    """Write ``data`` as JSON to ``path`` so that a crash never leaves a partial file."""
    text = json.dumps(data, ensure_ascii=False, indent=1)
    write_atomic(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def _fsync_dir(directory: Path) -> None:
    """Make the rename itself durable (POSIX); a no-op where directories cannot be opened."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read_json(path: Path) -> Any | None:
    """The JSON in ``path``, or None when it is missing or unreadable."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        logger.warning("ignoring unreadable %s: %s", path, exc)
        return None
