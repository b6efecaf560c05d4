"""Where a research run lives in the MLflow UI, and that UI started when it is not running.

``research ask`` logs each run to the ``wissen-ask`` experiment under the run id as its run
name; the UI addresses runs by experiment and MLflow run uuid, so the link is looked up
when it is followed, not on every page view (MLflow takes seconds to import).

The UI is ``research dashboard``'s, which an analyst starts in a terminal; a link to it
while it is not running led nowhere. So the run page's link first checks that something
listens at the UI's address: if so it goes to the run, and if not it says how to start the
dashboard and offers to start it here (:class:`Dashboard`). One started here is the same
server on the same local store, loopback only, and it stops with this server.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import signal
import socket
import subprocess
import tempfile
import threading
from typing import IO
from urllib.parse import urlsplit

from web.settings import is_loopback

logger = logging.getLogger(__name__)
ASK_EXPERIMENT = "wissen-ask"
STOP_GRACE_S = 10.0


def mlflow_run_url(ui: str, run_id: str) -> str | None:
    """The UI's address of the MLflow run named ``run_id``, or None if it was not tracked."""
    import mlflow

    from runs.tracking import tracking_uri

    client = mlflow.MlflowClient(tracking_uri=tracking_uri())
    experiment = client.get_experiment_by_name(ASK_EXPERIMENT)
    if experiment is None:
        return None
    found = client.search_runs(
        [experiment.experiment_id],
        filter_string=f"attributes.run_name = '{run_id}'",  # run ids are [0-9A-Za-z_-]
        max_results=1,
    )
    if not found:
        return None
    return f"{ui.rstrip('/')}/#/experiments/{experiment.experiment_id}/runs/{found[0].info.run_id}"


def ui_address(ui: str) -> tuple[str, int] | None:
    """``http://127.0.0.1:5000`` -> ``("127.0.0.1", 5000)``; None if it names no host."""
    try:
        parts = urlsplit(ui)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return None
    return (parts.hostname, port) if parts.hostname else None


def listening(ui: str, timeout: float = 0.5) -> bool:
    """Whether something accepts connections at the UI's address."""
    address = ui_address(ui)
    if address is None:
        return False
    try:
        with socket.create_connection(address, timeout=timeout):
            return True
    except OSError:
        return False


def server_command(host: str, port: int) -> list[str]:
    """``mlflow server`` on the local tracking store, as ``research dashboard`` runs it."""
    from runs.tracking import mlflow_server_command

    return mlflow_server_command(host, port)


class Dashboard:
    """The MLflow UI at ``ui``: whether it runs, and one started here on demand."""

    def __init__(self, ui: str) -> None:
        self.ui = ui
        self._proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        self._lock = threading.Lock()

    @property
    def command(self) -> str:
        """How to start it by hand."""
        address = ui_address(self.ui)
        port = f" --port {address[1]}" if address and address[1] != 5000 else ""
        return f"uv run research dashboard{port}"

    @property
    def can_start(self) -> bool:
        """Only a UI on this machine's loopback can be started from here."""
        address = ui_address(self.ui)
        return address is not None and is_loopback(address[0])

    def running(self) -> bool:
        return listening(self.ui)

    def state(self) -> dict[str, object]:
        """``running``, ``starting`` (started here, not listening yet), ``error`` (it exited)."""
        running = self.running()
        with self._lock:
            proc = self._proc
            starting = proc is not None and proc.poll() is None and not running
            error = None if running or proc is None or proc.poll() is None else self._error()
        return {"ui": self.ui, "running": running, "starting": starting, "error": error}

    def _error(self) -> str:
        assert self._proc is not None and self._log is not None
        self._log.seek(0)
        lines = [line for line in self._log.read().decode(errors="replace").splitlines() if line]
        last = lines[-1][:300] if lines else ""
        return f"the MLflow UI exited with code {self._proc.returncode}" + (
            f": {last}" if last else ""
        )

    def start(self) -> None:
        """Start ``mlflow server`` at the UI's address, unless it runs or is starting."""
        address = ui_address(self.ui)
        if address is None or not self.can_start:
            raise ValueError(f"the MLflow UI at {self.ui} is not on this machine: start it there")
        with self._lock:
            if self._proc is not None and self._proc.poll() is None:
                return
            if self.running():
                return
            self._log = tempfile.TemporaryFile()  # noqa: SIM115 (closed in stop())
            env = {**os.environ, "MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false"}
            self._proc = subprocess.Popen(
                server_command(*address),
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=self._log,
                start_new_session=True,  # its group is stopped as a whole (uvicorn is a grandchild)
            )
            logger.info("started the MLflow UI at %s (pid %d)", self.ui, self._proc.pid)
            # Stopped with the app (its lifespan); this covers an exit that skips it.
            atexit.register(self.stop)

    def stop(self) -> None:
        """Stop the UI started here, if any: SIGTERM to its group, SIGKILL after the grace."""
        with self._lock:
            proc, self._proc = self._proc, None
            log, self._log = self._log, None
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=STOP_GRACE_S)
        if log is not None:
            log.close()
