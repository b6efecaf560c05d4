"""`research dashboard`: the MLflow UI comes up on loopback; Ctrl-C or `kill` stop it all."""

from __future__ import annotations

import contextlib
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


def _start_dashboard(port: int) -> subprocess.Popen:
    """``research dashboard`` in a session of its own (as a terminal would run it), ready."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli.app", "dashboard", "--port", str(port)],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ},
        start_new_session=True,  # its signals go to it (and its group), not to pytest
    )
    line = ""
    deadline = time.monotonic() + 120
    while "dashboard:" not in line and time.monotonic() < deadline:
        line = proc.stderr.readline()
        assert line or proc.poll() is None, "the dashboard exited early"
    assert f"http://127.0.0.1:{port}" in line
    return proc


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def _stopped_cleanly(proc: subprocess.Popen, port: int) -> str:
    """Waits for the dashboard to exit 0 with nothing left on the port; its later stderr."""
    assert proc.wait(timeout=30) == 0
    deadline = time.monotonic() + 10
    while _listening(port) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _listening(port), "the MLflow server is still listening"
    return proc.stderr.read()


def _kill_everything(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


def test_dashboard_serves_the_ui_and_stops_on_ctrl_c(wissen_home):
    port = _free_port()
    proc = _start_dashboard(port)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as response:
            assert response.status == 200
        # A browser tab keeps a connection open; Ctrl-C reaches the whole foreground group.
        with socket.create_connection(("127.0.0.1", port), timeout=10):
            os.killpg(proc.pid, signal.SIGINT)
            rest = _stopped_cleanly(proc, port)
    finally:
        _kill_everything(proc)
    assert "Traceback" not in rest and "KeyboardInterrupt" not in rest, rest
    assert "stopping the dashboard" in rest


def test_kill_pid_stops_the_server_too(wissen_home):
    port = _free_port()
    proc = _start_dashboard(port)
    try:
        os.kill(proc.pid, signal.SIGTERM)  # `kill PID`: the dashboard alone gets the signal
        rest = _stopped_cleanly(proc, port)
    finally:
        _kill_everything(proc)
    assert "Traceback" not in rest, rest
