"""``research dashboard``: the MLflow UI on the local tracking store, loopback only.

One worker and no job execution: a UI for one analyst's runs, not a shared server. The
server (``mlflow server`` and the uvicorn process it starts) runs in a process group of its
own, so a terminal's Ctrl-C reaches only this command, which then stops the whole group
with SIGTERM: uvicorn shuts down gracefully instead of printing tracebacks. ``kill PID``
(SIGTERM) and a closed terminal (SIGHUP) stop it the same way; nothing is left listening.

A dashboard killed with SIGKILL cannot stop its server, so it records the server's pid in
``<data dir>/dashboard/port-PORT.json`` while it runs; the next ``research dashboard``
stops a server so left behind (one whose dashboard is gone and which is still an
``mlflow server``), and says so.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Annotated

import typer

from cli.errors import EXIT_FAILED, fail, say
from runs.paths import data_dir
from runs.run_dir import pid_alive
from runs.tracking import mlflow_server_command, tracking_uri

HOST = "127.0.0.1"
STOP_GRACE_S = 10.0  # how long uvicorn may take to close connections before SIGKILL


class _StopRequested(Exception):
    """SIGTERM or SIGHUP arrived: stop the dashboard as Ctrl-C would."""


def _port_free(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex((HOST, port)) != 0


def server_command(port: int) -> list[str]:
    """The ``mlflow server`` command line for the local store, on loopback."""
    return mlflow_server_command(HOST, port)


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


# -- servers a killed dashboard left behind -------------------------------------------------


def records_dir() -> Path:
    """Where running dashboards record their servers: one file per port."""
    return data_dir() / "dashboard"


def _record_server(proc: subprocess.Popen, port: int) -> Path | None:
    """Record this dashboard's server (its pid is its process group's id) for the next start
    to find if this process is killed; None if the data dir cannot be written."""
    path = records_dir() / f"port-{port}.json"
    record = {"dashboard_pid": os.getpid(), "server_pid": proc.pid, "port": port}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".tmp")
        partial.write_text(json.dumps(record))
        partial.replace(path)
    except OSError:
        return None  # the dashboard works without it; only a SIGKILL's cleanup is lost
    return path


def command_line(pid: int) -> list[str] | None:
    """Process ``pid``'s arguments, or None if they cannot be read (gone, or no ``/proc``
    and no ``ps``)."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except FileNotFoundError:
        if Path("/proc/self").exists():
            return None  # Linux: the process is gone
    except OSError:
        return None
    else:
        return [part.decode(errors="replace") for part in raw.split(b"\0") if part] or None
    try:  # macOS and the BSDs
        shown = subprocess.run(
            ["ps", "-o", "command=", "-p", str(pid)], capture_output=True, text=True, timeout=5
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return shown.stdout.split() or None


def _is_mlflow_server(pid: int) -> bool | None:
    """Whether ``pid`` runs ``mlflow server`` (None: cannot tell). A recorded pid may have
    been reused by an unrelated process since: that one is never signalled."""
    words = command_line(pid)
    if words is None:
        return None
    return "mlflow" in " ".join(words) and "server" in words


def _is_dashboard(pid: int) -> bool:
    words = command_line(pid)
    return pid_alive(pid) and bool(words) and "dashboard" in words


def _group_gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def _process_group(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except (ProcessLookupError, PermissionError):
        return None


def _stop_group(pgid: int) -> None:
    """SIGTERM to a left-behind server's group, SIGKILL after the grace period; returns once
    the group is gone (its port free), or a few seconds after the SIGKILL."""
    for signum, wait in ((signal.SIGTERM, STOP_GRACE_S), (signal.SIGKILL, 5.0)):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signum)
        deadline = time.monotonic() + wait
        while not _group_gone(pgid) and time.monotonic() < deadline:
            time.sleep(0.1)
        if _group_gone(pgid):
            return


def _drop(record: Path) -> None:
    with contextlib.suppress(OSError):
        record.unlink(missing_ok=True)


def reap_orphaned_servers() -> list[str]:
    """Stop the MLflow servers that dashboards killed with SIGKILL left running; what was
    done, one line each (also said on stderr).

    A record whose dashboard still runs is another terminal's dashboard and is left alone.
    Otherwise its server is stopped only if that pid still runs ``mlflow server`` and leads
    its own process group (as :func:`dashboard_command` starts it); a pid that runs
    something else now is not touched, and a server that cannot be checked is reported.
    """
    said: list[str] = []
    folder = records_dir()
    for path in sorted(folder.glob("port-*.json")) if folder.is_dir() else []:
        try:
            record = json.loads(path.read_text())
            owner, pid, port = (int(record[k]) for k in ("dashboard_pid", "server_pid", "port"))
        except (OSError, ValueError, TypeError, KeyError):
            _drop(path)  # half written or damaged: nothing to act on
            continue
        if owner != os.getpid() and _is_dashboard(owner):
            continue
        mlflow = _is_mlflow_server(pid) if pid_alive(pid) else False
        group = _process_group(pid)
        if mlflow and group == pid:
            _stop_group(pid)
            said.append(
                f"stopped the MLflow server (pid {pid}, port {port}) that a killed dashboard "
                "left running"
            )
        elif mlflow is None or (mlflow and group != pid):
            said.append(
                f"a killed dashboard may have left its MLflow server (pid {pid}) on port "
                f"{port}: stop it with `kill {pid}` if it is still running"
            )
        _drop(path)
    for line in said:
        say(line)
    return said


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
    reap_orphaned_servers()  # before the port check: a left-behind server may hold it
    if not _port_free(port):
        raise fail(f"port {port} on {HOST} is in use: pass --port")
    env = {**os.environ, "MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false"}
    previous = {s: signal.signal(s, _request_stop) for s in (signal.SIGTERM, signal.SIGHUP)}
    proc = subprocess.Popen(server_command(port), env=env, start_new_session=True)
    record = _record_server(proc, port)
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
        if record is not None:
            _drop(record)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for s, handler in previous.items():
            signal.signal(s, handler)


def register(app: typer.Typer) -> None:
    app.command("dashboard")(dashboard_command)
