"""What a resume restores: the options that shape the research, stored without secrets.

A run records its options in ``meta.json`` as it starts; resuming it takes them back (the
question, model, agents, program, store and bounds), so the resumed run researches exactly
what the first attempt did and finds its checkpoint valid.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from runs.errors import BadRunRequest, RunAlreadyComplete, RunStillRunning, UnknownRun
from runs.paths import runs_dir
from runs.redaction import redact
from runs.run_dir import COMPLETED, RUNNING, RunDir

# What a resume takes from the run directory: everything that shapes the research itself.
RESUMED_OPTIONS = (
    "question", "lm", "api_base", "agents", "program", "store", "max_probes", "max_rounds",
)  # fmt: skip


def research_options(**options: Any) -> dict[str, Any]:
    """The options a resume restores, as JSON: paths absolute (a resume may run elsewhere),
    URLs without credentials (``--api-base`` must then be given again)."""

    def stored(key: str, value: Any) -> Any:
        if isinstance(value, Path):
            return str(value.resolve())
        return redact(value) if key == "api_base" and value else value

    return {key: stored(key, value) for key, value in options.items()}


def stored_options(run: RunDir) -> dict[str, Any]:
    """The run's stored research options, paths as ``Path`` again."""
    stored = dict(run.meta["options"])
    for key in ("agents", "program", "store"):
        stored[key] = Path(stored[key]) if stored.get(key) else None
    return stored


def resumable(run_id: str, question: str | None) -> RunDir:
    """The run to resume, or the error that says why it cannot be
    (:class:`RunAlreadyComplete` for a completed run: its report is the answer)."""
    run = RunDir.open(run_id)
    if run is None:
        raise UnknownRun(f"no run {run_id!r} in {runs_dir()}: `research runs` lists the runs")
    status = run.status
    if status == COMPLETED:
        raise RunAlreadyComplete(run)
    if status == RUNNING:
        raise RunStillRunning(
            f"run {run_id} is still running (pid {run.meta.get('pid')}); wait or stop it"
        )
    options = run.meta.get("options")
    if not isinstance(options, dict) or not all(k in options for k in RESUMED_OPTIONS):
        raise BadRunRequest(f"run {run_id} has no record of its options, so it cannot be resumed")
    if question and question != options["question"]:
        raise BadRunRequest("--resume continues the run's own question: leave the question out")
    return run
