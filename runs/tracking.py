"""MLflow tracking for research runs: a local SQLite store unless the user points elsewhere.

Every research run (``research ask``, a run the web app starts) is one MLflow run (params:
model, program version; metrics: the deterministic report metrics; artifacts: report and run
record; DSPy traces via autolog) so prompt versions can be compared on the dashboard;
``research eval`` and ``optimise`` log their runs here too.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from runs.paths import data_dir
from runs.tracking_store import ensure_store


def tracking_uri() -> str:
    """``$MLFLOW_TRACKING_URI`` or ``sqlite:///<data dir>/mlflow.db``, created on first use
    in a way that concurrent first runs cannot break (:mod:`runs.tracking_store`)."""
    env = os.environ.get("MLFLOW_TRACKING_URI")
    if env:
        return env
    path = data_dir() / "mlflow.db"
    ensure_store(path, path.parent / "mlartifacts")
    return f"sqlite:///{path}"


def artifact_root() -> Path:
    """Where run artifacts go: beside a local SQLite store, else the data dir.

    MLflow's default for a database store is ``./mlruns`` in whatever directory a command
    runs from; artifacts should live with the runs they belong to.
    """
    uri = tracking_uri()
    if uri.startswith("sqlite:///"):
        return Path(uri.removeprefix("sqlite:///")).parent / "mlartifacts"
    return data_dir() / "mlartifacts"


def _use_experiment(name: str) -> None:
    import mlflow

    if mlflow.get_experiment_by_name(name) is None:
        location = artifact_root()
        location.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(mlflow.exceptions.MlflowException):  # created meanwhile
            mlflow.create_experiment(name, artifact_location=location.as_uri())
    mlflow.set_experiment(name)


def program_version(state: dict[str, Any]) -> str:
    """Short hash of a program's saved state: the same prompts and demos, the same version."""
    blob = json.dumps(state, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:10]


@contextlib.contextmanager
def tracked_run(
    experiment: str, run_name: str, params: dict[str, Any], optimising: bool = False
) -> Iterator[Any]:
    """An MLflow run with DSPy autologging; marks the run failed or killed on exceptions.

    With ``optimising`` autologging also records the compile and one child run per
    candidate evaluation. Ctrl-C ends every run still open (children included) as KILLED,
    so the tracking store never keeps a run that claims to be running.
    """
    import mlflow

    mlflow.set_tracking_uri(tracking_uri())
    _use_experiment(experiment)
    mlflow.dspy.autolog(log_traces=True, log_compiles=optimising, log_evals=optimising, silent=True)
    with mlflow.start_run(run_name=run_name) as run:
        mlflow.log_params({k: str(v)[:500] for k, v in params.items()})
        try:
            yield run
        except KeyboardInterrupt:
            _end_open_runs("KILLED")
            raise
        except BaseException:
            _end_open_runs("FAILED")
            raise
        finally:
            with contextlib.suppress(Exception):
                mlflow.flush_trace_async_logging()


def _end_open_runs(status: str) -> None:
    import mlflow

    while mlflow.active_run() is not None:
        mlflow.end_run(status=status)


def log_outcome(outcome: Any, prefix: str = "") -> None:
    """An evaluation's metric means and per-example table on the active MLflow run."""
    import mlflow

    mlflow.log_metrics({f"{prefix}{k}": v for k, v in outcome.means.items()})
    mlflow.log_metrics({f"{prefix}examples": len(outcome.rows), f"{prefix}failed": outcome.errors})
    rows = [
        {"id": r["id"], "question": r["question"], "error": r["error"], **r["metrics"]}
        for r in outcome.rows
    ]
    columns = list(dict.fromkeys(k for row in rows for k in row))
    if rows:
        mlflow.log_table(
            {k: [row.get(k) for row in rows] for k in columns}, f"{prefix}results.json"
        )
    mlflow.log_dict({"rows": outcome.rows}, f"{prefix}outputs.json")
