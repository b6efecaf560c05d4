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
import logging
import os
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from runs.paths import data_dir
from runs.tracking_store import ensure_store

logger = logging.getLogger(__name__)


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


def mlflow_server_command(host: str, port: int) -> list[str]:
    """``mlflow server`` on the local tracking store: one command line for ``research
    dashboard`` and for the web page's "start it from here"."""
    import sys

    return [
        sys.executable, "-m", "mlflow", "server",
        "--backend-store-uri", tracking_uri(),
        "--default-artifact-root", artifact_root().as_uri(),
        "--host", host, "--port", str(port), "--workers", "1",
    ]  # fmt: skip


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


_AUTOLOG_LOCK = threading.Lock()
_autolog_optimising: bool | None = None  # how this process turned autologging on, if it has


def enable_autolog(optimising: bool = False) -> None:
    """Turn on MLflow's DSPy autologging once per process (again only if ``optimising``
    changes), from the thread that calls it first.

    ``mlflow.dspy.autolog`` calls ``dspy.settings.configure`` every time, and DSPy lets only
    the thread that configured it first configure it again: a second call from any other
    thread raises ("dspy.settings can only be changed by the thread that initially
    configured it"). A server's runs each have a thread of their own, so the server calls
    this from its main thread at start (``web.run_control``) and the runs' own calls find
    it done. Everything else a run sets goes through ``dspy.context``, which any thread may
    use. Turned off meanwhile (``autolog(disable=True)``), it is turned on again.
    """
    import dspy
    import mlflow
    from mlflow.dspy.callback import MlflowCallback

    global _autolog_optimising
    with _AUTOLOG_LOCK:
        on = any(isinstance(c, MlflowCallback) for c in dspy.settings.callbacks)
        if on and _autolog_optimising == optimising:
            return
        mlflow.dspy.autolog(
            log_traces=True, log_compiles=optimising, log_evals=optimising, silent=True
        )
        _autolog_optimising = optimising


def prepare_tracking(experiment: str) -> None:
    """Make the tracking store and ``experiment`` and turn autologging on, in this thread,
    ahead of runs that other threads will start (``research serve``, at start).

    A new store takes seconds to create and migrate; done by the first run's own thread, a
    server stopped meanwhile would exit before that run had an MLflow run to mark KILLED
    (and :func:`enable_autolog` must run in the main thread anyway).
    """
    import mlflow

    mlflow.set_tracking_uri(tracking_uri())
    _use_experiment(experiment)
    enable_autolog()


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
    enable_autolog(optimising)
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


def trace_recorder() -> Any:
    """A DSPy callback that keeps the id of every MLflow trace its run's modules run in.

    A run is stopped from another thread (the server shutting down) while its modules are
    still inside their spans; that thread cannot see the run's active trace, and MLflow has
    by then stored the trace as ``IN_PROGRESS`` (finished child spans are stored as they
    end). With these ids :func:`kill_run` can end it. Put it after MLflow's own callback
    (``dspy.context(callbacks=[*dspy.settings.callbacks, recorder])``), so the module's
    span is the active one when it looks.
    """
    from dspy.utils.callback import BaseCallback

    class TraceRecorder(BaseCallback):
        def __init__(self) -> None:
            self.trace_ids: set[str] = set()
            self._lock = threading.Lock()

        def on_module_start(self, call_id: str, instance: Any, inputs: dict[str, Any]) -> None:
            import mlflow

            if trace_id := mlflow.get_active_trace_id():
                with self._lock:
                    self.trace_ids.add(trace_id)

        def ids(self) -> list[str]:
            with self._lock:
                return sorted(self.trace_ids)

    return TraceRecorder()


def kill_run(run_id: str, trace_ids: Iterable[str] = ()) -> None:
    """End the MLflow run ``run_id`` as KILLED, and its traces as errors, from any thread.

    What Ctrl-C does to ``research ask``'s run (:func:`tracked_run`), for a run whose own
    thread cannot be reached: a server stopping with a run in flight. A trace's spans that
    are still open are ended with it; a trace that has already ended is left as it is.
    """
    import mlflow

    client = mlflow.MlflowClient(tracking_uri())
    for trace_id in trace_ids:
        try:
            client.end_trace(trace_id, status="ERROR")
        except Exception as exc:  # already ended, or never stored: nothing left open
            logger.debug("trace %s of run %s not ended: %s", trace_id, run_id, exc)
    with contextlib.suppress(Exception):
        mlflow.flush_trace_async_logging()
    client.set_terminated(run_id, status="KILLED")


def log_outcome(outcome: Any, prefix: str = "") -> None:
    """An evaluation's metric means and per-example table on the active MLflow run."""
    import mlflow

    mlflow.log_metrics({f"{prefix}{k}": v for k, v in outcome.means.items()})
    by_type = outcome.by_type()
    for kind, means in by_type.items():  # per question type: accuracy_novel-generated…
        if kind != "all" and len(by_type) > 2:  # one type alone repeats "all"
            mlflow.log_metrics({f"{prefix}{k}_{kind}": v for k, v in means.items() if k != "n"})
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
