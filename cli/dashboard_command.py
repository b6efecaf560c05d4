"""``research dashboard``: the MLflow UI on the local tracking store, loopback only.

One worker and no job execution: a UI for one analyst's runs, not a shared server. The
server (``mlflow server`` and the uvicorn process it starts) runs in a process group of its
own, so a terminal's Ctrl-C reaches only this command, which then stops the whole group
with SIGTERM: uvicorn shuts down gracefully instead of printing tracebacks. ``kill PID``
(SIGTERM) and a closed terminal (SIGHUP) stop it the same way; nothing is left listening.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from typing import Annotated

import typer

from cli.errors import EXIT_FAILED, fail, say
from runs.tracking import artifact_root, tracking_uri

HOST = "127.0.0.1"
STOP_GRACE_S = 10.0  # how long uvicorn may take to close connections before SIGKILL


class _StopRequested(Exception):
    """SIGTERM or SIGHUP arrived: stop the dashboard as Ctrl-C would."""


def _port_free(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex((HOST, port)) != 0


def server_command(port: int) -> list[str]:
    """The ``mlflow server`` command line for the local store."""
    return [
        sys.executable, "-m", "mlflow", "server",
        "--backend-store-uri", tracking_uri(),
        "--default-artifact-root", artifact_root().as_uri(),
        "--host", HOST, "--port", str(port), "--workers", "1",
    ]  # fmt: skip


def _request_stop(signum: int, _frame: object) -> None:
    raise _StopRequested(signal.Signals(signum).name)


def _signal_group(proc: subprocess.Popen, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signum)


def _stop_server(proc: subprocess.Popen, port: int) -> None:
    """SIGTERM to the server's group; SIGKILL to it if the port is still open after the
    grace period. Uvicorn is a grandchild: the port, not our child's exit, says it is gone."""
    _signal_group(proc, signal.SIGTERM)
    deadline = time.monotonic() + STOP_GRACE_S
    while (proc.poll() is None or not _port_free(port)) and time.monotonic() < deadline:
        time.sleep(0.1)
    if proc.poll() is None or not _port_free(port):
        _signal_group(proc, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=STOP_GRACE_S)


def _wait_until_ready(proc: subprocess.Popen, port: int, ready_timeout: float) -> None:
    deadline = time.monotonic() + ready_timeout
    while _port_free(port):
        if proc.poll() is not None:
            raise fail(f"the MLflow server exited with code {proc.returncode}", EXIT_FAILED)
        if time.monotonic() > deadline:
            raise fail(f"the MLflow server did not start within {ready_timeout:.0f} s", EXIT_FAILED)
        time.sleep(0.2)


def dashboard_command(
    port: Annotated[int, typer.Option(min=1024, max=65535, help="port on 127.0.0.1")] = 5000,
    ready_timeout: Annotated[float, typer.Option(help="seconds to wait for the UI")] = 120.0,
) -> None:
    """Open the MLflow UI on the runs and prompt versions of this machine."""
    if not _port_free(port):
        raise fail(f"port {port} on {HOST} is in use: pass --port")
    env = {**os.environ, "MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false"}
    previous = {s: signal.signal(s, _request_stop) for s in (signal.SIGTERM, signal.SIGHUP)}
    proc = subprocess.Popen(server_command(port), env=env, start_new_session=True)
    try:
        _wait_until_ready(proc, port, ready_timeout)
        say(f"dashboard: http://{HOST}:{port}  (tracking store {tracking_uri()}; Ctrl-C to stop)")
        code = proc.wait()
        raise fail(f"the MLflow server stopped by itself (exit code {code})", EXIT_FAILED)
    except (KeyboardInterrupt, _StopRequested):
        say("stopping the dashboard")
    finally:
        # A second Ctrl-C or kill must not cut the shutdown short and leave the port open.
        for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(s, signal.SIG_IGN)
        _stop_server(proc, port)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for s, handler in previous.items():
            signal.signal(s, handler)


def register(app: typer.Typer) -> None:
    app.command("dashboard")(dashboard_command)
