"""`research dashboard`: the MLflow UI comes up on loopback and Ctrl-C stops it cleanly."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

from cli.dashboard_command import server_command


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_the_server_listens_on_loopback_with_one_worker(wissen_home):
    command = server_command(5123)
    assert command[command.index("--host") + 1] == "127.0.0.1"
    assert command[command.index("--workers") + 1] == "1"
    assert command[command.index("--backend-store-uri") + 1].endswith("mlflow.db")


def test_dashboard_serves_the_ui_and_stops_on_ctrl_c(wissen_home):
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.app", "dashboard", "--port", str(port)],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ},
        start_new_session=True,  # Ctrl-C goes to the dashboard and its server, not to pytest
    )
    try:
        line = ""
        deadline = time.monotonic() + 120
        while "dashboard:" not in line and time.monotonic() < deadline:
            line = proc.stderr.readline()
            assert line or proc.poll() is None, "the dashboard exited early"
        assert f"http://127.0.0.1:{port}" in line
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as response:
            assert response.status == 200
        os.killpg(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    with socket.socket() as sock:
        assert sock.connect_ex(("127.0.0.1", port)) != 0  # nothing left listening
