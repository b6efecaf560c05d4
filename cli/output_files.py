"""The files ``research ask --out/--json`` writes: checked before the run, never lost after.

A run spends LM calls (money, minutes); finding only at the end that ``--out`` names a
folder, a folder that does not exist or a full disk would throw that away. So each
destination is checked before anything else happens, and a write that still fails at the
end (the disk filled meanwhile) is reported while the report is printed and stays in the
run directory.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Any

# A scratch file this large must fit where the output goes: a long report with its run
# record is well under it, so a disk too full for the probe is too full for the output.
PROBE_BYTES = 256 * 1024


class OutputError(ValueError):
    """A destination that cannot take the file; the message says which and why.

    Messages are plain text with paths as given: ``cli.errors`` makes them safe to print.
    """


def _space_check(folder: Path, shown: str) -> None:
    """Write, sync and delete a scratch file in ``folder``: a full disk fails here."""
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".wissen-space-check-") as probe:
            probe.write(b"\0" * PROBE_BYTES)
            probe.flush()
            os.fsync(probe.fileno())
    except OSError as exc:
        raise OutputError(f"{shown}: cannot write there: {exc.strerror or exc}") from None


def check_destination(path: Path | None, option: str) -> None:
    """Raise :class:`OutputError` unless ``path`` can take a file (None: nothing to check).

    An existing non-regular file (``/dev/stdout``, a pipe) is only checked for permission:
    writing a probe to it would be output.
    """
    if path is None:
        return
    shown = f"{option} {path}"
    folder = path.parent
    if path.is_dir():
        raise OutputError(f"{shown} is a folder: name a file in it")
    if not folder.exists():
        raise OutputError(f"{shown}: the folder {folder} does not exist")
    if not folder.is_dir():
        raise OutputError(f"{shown}: {folder} is not a folder")
    if path.exists() and not os.access(path, os.W_OK):
        raise OutputError(f"{shown}: the file is not writable")
    if path.exists() and not path.is_file():
        return
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{shown}: cannot create files in {folder}")
    _space_check(folder, shown)


def check_destinations(out: Path | None, json_out: Path | None) -> None:
    """Both ``--out`` and ``--json``, and that they are not one file."""
    check_destination(out, "--out")
    check_destination(json_out, "--json")
    if out and json_out and out.resolve() == json_out.resolve():
        raise OutputError("--out and --json name the same file: give each its own")


def write_output(path: Path, text: str, option: str) -> str | None:
    """Write ``text`` to ``path``; the problem (plain text) if that failed, else None.

    A regular file left half-written is removed, so no truncated report passes for whole.
    """
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        if path.is_file():
            with contextlib.suppress(OSError):
                path.unlink()
        return f"{option} {path}: {exc.strerror or exc}"
    return None


def not_saved(result: Any, problems: list[str]) -> str:
    """Mark ``result``'s run failed (its output did not all reach disk) and say where the
    report is: in the run directory, unless that could not be written either."""
    from runs.run_dir import FAILED, RunDir

    message = "; ".join(problems)
    run = RunDir.open(result.run_id)
    if run is not None and result.saved_error is None:
        with contextlib.suppress(OSError):
            run.update(status=FAILED, error=f"output not written: {message}")
        where = f"the report is kept in {result.path / 'report.md'}"
    else:
        where = "the report printed above is the only copy"
    return f"could not write {message}; {where}"
