"""Run directories: every research run leaves a record of itself, and can be listed.

A run directory, ``data_dir()/runs/RUN_ID/``, holds:

- ``meta.json``: written before any LM call: the question, the options that shape the
  research (model, agents, compiled program, store, bounds), the settings, the model
  description, the process id and a status: ``running``, then ``completed``,
  ``incomplete`` (some work ended on an LM error), ``failed`` or ``interrupted``;
- ``checkpoint/``: finished work as it completes (``runs.checkpoint``), which a resume
  loads instead of redoing;
- ``report.md`` and ``run.json`` once the run completes.

A ``kill -9`` cannot update the status, so a run still marked ``running`` whose process is
gone (same host, pid not alive) is shown as ``interrupted``. Every run but a completed one
(or one still running) can be resumed.
"""

from __future__ import annotations

import contextlib
import os
import socket
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from atomicfiles import read_json, write_json_atomic
from runs.meta_shape import shape_problem, unreadable_meta
from runs.paths import runs_dir

if TYPE_CHECKING:
    from runs.checkpoint import DirectoryCheckpoint

META = "meta.json"
REPORT, RECORD = "report.md", "run.json"
RUNNING, COMPLETED, INCOMPLETE = "running", "completed", "incomplete"
FAILED, INTERRUPTED = "failed", "interrupted"


def _now() -> str:
    """Local time with milliseconds, so runs started in the same second still sort."""
    return datetime.now().astimezone().isoformat(timespec="milliseconds")


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` exists (signal 0 checks without signalling; POSIX only)."""
    if os.name == "nt":  # os.kill(pid, 0) would send CTRL_C_EVENT there
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, owned by someone else
        return True
    return True


def new_run_id() -> str:
    """``20240501-101500-ab12cd``: the start time (ids sort by it), then six random hex digits."""
    import uuid

    return time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]


@dataclass
class RunDir:
    """One run's directory and its ``meta.json``."""

    path: Path
    meta: dict[str, Any]

    @property
    def run_id(self) -> str:
        return self.path.name

    @property
    def checkpoint(self) -> DirectoryCheckpoint:
        from runs.checkpoint import DirectoryCheckpoint  # loads DSPy: only when needed

        return DirectoryCheckpoint(self.path / "checkpoint")

    @classmethod
    def open(cls, run_id: str) -> RunDir | None:
        """The run ``run_id``, or None; a run from before ``meta.json`` reads as completed."""
        if not run_id or run_id != Path(run_id).name or run_id.startswith("."):
            return None  # an id, never a path
        path = runs_dir() / run_id
        name, meta = META, read_json(path / META)
        if meta is None and not (path / META).exists():
            name, meta = RECORD, read_json(path / RECORD)
            if meta is None and not (path / RECORD).exists():
                return None
        problem = f"{name} cannot be read as JSON" if meta is None else shape_problem(meta, name)
        if problem:
            return cls(path, unreadable_meta(problem))
        return cls(path, meta if name == META else {**meta, "status": COMPLETED})

    @classmethod
    def start(cls, run_id: str, meta: dict[str, Any]) -> RunDir:
        """Mark ``run_id`` running in this process (a new run, or one being resumed)."""
        path = runs_dir() / run_id
        previous = read_json(path / META) or {}
        run = cls(path, {"started_at": _now(), "attempts": 0, **previous, **meta})
        run.update(
            status=RUNNING,
            pid=os.getpid(),
            host=socket.gethostname(),
            attempts=run.meta["attempts"] + 1,
            updated_at=_now(),
            error=None,
        )
        return run

    def update(self, **fields: Any) -> None:
        self.meta.update(fields)
        write_json_atomic(self.path / META, self.meta)

    @property
    def status(self) -> str:
        """The recorded status, except that a running run whose process is gone was killed."""
        status = self.meta.get("status", RUNNING)
        pid, host = self.meta.get("pid"), self.meta.get("host")
        ours = host == socket.gethostname() and isinstance(pid, int) and pid != os.getpid()
        return INTERRUPTED if status == RUNNING and ours and not pid_alive(pid) else status

    def report(self) -> str | None:
        """The finished report (Markdown, without the command line's footer), if any."""
        path = self.path / REPORT
        return path.read_text() if path.exists() else None

    def record(self) -> dict[str, Any] | None:
        """The finished run record (``run.json``), if any."""
        return read_json(self.path / RECORD)

    def write_results(self, report: str, record_json: str) -> None:
        """Write ``report.md`` and ``run.json`` (before :meth:`finish` marks the run done)."""
        (self.path / REPORT).write_text(report)
        (self.path / RECORD).write_text(record_json)

    def finish(self, **fields: Any) -> None:
        """Completed when every planned probe and slice is checkpointed; else incomplete:
        some work ended on an error (an LM down, a budget spent) and a resume retries it."""
        done = self.checkpoint.progress()
        whole = (done["probes_done"], done["slices_done"]) == (done["probes"], done["slices"])
        status = COMPLETED if whole else INCOMPLETE
        self.update(status=status, finished_at=_now(), updated_at=_now(), **fields)

    @contextlib.contextmanager
    def guard(self, inner: AbstractContextManager[Any]) -> Iterator[Any]:
        """Run ``inner``; an exception out of it marks the run failed (or interrupted)."""
        try:
            with inner as value:
                yield value
        except KeyboardInterrupt:
            self.update(status=INTERRUPTED, updated_at=_now())
            raise
        except BaseException as exc:
            message = str(exc) or type(exc).__name__
            self.update(status=FAILED, error=message[:500], updated_at=_now())
            raise

    def summary(self) -> dict[str, Any]:
        """One line of a run listing, as a dict (``research runs --json`` prints these)."""
        meta = self.meta
        return {
            "run_id": self.run_id,
            "started_at": meta.get("started_at") or _date_of(self.run_id),
            "status": self.status,
            "question": meta.get("question", ""),
            "model": meta.get("model", ""),
            **self.checkpoint.progress(),
            "lm_calls": meta.get("lm_calls"),
            "error": meta.get("error"),
        }


def _date_of(run_id: str) -> str:
    """``20240501-101500-ab12cd`` -> ``2024-05-01T10:15:00`` (ids begin with their time)."""
    try:
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.strptime(run_id[:15], "%Y%m%d-%H%M%S"))
    except ValueError:
        return ""


def list_runs() -> list[dict[str, Any]]:
    """Every run's :meth:`RunDir.summary`, newest first."""
    directory = runs_dir()
    runs = [
        run
        for path in (directory.iterdir() if directory.is_dir() else [])
        if path.is_dir() and (run := RunDir.open(path.name)) is not None
    ]
    return sorted((run.summary() for run in runs), key=lambda r: r["started_at"], reverse=True)
