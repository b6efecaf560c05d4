"""Run directories and ``research runs``: every ``research ask`` leaves a record of itself.

A run directory, ``data_dir()/runs/RUN_ID/``, holds:

- ``meta.json``: written before any LM call: the question, the options that shape the
  research (model, agents, compiled program, store, bounds), the settings, the model
  description, the process id and a status: ``running``, then ``completed``,
  ``incomplete`` (some work ended on an LM error), ``failed`` or ``interrupted``;
- ``checkpoint/``: finished work as it completes (``programs.checkpoints``), which
  ``research ask --resume RUN_ID`` loads instead of redoing;
- ``report.md`` and ``run.json`` once the run completes.

A ``kill -9`` cannot update the status, so a run still marked ``running`` whose process is
gone (same host, pid not alive) is shown as ``interrupted``. Every run but a completed one
(or one still running) can be resumed.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markdown import Markdown

from cli.errors import fail, stderr
from cli.tracking import data_dir
from programs.jsonfiles import read_json, write_json_atomic

if TYPE_CHECKING:
    from programs.checkpoints import Checkpoint

console = Console(soft_wrap=True)

META = "meta.json"
RUNNING, COMPLETED, INCOMPLETE = "running", "completed", "incomplete"
FAILED, INTERRUPTED = "failed", "interrupted"
# What --resume takes from the run directory: everything that shapes the research itself.
RESUMED_OPTIONS = (
    "question", "lm", "api_base", "agents", "program", "store", "max_probes", "max_rounds",
)  # fmt: skip
MODEL_WIDTH, QUESTION_MIN_WIDTH = 32, 20
REDACTED = "REDACTED"  # plain text: Markdown would read "***" as emphasis
_USERINFO_RE = re.compile(r"(?<=://)[^/\s@]+@")
_SECRET_QUERY_RE = re.compile(
    r"([?&](?:api[_-]?key|key|token|access[_-]?token|secret|password|sig|signature)=)[^&#\s]+",
    re.IGNORECASE,
)
STATUS_STYLE = {FAILED: "red", INCOMPLETE: "yellow", INTERRUPTED: "yellow", RUNNING: "cyan"}


def runs_dir() -> Path:
    return data_dir() / "runs"


def _now() -> str:
    """Local time with milliseconds, so runs started in the same second still sort."""
    return datetime.now().astimezone().isoformat(timespec="milliseconds")


def _pid_alive(pid: int) -> bool:
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


@dataclass
class RunDir:
    """One run's directory and its ``meta.json``."""

    path: Path
    meta: dict[str, Any]

    @property
    def run_id(self) -> str:
        return self.path.name

    @property
    def checkpoint(self) -> Checkpoint:
        from programs.checkpoints import Checkpoint  # loads DSPy: only when needed

        return Checkpoint(self.path / "checkpoint")

    @classmethod
    def open(cls, run_id: str) -> RunDir | None:
        """The run ``run_id``, or None; a run from before ``meta.json`` reads as completed."""
        if not run_id or run_id != Path(run_id).name or run_id.startswith("."):
            return None  # an id, never a path
        path = runs_dir() / run_id
        meta = read_json(path / META)
        if meta is None:
            record = read_json(path / "run.json")
            if record is None:
                return None
            meta = {**record, "status": COMPLETED}
        return cls(path, meta)

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
        return INTERRUPTED if status == RUNNING and ours and not _pid_alive(pid) else status

    @property
    def options(self) -> dict[str, Any]:
        """The stored research options, paths as ``Path`` again (see :func:`research_options`)."""
        stored = dict(self.meta["options"])
        for key in ("agents", "program", "store"):
            stored[key] = Path(stored[key]) if stored.get(key) else None
        return stored

    def finish(self, **fields: Any) -> None:
        """Completed when every planned probe and slice is checkpointed; else incomplete:
        some work ended on an error (an LM down, a budget spent) and ``--resume`` retries it."""
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
        """One line of ``research runs``, as a dict (also its ``--json`` form)."""
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


def redact(text: str) -> str:
    """``text`` with URL credentials masked: ``user:pass@`` and key-like query parameters.

    A ``--api-base`` may carry them; run records, MLflow and reports must not.
    """
    text = _USERINFO_RE.sub(REDACTED + "@", text)
    return _SECRET_QUERY_RE.sub(lambda m: m.group(1) + REDACTED, text)


def research_options(**options: Any) -> dict[str, Any]:
    """The options ``--resume`` restores, as JSON: paths absolute (a resume may run elsewhere),
    URLs without credentials (``--api-base`` must then be given again)."""

    def stored(key: str, value: Any) -> Any:
        if isinstance(value, Path):
            return str(value.resolve())
        return redact(value) if key == "api_base" and value else value

    return {key: stored(key, value) for key, value in options.items()}


def resumable(run_id: str, question: str | None) -> RunDir:
    """The run to resume; a completed run's report is printed and the command ends (exit 0)."""
    run = RunDir.open(run_id)
    if run is None:
        raise fail(f"no run {run_id!r} in {runs_dir()}: `research runs` lists the runs")
    status = run.status
    if status == COMPLETED:
        report = run.path / "report.md"
        stderr.print(f"run {run_id} is already complete; its report:")
        console.print(Markdown(report.read_text() if report.exists() else "(no report)"))
        raise typer.Exit(0)
    if status == RUNNING:
        raise fail(f"run {run_id} is still running (pid {run.meta.get('pid')}); wait or stop it")
    options = run.meta.get("options")
    if not isinstance(options, dict) or not all(k in options for k in RESUMED_OPTIONS):
        raise fail(f"run {run_id} has no record of its options, so it cannot be resumed")
    if question and question != options["question"]:
        raise fail("--resume continues the run's own question: leave the question out")
    return run


def runs_command(
    as_json: Annotated[bool, typer.Option("--json", help="print the runs as JSON")] = False,
) -> None:
    """List past research runs, newest first."""
    directory = runs_dir()
    runs = [
        run
        for path in (directory.iterdir() if directory.is_dir() else [])
        if path.is_dir() and (run := RunDir.open(path.name)) is not None
    ]
    rows = sorted((run.summary() for run in runs), key=lambda r: r["started_at"], reverse=True)
    if as_json:
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    if not rows:
        stderr.print(f"no runs yet in {directory}")
        return
    # Fixed columns, then the question in whatever width is left: one greppable line per run.
    rows_text = [
        [
            row["run_id"],
            row["started_at"][:16].replace("T", " "),
            row["status"],
            f"{row['slices_done']}/{row['slices']}",
            f"{row['probes_done']}/{row['probes']}",
            _clip(row["model"], MODEL_WIDTH),
        ]
        for row in rows
    ]
    header = ["RUN", "DATE", "STATUS", "SLICES", "PROBES", "MODEL"]
    widths = [max(len(r[k]) for r in [header, *rows_text]) for k in range(len(header))]
    room = max(console.width - sum(widths) - 2 * len(widths), QUESTION_MIN_WIDTH)
    console.print(_line(header, widths) + "QUESTION", style="bold", highlight=False)
    for cells, row in zip(rows_text, rows, strict=True):
        line = _line(cells, widths) + _clip(row["question"], room)
        console.print(line, style=STATUS_STYLE.get(row["status"]), highlight=False, markup=False)


def _line(cells: list[str], widths: list[int]) -> str:
    return "".join(cell.ljust(width + 2) for cell, width in zip(cells, widths, strict=True))


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def register(app: typer.Typer) -> None:
    app.command("runs")(runs_command)
