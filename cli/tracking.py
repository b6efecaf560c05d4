"""MLflow tracking for research runs: a local SQLite store unless the user points elsewhere.

Every ``research ask`` is one MLflow run (params: model, program version; metrics: the
deterministic report metrics; artifacts: report and run record; DSPy traces via autolog)
so prompt versions can be compared on the dashboard.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import platformdirs


def data_dir() -> Path:
    """``$WISSEN_HOME`` or the user data dir: where runs and the tracking DB live."""
    env = os.environ.get("WISSEN_HOME")
    return Path(env).expanduser() if env else Path(platformdirs.user_data_dir("wissen-research"))


def tracking_uri() -> str:
    """``$MLFLOW_TRACKING_URI`` or ``sqlite:///<data dir>/mlflow.db``."""
    env = os.environ.get("MLFLOW_TRACKING_URI")
    if env:
        return env
    path = data_dir() / "mlflow.db"
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


def program_version(state: dict[str, Any]) -> str:
    """Short hash of a program's saved state: the same prompts and demos, the same version."""
    blob = json.dumps(state, sort_keys=True, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:10]


@contextlib.contextmanager
def tracked_run(experiment: str, run_name: str, params: dict[str, Any]) -> Iterator[Any]:
    """An MLflow run with DSPy autologging; marks the run failed or killed on exceptions."""
    import mlflow

    mlflow.set_tracking_uri(tracking_uri())
    mlflow.set_experiment(experiment)
    mlflow.dspy.autolog(log_traces=True, silent=True)
    with mlflow.start_run(run_name=run_name) as run:
        mlflow.log_params({k: str(v)[:500] for k, v in params.items()})
        try:
            yield run
        except KeyboardInterrupt:
            mlflow.end_run(status="KILLED")
            raise
        finally:
            with contextlib.suppress(Exception):
                mlflow.flush_trace_async_logging()
