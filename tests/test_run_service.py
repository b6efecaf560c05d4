"""The run service (``runs.service``) as a web app uses it: a run in a background thread, its
events followed live and replayed by index, its status, report and record read back."""

from __future__ import annotations

import json
import threading

import pytest
from run_scripted_ask import QUESTION, install_scripted_lm

from programs.events import ResearchEvent
from runs.errors import BadRunRequest, RunAlreadyComplete, UnknownRun
from runs.events import EventLog, event_dict
from runs.handles import active_run, start_run
from runs.run_dir import COMPLETED, FAILED, RunDir, list_runs
from runs.service import ResearchRequest, prepare_run


@pytest.fixture
def install_lm(monkeypatch):
    return lambda **kwargs: install_scripted_lm(monkeypatch, **kwargs)


def request(store, **changes) -> ResearchRequest:
    options = {"question": QUESTION, "store": store, "max_probes": 2, "track": False}
    return ResearchRequest.of(**{**options, **changes})


def test_a_background_run_streams_its_events_and_ends_completed(
    install_lm, wissen_home, sample_store_path
):
    lm = install_lm(delay=0.01)
    live: list[ResearchEvent] = []
    handle = start_run(request(sample_store_path))
    handle.events.subscribe(live.append)  # subscribed late: the replay fills in what it missed
    followed = [event for _, event in handle.events.follow(since=0, poll=0.05)]
    result = handle.wait(timeout=120)

    assert result is not None and handle.error is None and handle.done
    assert active_run(handle.run_id) is handle
    assert handle.status == COMPLETED
    kinds = [e.kind for e in followed]
    # Work is visible at once: the run starts and plans before any slice is researched.
    assert kinds[:3] == ["started", "planning", "plan"] and kinds[-1] == "report"
    assert live == followed == handle.events.events()
    assert handle.events.events(since=3) == followed[3:]  # replay from any index
    assert [event_dict(i, e)["index"] for i, e in enumerate(followed)] == list(range(len(followed)))

    run = RunDir.open(handle.run_id)
    assert run.report() == result.report and result.report.startswith("## Answer")
    assert run.record() == json.loads(result.record_json)
    assert result.usage["lm_calls"] == lm.total_calls > 0
    by_agent = result.usage["by_agent"]  # every call is one agent's, counted once
    assert {"planner", "researcher", "reviewer"} <= set(by_agent)
    assert sum(a["lm_calls"] for a in by_agent.values()) == lm.total_calls
    total = result.usage["prompt_tokens"] + result.usage["completion_tokens"]
    assert sum(a["prompt_tokens"] + a["completion_tokens"] for a in by_agent.values()) == total
    assert list_runs()[0]["run_id"] == handle.run_id
    assert list_runs()[0]["status"] == COMPLETED


def test_bad_requests_fail_before_any_run_or_lm_call(install_lm, wissen_home, sample_store_path):
    lm = install_lm()
    with pytest.raises(BadRunRequest, match="the question is empty"):
        start_run(request(sample_store_path, question=" \x1b[31m "))
    with pytest.raises(BadRunRequest, match="characters long"):
        prepare_run(request(sample_store_path, question="x" * 3000))
    with pytest.raises(UnknownRun, match="no run"):
        prepare_run(request(sample_store_path, question=None, resume="20990101-000000-abcdef"))
    assert lm.total_calls == 0 and not (wissen_home / "runs").exists()


def test_a_planner_refusal_marks_the_run_failed(install_lm, wissen_home, sample_store_path):
    install_lm()
    handle = start_run(request(sample_store_path, question="3M capex in FY2031"))
    assert handle.wait(timeout=60) is None
    assert isinstance(handle.error, BadRunRequest) and "FY2031" in str(handle.error)
    assert handle.status == FAILED and handle.events.closed


def test_resuming_a_completed_run_returns_its_report(install_lm, wissen_home, sample_store_path):
    install_lm()
    first = prepare_run(request(sample_store_path)).execute()
    lm = install_lm()
    with pytest.raises(RunAlreadyComplete) as done:
        start_run(ResearchRequest.of(resume=first.run_id, track=False))
    assert done.value.run.report() == first.report and lm.total_calls == 0


def test_event_log_replays_and_follows_across_threads():
    log = EventLog()
    events = [ResearchEvent("search", detail=str(i)) for i in range(50)]
    seen: list[ResearchEvent] = []
    followed: list[tuple[int, ResearchEvent]] = []

    def write() -> None:
        for i, event in enumerate(events):
            log(event)
            if i == 20:
                log.subscribe(seen.append, since=5)  # replays 5..20, then every later event
        log.close()

    reader = threading.Thread(target=lambda: followed.extend(log.follow(poll=0.01)))
    reader.start()
    write()
    reader.join(timeout=10)
    assert [e for _, e in followed] == events
    assert [i for i, _ in followed] == list(range(50))
    assert seen == events[5:]
    assert log.wait(50, timeout=0.01) == [] and log.closed


def test_a_failing_subscriber_does_not_starve_the_others():
    log = EventLog()
    got: list[ResearchEvent] = []

    def broken(event: ResearchEvent) -> None:
        raise RuntimeError("display gone")

    log.subscribe(broken)
    log.subscribe(got.append)
    log(ResearchEvent("plan"))
    assert [e.kind for e in got] == ["plan"]


def test_one_probe_of_one_slice_is_the_answer_with_no_lm_call_to_split_or_combine(
    install_lm, wissen_home, sample_store_path
):
    """Nothing to split into probes, to synthesise or to compose: the planner, researcher
    and reviewer are the only agents asked, and the report is the probe's cited answer."""
    lm = install_lm()
    question = "What did 3M say about its legal proceedings in FY2022?"
    result = prepare_run(request(sample_store_path, question=question, max_probes=1)).execute()
    assert set(result.usage["by_agent"]) == {"planner", "researcher", "reviewer"}
    assert lm.calls["probes"] == lm.calls["synthesiser"] == lm.calls["composer"] == 0
    (slice_,) = result.record["slices"]
    (probe,) = slice_["probes"]
    answer = probe["rounds"][-1]["verified_draft"].split("**Sources**")[0].strip()
    assert result.report.startswith("## Answer\n\n" + answer)  # the probe's answer, as it stands
    assert "Findings by slice" not in result.report and "uid:" in result.report
