"""``research dashboard``: the MLflow UI on the local tracking store, loopback only.

One worker and no job execution: a UI for one analyst's runs, not a shared server. The
server runs as a child process; Ctrl-C (or the server exiting) stops it cleanly.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from typing import Annotated

import typer

from cli.errors import EXIT_FAILED, fail, stderr
from cli.tracking import artifact_root, tracking_uri

HOST = "127.0.0.1"


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


def dashboard_command(
    port: Annotated[int, typer.Option(min=1024, max=65535, help="port on 127.0.0.1")] = 5000,
    ready_timeout: Annotated[float, typer.Option(help="seconds to wait for the UI")] = 120.0,
) -> None:
    """Open the MLflow UI on the runs and prompt versions of this machine."""
    if not _port_free(port):
        raise fail(f"port {port} on {HOST} is in use: pass --port")
    env = {**os.environ, "MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false"}
    proc = subprocess.Popen(server_command(port), env=env)
    url = f"http://{HOST}:{port}"
    try:
        deadline = time.monotonic() + ready_timeout
        while _port_free(port):
            if proc.poll() is not None:
                raise fail(f"the MLflow server exited with code {proc.returncode}", EXIT_FAILED)
            if time.monotonic() > deadline:
                raise fail(
                    f"the MLflow server did not start within {ready_timeout:.0f} s", EXIT_FAILED
                )
            time.sleep(0.2)
        stderr.print(f"dashboard: {url}  (tracking store {tracking_uri()}; Ctrl-C to stop)")
        proc.wait()
    except KeyboardInterrupt:
        stderr.print("stopping the dashboard")
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def register(app: typer.Typer) -> None:
    app.command("dashboard")(dashboard_command)
