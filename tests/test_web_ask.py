"""Asking in the browser: runs start in the background, stream their trace over SSE (with
replay from Last-Event-ID), stay bounded in number, end with a report, and resume."""

from __future__ import annotations

import json
import time

import pytest
from scripted_lm import ScriptedLM
from web_helpers import client, run_errors

from web.settings import WebSettings

QUESTION = "How did 3M's capital expenditure compare with PepsiCo's in FY2022, and what drove it?"
JSON = {"accept": "application/json"}


@pytest.fixture
def web(wissen_home, sample_store_path):
    with client(WebSettings(store=sample_store_path, track=False, max_runs=1)) as c:
        yield c


def read_stream(web, run_id: str, last_id: int | None = None) -> list[tuple[str, str, dict]]:
    """(id, event, data) of every event the stream sends until it ends."""
    headers = {"last-event-id": str(last_id)} if last_id is not None else {}
    events, current = [], {}
    with web.stream("GET", f"/runs/{run_id}/events", headers=headers) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            if not line:
                if "event" in current:
                    events.append(
                        (current.get("id"), current["event"], json.loads(current["data"]))
                    )
                current = {}
                continue
            field, _, value = line.partition(": ")
            current[field] = value
    return events


def ask(web, question: str = QUESTION, **fields):
    return web.post("/ask", json={"question": question, "max_probes": "2", **fields}, headers=JSON)


def wait_done(web, run_id: str, timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    while (row := web.get(f"/api/runs/{run_id}").json())["status"] == "running":
        assert time.monotonic() < deadline, "the run did not finish"
        time.sleep(0.2)
    return row


def test_a_run_streams_its_trace_and_a_reconnect_replays_what_was_missed(
    install_lm, web, wissen_home
):
    install_lm(insufficient=lambda s, p: s == "PEP FY2022 Q4" and p.startswith("Drivers"))
    started = ask(web)
    assert started.status_code == 202, started.text
    run_id = started.json()["run_id"]
    events = read_stream(web, run_id)
    trace = [e for e in events if e[1] == "trace"]
    assert [int(i) for i, _, _ in trace] == list(range(len(trace)))  # ids 0, 1, 2, …
    kinds = [data["kind"] for _, _, data in trace]
    for kind in ("plan", "slice_start", "probes", "search", "draft", "verdict", "report"):
        assert kind in kinds
    assert all(data["elapsed"] >= 0 for _, _, data in trace)
    assert events[-1][1] == "end"
    assert events[-1][2]["status"] == "completed", run_errors(wissen_home)

    replay = read_stream(web, run_id, last_id=9)  # a tab that had events 0-9
    assert [e for e in replay if e[1] == "trace"] == trace[10:]
    assert replay[-1] == events[-1]

    row = wait_done(web, run_id)
    assert row["status"] == "completed" and "**Sources**" in row["report"]
    page = web.get(f"/runs/{run_id}").text
    assert 'class="cite"' in page and f'data-events="/runs/{run_id}/events"' in page


def test_the_form_posts_and_lands_on_the_run_page(install_lm, web):
    install_lm()
    form = {"question": QUESTION, "max_probes": "1", "max_rounds": "1", "lm": "", "program": ""}
    response = web.post("/ask", data=form, headers={"accept": "text/html"}, follow_redirects=False)
    assert response.status_code == 303
    run_id = response.headers["location"].removeprefix("/runs/")
    assert read_stream(web, run_id)[-1][2]["status"] == "completed"
    assert web.get("/", headers={"accept": "text/html"}).status_code == 200


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"question": "   "}, "the question is empty"),
        ({"question": QUESTION + " x" * 1500}, "the limit is 2,000"),
        ({"question": QUESTION, "max_probes": "9"}, "probes must be a whole number from 1 to 5"),
        ({"question": QUESTION, "program": "../../etc"}, "no compiled program"),
        ({"question": QUESTION, "lm": "local//etc/passwd"}, "the only local model"),
        ({"question": QUESTION, "lm": "openai/gpt-4.1-mini"}, "OPENAI_API_KEY"),
    ],
)
def test_bad_asks_get_the_cli_messages_and_start_nothing(
    install_lm, web, monkeypatch, wissen_home, fields, message
):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    lm = ScriptedLM() if "lm" in fields else install_lm()  # a model given: the real checks
    response = web.post("/ask", json={"max_probes": "2", **fields}, headers=JSON)
    assert response.status_code == 400 and message in response.json()["error"], response.text
    assert lm.total_calls == 0
    html = web.post("/ask", data=fields, headers={"accept": "text/html"})
    assert html.status_code == 400 and "ask-error" in html.text


def test_a_question_the_planner_refuses_ends_the_run_failed_with_its_message(install_lm, web):
    install_lm()
    run_id = ask(web, "What was Zorblax Corp's revenue in FY2022?").json()["run_id"]
    assert read_stream(web, run_id)[-1][2]["status"] == "failed"
    row = wait_done(web, run_id)
    assert row["status"] == "failed" and "No company in the question" in row["error"]
    assert "No company in the question" in web.get(f"/runs/{run_id}").text


def test_runs_beyond_the_limit_are_refused_and_closing_the_stream_leaves_a_run_going(
    install_lm, web
):
    install_lm(delay=0.05)
    first = ask(web).json()["run_id"]
    with web.stream("GET", f"/runs/{first}/events") as response:  # a tab that opens, then closes
        next(response.iter_lines())
    second = ask(web)
    assert second.status_code == 429 and "runs 1 at a time and 1 is going" in second.json()["error"]
    assert wait_done(web, first)["status"] == "completed"  # the run went on without a reader
    assert ask(web).status_code == 202  # the slot is free again


def test_an_incomplete_run_resumes_from_the_browser(install_lm, web):
    def down(agent: str, inputs: dict[str, str]) -> bool:
        return agent.startswith("researcher") and inputs.get("slice_label") == "PEP FY2022 Q4"

    install_lm(garbage=down)
    run_id = ask(web).json()["run_id"]
    row = wait_done(web, run_id)
    assert row["status"] == "incomplete" and row["resumable"]
    assert "Resume" in web.get("/runs").text
    healthy = install_lm()
    resumed = web.post(f"/runs/{run_id}/resume", headers=JSON)
    assert resumed.status_code == 202 and resumed.json()["run_id"] == run_id
    assert wait_done(web, run_id)["status"] == "completed"
    assert healthy.calls["probes"] == 0  # the checkpointed plan and probes were not redone
    again = web.post(f"/runs/{run_id}/resume", headers=JSON)  # complete: nothing to do
    assert again.status_code == 202 and healthy.calls["probes"] == 0
    assert web.post("/runs/20990101-000000-abcdef/resume", headers=JSON).status_code == 404
    assert web.get("/runs/20990101-000000-abcdef/events").status_code == 404


def test_the_web_sources_box_turns_them_on_for_one_run_and_unchecked_leaves_the_servers(
    monkeypatch, wissen_home
):
    from runs.settings import load_settings
    from web.ask_form import parse_form
    from web.run_control import RunControl

    checked = parse_form({"question": QUESTION, "web_sources": "on"}, "local/x")
    unchecked = parse_form({"question": QUESTION}, "local/x")
    assert checked.web_sources is True and unchecked.web_sources is None
    requests = []
    control = RunControl.__new__(RunControl)
    control._start = lambda **request: requests.append(request) or "run"
    control.start(checked)
    control.start(unchecked)
    assert [r["web_sources"] for r in requests] == [True, None]
    assert load_settings(web_sources=True).web_sources is True
    assert load_settings(web_sources=None).web_sources is False  # the default: off
    monkeypatch.setenv("WISSEN_WEB_SOURCES", "1")
    assert load_settings(web_sources=None).web_sources is True  # the server's setting


def test_resuming_a_run_whose_thread_is_still_closing_takes_no_slot(monkeypatch, tmp_path):
    """A run's record says complete a moment before its thread ends; with one slot, a
    resume asked in that moment was refused as one run too many (429), not "nothing to do"."""
    from types import SimpleNamespace

    import runs.handles
    from runs.errors import RunAlreadyComplete
    from web.run_control import RunControl, TooManyRuns

    class Closing:
        done = False

    def start_run(request):
        raise RunAlreadyComplete(run=SimpleNamespace(run_id=request.resume))

    monkeypatch.setattr(runs.handles, "start_run", start_run)
    control = RunControl(tmp_path / "grid.sqlite", max_runs=1, concurrency=1, track=False)
    control._handles["20261207-000000-abcdef"] = Closing()
    assert control.resume("20261207-000000-abcdef") == "20261207-000000-abcdef"
    with pytest.raises(TooManyRuns):  # another run's resume still waits for the slot
        control.resume("20261207-000001-abcdef")
