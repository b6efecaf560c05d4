"""Two command-line faults: Scope lines cut at the terminal's width, and the MLflow server a
SIGKILLed ``research dashboard`` left running.

- ``research ask`` printed its report with ``soft_wrap``, under which Rich crops a list item
  at the console width: a **Scope** note lost its end on a narrow terminal. Every block now
  wraps at word boundaries and nothing is cut.
- A dashboard killed with SIGKILL cannot stop its server (a process group of its own), so
  the server kept the port. The dashboard now records its server's pid while it runs, and
  the next start stops a server so left behind, when that pid still runs ``mlflow server``.
  The tests use fake long-running children, never a real MLflow server.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from rich.console import Console
from run_scripted_ask import install_scripted_lm
from typer.testing import CliRunner
from web_helpers import free_port

import cli.ask_command
import cli.dashboard_command as dashboard
from cli.app import app
from cli.ask_command import print_report

runner = CliRunner()
NOTE = "KO FY2022 Q4 is not in the grid; researched KO FY2020 Q4, the nearest period held, instead"


def _words(text: str) -> str:
    return " ".join(text.split())


# -- 15a. Scope lines wrap -------------------------------------------------------------------


def test_a_scope_note_wraps_on_a_narrow_console_and_loses_nothing():
    report = (
        "## Answer\n\nThe answer.¹\n\n**Sources**\n\n1. MMM 10-K FY2022 p.48\n\n"
        f"**Scope**\n\n- {NOTE}.\n- Apple (AAPL) is not in the grid."
    )
    shown = io.StringIO()
    print_report(report, Console(file=shown, width=40, soft_wrap=True))
    lines = shown.getvalue().splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 40
    assert f"• {NOTE}" in _words(shown.getvalue())  # every word, in order
    assert "Apple (AAPL) is not in the grid." in _words(shown.getvalue())


def test_research_ask_wraps_the_scope_note_at_the_terminal_width(
    monkeypatch, wissen_home, sample_store_path
):
    install_scripted_lm(monkeypatch)
    monkeypatch.setattr(cli.ask_command, "console", Console(width=50, soft_wrap=True))
    question = "How did Coca-Cola's capital expenditure compare with 3M's in FY2022?"
    result = runner.invoke(
        app, ["ask", question, "--store", str(sample_store_path), "--no-track", "--quiet"]
    )
    assert result.exit_code == 0, result.output
    assert "Scope" in result.stdout
    assert f"• {NOTE}" in _words(result.stdout)  # wrapped under its bullet, not cut
    assert max(len(line.rstrip()) for line in result.stdout.splitlines()) <= 50


# -- 15b. a killed dashboard's server --------------------------------------------------------


def _spawn(*words: str) -> subprocess.Popen:
    """A long-running child in a process group of its own (as the dashboard starts its
    server) whose command line carries ``words``; reaped as soon as it exits, as init
    reaps an orphan, so its pid is gone once it stops."""
    proc = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(300)", *words],
        start_new_session=True,
    )
    threading.Thread(target=proc.wait, daemon=True).start()
    # Until the child has exec'd, its command line is empty (or its parent's): on a loaded
    # machine a check could read that instead of ``words``.
    deadline = time.monotonic() + 15
    while words and words[-1] not in (dashboard.command_line(proc.pid) or []):
        if time.monotonic() > deadline:
            break
        time.sleep(0.01)
    return proc


def _dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def _record(owner: int, server: int, port: int) -> Path:
    folder = dashboard.records_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"port-{port}.json"
    path.write_text(json.dumps({"dashboard_pid": owner, "server_pid": server, "port": port}))
    return path


def _gone(proc: subprocess.Popen, timeout: float = 15) -> bool:
    deadline = time.monotonic() + timeout
    while proc.returncode is None and time.monotonic() < deadline:
        time.sleep(0.05)
    return proc.returncode is not None


@pytest.fixture
def children():
    spawned: list[subprocess.Popen] = []
    yield spawned
    for proc in spawned:
        if proc.returncode is None:
            proc.kill()


def test_the_server_of_a_killed_dashboard_is_stopped_on_the_next_start(
    wissen_home, children, capsys
):
    port = free_port()
    server = _spawn("-m", "mlflow", "server", "--port", str(port))
    children.append(server)
    record = _record(_dead_pid(), server.pid, port)
    said = dashboard.reap_orphaned_servers()
    assert _gone(server), "the left-behind server is still running"
    assert said == [
        f"stopped the MLflow server (pid {server.pid}, port {port}) that a killed dashboard "
        "left running"
    ]
    assert said[0] in capsys.readouterr().err
    assert not record.exists()


def test_a_running_dashboards_server_is_left_alone(wissen_home, children):
    owner = _spawn("research", "dashboard", "--port", "5001")
    server = _spawn("-m", "mlflow", "server", "--port", "5001")
    children.extend([owner, server])
    record = _record(owner.pid, server.pid, 5001)
    assert dashboard.reap_orphaned_servers() == []
    time.sleep(0.3)
    assert server.returncode is None and record.exists()


def test_a_recorded_pid_that_now_runs_something_else_is_not_signalled(wissen_home, children):
    stranger = _spawn("an", "unrelated", "program")
    children.append(stranger)
    record = _record(_dead_pid(), stranger.pid, 5002)
    assert dashboard.reap_orphaned_servers() == []
    time.sleep(0.3)
    assert stranger.returncode is None
    assert not record.exists()  # a stale record is dropped


def test_a_damaged_record_is_dropped(wissen_home):
    folder = dashboard.records_dir()
    folder.mkdir(parents=True)
    (folder / "port-5003.json").write_text('{"server_pid": ')
    assert dashboard.reap_orphaned_servers() == []
    assert list(folder.iterdir()) == []


FAKE_SERVER = """
import json, socket, sys, os
port, record = int(sys.argv[1]), sys.argv[2]
listener = socket.create_server(("127.0.0.1", port))
listener.settimeout(10)
try:
    listener.accept()  # the dashboard's readiness check
except OSError:
    pass
written = json.loads(open(record).read())
sys.exit(0 if written["server_pid"] == os.getpid() else 3)
"""


def test_the_dashboard_records_its_server_while_it_runs_and_removes_the_record(
    wissen_home, monkeypatch
):
    """The fake server checks the record names it, then exits (exit 0 if it did): the
    dashboard reports the stop and removes the record."""
    port = free_port()
    record = dashboard.records_dir() / f"port-{port}.json"
    monkeypatch.setattr(
        dashboard,
        "server_command",
        lambda p: [sys.executable, "-c", FAKE_SERVER, str(p), str(record)],
    )
    result = runner.invoke(app, ["dashboard", "--port", str(port), "--ready-timeout", "30"])
    assert result.exit_code == 1, result.output
    assert "the MLflow server stopped by itself (exit code 0)" in result.stderr
    assert not record.exists()


# -- research ask --store on another program's database ---------------------------------------


def test_research_ask_refuses_a_sqlite_store_that_is_not_a_grid(monkeypatch, wissen_home, tmp_path):
    """Bad input (exit 2, one line), as ``research grid`` and ``ingest`` say it; before, the
    generic error path: exit 1 and "rerun with --debug"."""
    import sqlite3

    lm = install_scripted_lm(monkeypatch)
    path = tmp_path / "mlflow.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE experiments (id INTEGER PRIMARY KEY, name TEXT)")
    db.close()
    before = path.read_bytes()
    result = runner.invoke(
        app, ["ask", "What was 3M's capital expenditure in FY2022?", "--store", str(path)]
    )
    assert result.exit_code == 2, result.output
    assert result.stderr.strip().splitlines() == [
        f"error: {path} is not a grid store: it is a SQLite database with other tables "
        "(experiments); choose another store file (a new or empty file becomes a grid)"
    ]
    assert path.read_bytes() == before and lm.total_calls == 0


def test_each_source_of_a_printed_report_starts_its_own_line():
    report = (
        "## Answer\n\nThe answer.¹²\n\n**Sources**\n\n"
        "¹ MMM 10-K FY2022 p.48 (page_id: 1, uid: aaaaaaaaaaaa)\n"
        "² PEP 10-K FY2022 p.62 (page_id: 2, uid: bbbbbbbbbbbb)\n\n**Scope**\n\n- A note."
    )
    shown = io.StringIO()
    print_report(report, Console(file=shown, width=120, soft_wrap=True))
    lines = [line.strip() for line in shown.getvalue().splitlines()]
    assert "¹ MMM 10-K FY2022 p.48 (page_id: 1, uid: aaaaaaaaaaaa)" in lines
    assert "² PEP 10-K FY2022 p.62 (page_id: 2, uid: bbbbbbbbbbbb)" in lines
