"""What a resume restores: the options that shape the research, stored without secrets.

A run records its question and settings (:class:`~runs.settings.RunSettings`) in
``meta.json`` as it starts; resuming it takes back those that shape the research (the
question, model, agents, program, store, bounds, figures and web sources), so the resumed
run researches exactly what the first attempt did and finds its checkpoint valid.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from retrieval.store_location import STORE_SECRET, StoreLocation
from runs.errors import BadRunRequest, RunAlreadyComplete, RunStillRunning, UnknownRun
from runs.paths import runs_dir
from runs.program_choice import SHIPPED
from runs.redaction import REDACTED, redact
from runs.run_dir import COMPLETED, RUNNING, RunDir

if TYPE_CHECKING:
    from runs.settings import RunSettings

#: What every resumable run recorded (runs from before the settings model recorded no more).
RESUMED_OPTIONS = (
    "question", "lm", "api_base", "agents", "program", "store", "max_probes", "max_rounds",
)  # fmt: skip
#: The settings a resume takes back: everything that shapes the research itself. The rest
#: (tracking, concurrency, the LM's resilience and budgets) are the resuming command's own.
RESUMED_SETTINGS = (*RESUMED_OPTIONS[1:], "figures", "web_sources", "company", "period")
#: What a run recorded before it recorded the setting (runs from before ``--no-figures``,
#: ``--web-sources``, ``--company``, ``--period``).
OLD_RECORD_DEFAULTS = {"figures": True, "web_sources": False, "company": None, "period": None}


def _stored(key: str, value: Any) -> Any:
    """One option as a record keeps it: a store findable from anywhere without its password,
    files as absolute paths (a resume may run elsewhere), URLs without credentials."""
    if key == "store":
        return StoreLocation.parse(value).stored() if value else None
    if key == "program" and value is not None and str(value) == SHIPPED:
        return SHIPPED
    if isinstance(value, Path):
        return str(value.resolve())
    if isinstance(value, tuple):
        return list(value)
    return redact(value) if key == "api_base" and value else value


def research_options(**options: Any) -> dict[str, Any]:
    """``options`` as JSON a run directory may hold (see :func:`_stored`): ``--api-base`` and a
    store address's password must be given again on resume (``--store``/``$WISSEN_STORE``)."""
    return {key: _stored(key, value) for key, value in options.items()}


def recorded_options(question: str, settings: RunSettings) -> dict[str, Any]:
    """What ``meta.json`` records of a run's request: its question and every setting."""
    return research_options(question=question, **settings.model_dump())


def resumed_store(
    stored: str | None, given: StoreLocation | str | None, run_id: str
) -> StoreLocation | None:
    """The store a resumed run opens: the stored one, or, for a server address stored
    without its password, the same address given again with it (``--store`` or
    ``$WISSEN_STORE``); :class:`BadRunRequest` when it is not given, or names another grid."""
    if not stored:
        return None
    location = StoreLocation.parse(stored)
    if not location.is_postgres or STORE_SECRET not in stored:
        return location
    given = StoreLocation.parse(given) if given else None
    if given is not None and given.stored() == stored:
        return given
    if given is not None and given.is_postgres:
        raise BadRunRequest(
            f"run {run_id} researched the grid at {stored}; --store names another: give "
            "that address, with its password"
        )
    raise BadRunRequest(
        f"run {run_id}'s store address held a password, never stored: give it again with "
        "--store (or $WISSEN_STORE)"
    )


def resumed_settings(run: RunDir, current: RunSettings) -> tuple[str, RunSettings]:
    """The question and settings of ``run`` resumed: its recorded research settings over
    ``current`` (the resuming command's), rebuilt with ``RunSettings.model_validate``.
    Reads records of every version (older ones hold fewer settings)."""
    stored = {**OLD_RECORD_DEFAULTS, **run.meta["options"]}
    restored = {key: stored[key] for key in RESUMED_SETTINGS if key in stored}
    api_base = current.api_base or stored["api_base"]  # the server may have moved
    if api_base and REDACTED in api_base:
        raise BadRunRequest("the run's --api-base held credentials, never stored: give it again")
    restored["api_base"] = api_base
    restored["store"] = resumed_store(stored["store"], current.store, run.run_id)
    try:
        settings = type(current).model_validate({**current.model_dump(), **restored})
    except ValidationError as exc:
        error = exc.errors()[0]
        raise BadRunRequest(
            f"run {run.run_id}'s recorded {'.'.join(map(str, error['loc']))} cannot be "
            f"resumed: {error['msg']}"
        ) from None
    return stored["question"], settings


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
