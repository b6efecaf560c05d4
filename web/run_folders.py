"""Past runs as the browser lists them: one row per run directory, and its files.

Reads ``$WISSEN_HOME/runs/RUN_ID/`` through the run service's ``RunDir``, as the CLI does,
so a run shows the same status here as in ``research runs`` (a ``running`` run whose
process is gone reads ``interrupted``). Only the two files a run writes are served, by
fixed name, from the directory of a run id that is an id and never a path.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runs.paths import runs_dir
from runs.run_dir import RECORD, REPORT, RunDir

RUN_ID_RE = re.compile(r"[0-9A-Za-z][0-9A-Za-z_-]{0,63}")
RESUMABLE = ("interrupted", "failed", "incomplete")


@dataclass(frozen=True)
class RunRow:
    """What the runs page shows of one run."""

    run_id: str
    started_at: str
    status: str
    question: str
    model: str
    slices: str
    probes: str
    lm_calls: int | None
    tokens: int | None
    wall_seconds: float | None
    error: str | None

    @property
    def resumable(self) -> bool:
        return self.status in RESUMABLE


def _run_dir_type():
    from runs.run_dir import RunDir

    return RunDir


def _runs_root() -> Path:
    from runs.paths import runs_dir

    return runs_dir()


def open_run(run_id: str) -> Any | None:
    """The run directory of ``run_id``, or None (unknown, or not an id at all)."""
    if not RUN_ID_RE.fullmatch(run_id):
        return None
    return _run_dir_type().open(run_id)


def _usage(path: Path) -> tuple[int | None, float | None]:
    """Tokens and wall seconds from the run record, when the run has written one."""
    try:
        record = json.loads((path / RECORD).read_text())
        usage = record.get("usage") or {}
        tokens = int(usage.get("prompt_tokens") or 0) + int(usage.get("completion_tokens") or 0)
        wall = record.get("wall_seconds")
        return tokens or None, float(wall) if wall is not None else None
    except (OSError, ValueError, AttributeError, TypeError):
        return None, None


def row_of(run: RunDir) -> RunRow:
    summary = run.summary()
    tokens, wall = _usage(run.path)
    return RunRow(
        run_id=summary["run_id"],
        started_at=str(summary.get("started_at") or "")[:19].replace("T", " "),
        status=summary["status"],
        question=summary.get("question") or "",
        model=summary.get("model") or "",
        slices=f"{summary.get('slices_done', 0)}/{summary.get('slices', 0)}",
        probes=f"{summary.get('probes_done', 0)}/{summary.get('probes', 0)}",
        lm_calls=summary.get("lm_calls"),
        tokens=tokens,
        wall_seconds=wall,
        error=summary.get("error"),
    )


def list_runs() -> list[RunRow]:
    """Every run, newest first."""
    root = runs_dir()
    rows = [
        row_of(run)
        for path in (root.iterdir() if root.is_dir() else [])
        if path.is_dir() and (run := open_run(path.name)) is not None
    ]
    return sorted(rows, key=lambda r: r.started_at, reverse=True)


def run_file(run: RunDir, name: str) -> str | None:
    """The text of ``report.md`` or ``run.json`` of ``run``, or None if it is not written."""
    if name not in (REPORT, RECORD):
        raise ValueError(f"{name!r} is not a run file")
    path = run.path / name
    return path.read_text(encoding="utf-8") if path.is_file() else None
