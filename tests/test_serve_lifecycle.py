"""`research serve` over its life: tracked runs one after another on one server process,
stopping the server with a run in flight, and restarting on the same port.

One server process runs every Ask on a thread of its own. MLflow's DSPy autolog configures
DSPy, which only the thread that configured it first may do again, so turning autolog on
from each run's thread failed ("dspy.settings can only be changed by the thread that
initially configured it"): the server now turns it on once, in its main thread. Stopping
the server used to leave a run in flight ``RUNNING`` in MLflow with its trace
``IN_PROGRESS`` forever; it is now ended as Ctrl-C ends `research ask`'s run: KILLED.
"""

from __future__ import annotations

import errno
import json
import logging
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from scripted_lm import ScriptedLM
from web_helpers import client, run_errors

import lm.language_models as language_models
from cli.serve_command import port_problem
from web.run_control import RunControl
from web.settings import WebSettings

QUESTION = "How did 3M's capital expenditure compare with PepsiCo's in FY2022, and what drove it?"
JSON = {"accept": "application/json"}
SETTINGS_ERROR = "can only be changed by the thread"


def install_lm(monkeypatch: pytest.MonkeyPatch, **behaviour: Any) -> ScriptedLM:
    """Point the runs this process starts next at a new scripted LM."""
    lm = ScriptedLM(**behaviour)
    monkeypatch.setattr(language_models, "build_lm", lambda *args, **kwargs: lm)
    monkeypatch.setattr(language_models, "check_lm_reachable", lambda *args, **kwargs: None)
    return lm


def read_stream(web: Any, run_id: str) -> list[tuple[str, dict[str, Any]]]:
    """(event, data) of every server-sent event of the run's trace, until it ends."""
    events, current = [], {}
    with web.stream("GET", f"/runs/{run_id}/events") as response:
        assert response.status_code == 200
        for line in response.iter_lines():
            if not line:
                if "event" in current:
                    events.append((current["event"], json.loads(current["data"])))
                current = {}
                continue
            field, _, value = line.partition(": ")
            current[field] = value
    return events


class Collected(logging.Handler):
    """Every log record of the loggers it is attached to, as text."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.name}: {record.getMessage()}")


@pytest.fixture
def logs():
    """What MLflow, DSPy and the project log meanwhile (MLflow's and DSPy's loggers do not
    reach the root logger, so pytest's caplog alone would miss them)."""
    handler = Collected()
    loggers = [logging.getLogger(name) for name in ("", "mlflow", "dspy", "runs", "web")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    yield handler
    for logger, level in zip(loggers, levels, strict=True):
        logger.removeHandler(handler)
        logger.setLevel(level)


def mlflow_runs(wissen_home: Path) -> dict[str, list[str]]:
    """Run name (the research run's id) -> the statuses of its MLflow runs, oldest first."""
    import mlflow

    found: dict[str, list[str]] = {}
    tracking = mlflow.MlflowClient(f"sqlite:///{wissen_home / 'mlflow.db'}")
    experiment = tracking.get_experiment_by_name("wissen-ask")
    if experiment is None:
        return found
    runs = tracking.search_runs([experiment.experiment_id], order_by=["attributes.start_time"])
    for run in runs:
        found.setdefault(run.info.run_name, []).append(run.info.status)
    return found


def trace_states(wissen_home: Path) -> list[str]:
    """The state of every trace stored in the ``wissen-ask`` experiment."""
    import mlflow

    mlflow.flush_trace_async_logging()
    tracking = mlflow.MlflowClient(f"sqlite:///{wissen_home / 'mlflow.db'}")
    experiment = tracking.get_experiment_by_name("wissen-ask")
    traces = tracking.search_traces(locations=[experiment.experiment_id], max_results=500)
    return [str(trace.info.state).rsplit(".", 1)[-1] for trace in traces]


def meta_of(wissen_home: Path, run_id: str) -> dict[str, Any]:
    return json.loads((wissen_home / "runs" / run_id / "meta.json").read_text())


def test_three_asks_and_a_resume_run_tracked_on_one_server(
    monkeypatch, wissen_home, sample_store_path, logs, capfd
):
    import mlflow

    # This process's main thread has configured DSPy, as `research ask` and `eval` do in
    # theirs: turning autolog on again from a run's own thread then raised.
    mlflow.dspy.autolog(log_traces=True, silent=True)

    def down(agent: str, inputs: dict[str, str]) -> bool:
        return agent.startswith("researcher") and inputs.get("slice_label") == "PEP FY2022 Q4"

    streamed: list[tuple[str, dict[str, Any]]] = []
    ids: list[str] = []
    with client(WebSettings(store=sample_store_path)) as web:  # tracked, one run at a time
        for n in range(3):
            install_lm(monkeypatch, garbage=down if n == 2 else None)
            started = web.post("/ask", json={"question": QUESTION, "max_probes": "2"}, headers=JSON)
            assert started.status_code == 202, started.text
            ids.append(started.json()["run_id"])
            streamed += (events := read_stream(web, ids[-1]))
            expected = "incomplete" if n == 2 else "completed"
            assert events[-1] == ("end", {"status": expected}), (events[-6:], logs.lines[-20:])
        healthy = install_lm(monkeypatch)
        resumed = web.post(f"/runs/{ids[2]}/resume", headers=JSON)
        assert resumed.status_code == 202 and resumed.json()["run_id"] == ids[2]
        streamed += (events := read_stream(web, ids[2]))
        assert events[-1] == ("end", {"status": "completed"}), events[-6:]
        assert healthy.calls["probes"] == 0  # the checkpoint was loaded, not redone
        rows = [web.get(f"/api/runs/{run_id}").json() for run_id in ids]
    assert [row["status"] for row in rows] == ["completed"] * 3

    assert mlflow_runs(wissen_home) == {
        ids[0]: ["FINISHED"],
        ids[1]: ["FINISHED"],
        ids[2]: ["FINISHED", "FINISHED"],  # the incomplete run, then its resume
    }
    states = trace_states(wissen_home)
    assert len(states) == 4 and set(states) == {"OK"}, states
    out, err = capfd.readouterr()
    said = [
        *(json.dumps(data) for _, data in streamed),
        *logs.lines,
        out,
        err,
        *run_errors(wissen_home),
        *(str(meta_of(wissen_home, run_id).get("error")) for run_id in ids),
    ]
    assert not [line for line in said if SETTINGS_ERROR in line]


@pytest.mark.parametrize(
    "grace", [0.0, 60.0], ids=["recorded-while-in-an-lm-call", "stopped-at-its-next-event"]
)
def test_stopping_the_server_with_a_run_in_flight_kills_its_mlflow_run(
    monkeypatch, wissen_home, sample_store_path, grace
):
    """With no grace the run is recorded stopped while its threads are inside LM calls (the
    process would exit under them); with grace it stops by itself at its next event.
    Either way MLflow reads KILLED with no trace left IN_PROGRESS, the run directory reads
    interrupted, and a later server resumes it."""
    from runs.handles import active_run

    composing, release = threading.Event(), threading.Event()

    def hold(agent: str, inputs: dict[str, str]) -> bool:  # the report waits for `release`
        if agent == "composer":  # the last LM call: the trace's other spans are stored
            composing.set()
            release.wait(120)
        return False

    install_lm(monkeypatch, garbage=hold)
    control = RunControl(sample_store_path, stop_grace=grace)
    try:
        with client(WebSettings(store=sample_store_path), runs=control) as web:
            started = web.post("/ask", json={"question": QUESTION, "max_probes": "2"}, headers=JSON)
            assert started.status_code == 202, started.text
            run_id = started.json()["run_id"]
            assert composing.wait(120), control.read_events(run_id, -1)
            if grace:  # the report's LM call returns a moment after the server starts stopping
                threading.Timer(0.5, release.set).start()
        # The server has stopped: the run is recorded as stopped, whatever its thread does.
        assert mlflow_runs(wissen_home) == {run_id: ["KILLED"]}
        states = trace_states(wissen_home)
        assert states and "IN_PROGRESS" not in states, states
        assert meta_of(wissen_home, run_id)["status"] == "interrupted"
        handle = active_run(run_id)
        assert handle is not None
        if not grace:
            assert handle.alive  # still inside its LM calls: recorded without waiting
    finally:
        release.set()
    handle.wait(120)
    assert not handle.alive
    assert mlflow_runs(wissen_home) == {run_id: ["KILLED"]}  # its own ending agrees
    assert "IN_PROGRESS" not in trace_states(wissen_home)
    assert meta_of(wissen_home, run_id)["status"] == "interrupted"

    install_lm(monkeypatch)
    with client(WebSettings(store=sample_store_path)) as web:
        resumed = web.post(f"/runs/{run_id}/resume", headers=JSON)
        assert resumed.status_code == 202, resumed.text
        assert read_stream(web, run_id)[-1] == ("end", {"status": "completed"})
    assert mlflow_runs(wissen_home) == {run_id: ["KILLED", "FINISHED"]}


def test_ctrl_c_does_not_wait_for_a_run_a_browser_follows(
    monkeypatch, wissen_home, sample_store_path
):
    """uvicorn waits for open responses before the app's own shutdown, and a run's live
    trace lasts as long as the run: `research serve`'s server stops the runs first, so the
    trace ends (``interrupted``) and the server stops at once."""
    import httpx
    import uvicorn

    from cli.serve_command import run_stopping_server
    from runs.handles import active_run
    from web.app import create_app

    composing, release = threading.Event(), threading.Event()

    def hold(agent: str, inputs: dict[str, str]) -> bool:
        if agent == "composer":
            composing.set()
            release.wait(120)
        return False

    install_lm(monkeypatch, garbage=hold)
    control = RunControl(sample_store_path, stop_grace=0.5)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    app = create_app(WebSettings(store=sample_store_path, port=port), runs=control)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = run_stopping_server()(config, control)
    serving = threading.Thread(target=server.run, daemon=True)
    serving.start()
    url = f"http://127.0.0.1:{port}"
    trace: list[str] = []

    def follow(run_id: str) -> None:  # a browser tab on the run's page
        with httpx.stream("GET", f"{url}/runs/{run_id}/events", timeout=None) as response:
            trace.extend(response.iter_lines())

    try:
        deadline = time.monotonic() + 60
        while not server.started:
            assert time.monotonic() < deadline and serving.is_alive(), "the server did not start"
            time.sleep(0.05)
        asked = {"question": QUESTION, "max_probes": "2"}
        run_id = httpx.post(f"{url}/ask", json=asked, headers=JSON).json()["run_id"]
        follower = threading.Thread(target=follow, args=(run_id,), daemon=True)
        follower.start()
        assert composing.wait(120), "the run never reached its report"
        stopping = time.monotonic()
        server.should_exit = True  # what Ctrl-C sets
        serving.join(30)
        assert not serving.is_alive(), "the server waited for the run"
        assert time.monotonic() - stopping < 15
        follower.join(10)
        said = [line for line in trace if line]
        assert said[-2:] == ["event: end", 'data: {"status": "interrupted"}'], said[-4:]
        assert server.stopped == [run_id]
        assert mlflow_runs(wissen_home) == {run_id: ["KILLED"]}
    finally:
        release.set()
        server.should_exit = True
        serving.join(30)
    handle = active_run(run_id)
    assert handle is not None
    handle.wait(120)
    assert mlflow_runs(wissen_home) == {run_id: ["KILLED"]}
    assert "IN_PROGRESS" not in trace_states(wissen_home)


def test_asks_after_the_server_started_stopping_are_refused(wissen_home, sample_store_path):
    control = RunControl(sample_store_path, track=False)
    with client(WebSettings(store=sample_store_path, track=False), runs=control) as web:
        assert control.close() == []  # nothing was going
        refused = web.post("/ask", json={"question": QUESTION}, headers=JSON)
        assert refused.status_code == 503 and "stopping" in refused.json()["error"]


def time_wait_port() -> int:
    """A loopback port left with a connection in TIME_WAIT, as a stopped server leaves it:
    the side that closes first (the server here) keeps the TIME_WAIT."""
    with socket.socket() as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        peer = socket.create_connection(("127.0.0.1", port))
        accepted, _ = listener.accept()
        accepted.close()  # the server closes first: its end goes to TIME_WAIT
        peer.recv(1)  # the client sees the close
        peer.close()
    return port


def test_a_port_left_in_time_wait_can_be_served_again_at_once():
    port = time_wait_port()
    with socket.socket() as plain:  # what the old check did: bind without SO_REUSEADDR
        with pytest.raises(OSError) as refused:
            plain.bind(("127.0.0.1", port))
        assert refused.value.errno == errno.EADDRINUSE
    assert port_problem("127.0.0.1", port) is None


def test_a_port_another_process_listens_on_is_refused_in_one_line():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        assert port_problem("127.0.0.1", port) == (
            f"port {port} is in use by another process; choose --port N"
        )


def test_research_serve_says_so_when_the_port_is_taken(monkeypatch, wissen_home):
    from typer.testing import CliRunner

    from cli.app import app as cli

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--port", str(port), "--no-track"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert lines == [f"error: port {port} is in use by another process; choose --port N"]


def test_an_address_of_another_machine_is_refused_in_one_line():
    problem = port_problem("192.0.2.1", 8000)  # TEST-NET-1: never an address of this machine
    assert problem == "cannot listen on 192.0.2.1:8000: 192.0.2.1 is not an address of this machine"
