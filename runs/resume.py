"""What a resume restores: the options that shape the research, stored without secrets.

A run records its options in ``meta.json`` as it starts; resuming it takes them back (the
question, model, agents, program, store and bounds), so the resumed run researches exactly
what the first attempt did and finds its checkpoint valid.
"""

from __future__ import annotations

import re
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


#: A PostgreSQL store address (one that went through ``pathlib`` has lost a slash).
_POSTGRES = re.compile(r"(?i)^postgres(?:ql)?(?:\+psycopg)?:/")
#: Its password: ``user:PASSWORD@`` in the address, or ``password=`` in its query.
_STORE_PASSWORD = re.compile(r"(?i)^([a-z+]+:/+[^:/@?#]*:)[^@/?#]+(?=@)|(password=)[^&#]+")
#: What a stored store address holds in place of its password.
STORE_SECRET = "***"


def store_without_password(address: str) -> str:
    """A PostgreSQL store address with its password replaced by ``***``."""
    return _STORE_PASSWORD.sub(lambda m: (m.group(1) or m.group(2)) + STORE_SECRET, address)


def _stored_store(store: Any) -> str | None:
    """The ``--store`` a resume can find again from anywhere: a SQLite file's absolute path
    (the option arrives as typed, relative to where the run started), a server's address
    without its password, which is never written to the run directory."""
    if not store:
        return None
    text = str(store)
    if _POSTGRES.match(text):
        return store_without_password(text)
    return str(Path(text).expanduser().resolve())


def research_options(**options: Any) -> dict[str, Any]:
    """The options a resume restores, as JSON: paths absolute (a resume may run elsewhere),
    URLs without credentials (``--api-base`` must then be given again, as must a store
    address's password: ``--store`` or ``$WISSEN_STORE``)."""

    def stored(key: str, value: Any) -> Any:
        if key == "store":
            return _stored_store(value)
        if isinstance(value, Path):
            return str(value.resolve())
        return redact(value) if key == "api_base" and value else value

    return {key: stored(key, value) for key, value in options.items()}


def resumed_store(stored: str | None, given: str | Path | None, run_id: str) -> str | None:
    """The store a resumed run opens: the stored one, or, for a server address stored
    without its password, the same address given again with it (``--store`` or
    ``$WISSEN_STORE``); :class:`BadRunRequest` when it is not given, or names another grid."""
    if not stored or not _POSTGRES.match(stored) or STORE_SECRET not in stored:
        return stored
    if given and store_without_password(str(given)) == stored:
        return str(given)
    if given and _POSTGRES.match(str(given)):
        raise BadRunRequest(
            f"run {run_id} researched the grid at {stored}; --store names another: give "
            "that address, with its password"
        )
    raise BadRunRequest(
        f"run {run_id}'s store address held a password, never stored: give it again with "
        "--store (or $WISSEN_STORE)"
    )


def stored_options(run: RunDir) -> dict[str, Any]:
    """The run's stored research options, the agents and program files as ``Path`` again
    (the store stays text: ``pathlib`` would take a slash out of a server address)."""
    stored = dict(run.meta["options"])
    for key in ("agents", "program"):
        stored[key] = Path(stored[key]) if stored.get(key) else None
    stored["store"] = str(stored["store"]) if stored.get("store") else None  # a path or address
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
