"""LM faults: retries, Retry-After, fallbacks, bounds, and `research ask` under injected faults.

Everything goes over real HTTP to the fake OpenAI-compatible server (`fake_openai`), through
LiteLLM's hosted_vllm route as `--api-base` users go, with short timeouts and backoffs so
the file stays fast.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import dspy
import pytest
from dspy.clients.cache import Cache
from dspy.utils.exceptions import (
    ContextWindowExceededError,
    LMAuthError,
    LMProviderError,
    LMRateLimitError,
    LMServerError,
    LMTimeoutError,
    LMTransportError,
)
from fake_openai import FakeOpenAI, fake_openai_fixture  # noqa: F401 - registers it
from typer.testing import CliRunner

from cli.app import app
from lm.faults import (
    CallBudgetExceeded,
    LMUnavailable,
    RunDeadlineExceeded,
    UnusableOutput,
    fault_kind,
)
from lm.policies import FaultStats, RetryPolicy, RunGuard
from lm.resilient_lm import ResilientLM, RunResilience

runner = CliRunner()
QUESTION = "How did 3M's capital expenditure compare with PepsiCo's in FY2022, and what drove it?"
FAST = RetryPolicy(retries=2, backoff=0.01)


@pytest.fixture(autouse=True)
def memory_cache(monkeypatch) -> Cache:
    """A fresh in-memory DSPy cache per test: faults must reach the server, not the disk."""
    cache = Cache(enable_disk_cache=False, enable_memory_cache=True, disk_cache_dir=None)
    monkeypatch.setattr(dspy, "cache", cache)
    return cache


@pytest.fixture
def second_server() -> Iterator[FakeOpenAI]:
    fake = FakeOpenAI().start()
    try:
        yield fake
    finally:
        fake.stop()


def served_lm(fake: FakeOpenAI, timeout: float = 1.0) -> dspy.LM:
    """The LM `build_lm` makes for `--api-base fake.url` (LiteLLM, hosted_vllm route)."""
    return dspy.LM(
        f"hosted_vllm/{fake.model}",
        api_base=fake.url,
        engine="litellm",
        timeout=timeout,
        temperature=0.0,
    )


def ask(lm: Any, question: str = "What was 3M's capex?") -> str:
    """One agent-shaped call (ChatAdapter, as with any served model)."""
    with dspy.context(lm=lm, adapter=dspy.ChatAdapter()):
        return dspy.Predict("question -> answer_markdown")(question=question).answer_markdown


# ── the resilient LM ───────────────────────────────────────────────────────────────────────


def test_server_errors_are_retried_and_the_answer_is_in_history(fake_openai):
    lm = ResilientLM(served_lm(fake_openai), policy=FAST)
    fake_openai.queue("http_500", "http_500")
    assert ask(lm)
    assert fake_openai.requests == 3
    snap = lm.stats.snapshot()
    assert snap["retries"] == 2 and snap["faults"] == {"server_error": 2}
    assert snap["succeeded"] == 1 and len(lm.history) == 1


def test_retry_after_is_honoured_and_capped(fake_openai):
    lm = ResilientLM(served_lm(fake_openai), policy=RetryPolicy(retries=2, backoff=0.001))
    fake_openai.fault(0.0, retry_after=0.3)
    fake_openai.queue("rate_limit")
    started = time.monotonic()
    ask(lm)
    assert time.monotonic() - started >= 0.3
    assert lm.stats.backoff_s == pytest.approx(0.3)

    capped = ResilientLM(
        served_lm(fake_openai), policy=RetryPolicy(retries=2, retry_after_cap=0.05)
    )
    fake_openai.fault(0.0, retry_after=30)
    fake_openai.queue("rate_limit")
    ask(capped, "What was PepsiCo's capex?")
    assert capped.stats.backoff_s == pytest.approx(0.05)


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (LMServerError("boom", status=503), "server_error"),
        (LMRateLimitError("slow", status=429), "rate_limit"),
        (LMTimeoutError("late", status=408), "timeout"),
        (LMTransportError("refused"), "connection"),
        (LMProviderError("not JSON", status=200), "bad_response"),
        (LMAuthError("bad key", status=401), None),
        (LMProviderError("gone", status=404), None),
        (ContextWindowExceededError(model="m"), None),  # ReAct's to handle, never retried
        (ValueError("a bug"), None),
    ],
)
def test_only_faults_a_retry_can_cure_are_retried(error, kind):
    assert fault_kind(error) == kind


def test_backoff_grows_exponentially_with_jitter():
    policy = RetryPolicy(backoff=0.1, max_backoff=0.3)
    for failures, ceiling in [(1, 0.1), (2, 0.2), (3, 0.3), (6, 0.3)]:
        waits = [policy.delay(failures, None) for _ in range(50)]
        assert all(ceiling / 2 <= w <= ceiling for w in waits)
        assert len(set(waits)) > 1


def test_a_hung_request_times_out_and_is_retried(fake_openai):
    lm = ResilientLM(served_lm(fake_openai, timeout=0.5), policy=FAST)
    fake_openai.queue("hang")
    started = time.monotonic()
    assert ask(lm)
    assert 0.5 <= time.monotonic() - started < 3
    assert lm.stats.snapshot()["faults"] == {"timeout": 1}


def test_async_calls_follow_the_same_policy(fake_openai):
    lm = ResilientLM(served_lm(fake_openai), policy=FAST)
    fake_openai.queue("http_500", "empty")

    async def predict() -> str:
        with dspy.context(lm=lm, adapter=dspy.ChatAdapter()):
            out = await dspy.Predict("question -> answer_markdown").acall(question="Capex?")
        return out.answer_markdown

    assert asyncio.run(predict())
    assert fake_openai.requests == 3 and fake_openai.errors == [] and len(lm.history) == 1
    assert lm.stats.snapshot()["faults"] == {"empty": 1, "server_error": 1}


def test_the_fallback_answers_when_the_primary_keeps_failing(fake_openai, second_server):
    fake_openai.fault(1.0, ("http_500",))
    lm = ResilientLM(served_lm(fake_openai), [served_lm(second_server)], policy=FAST)
    assert ask(lm)
    snap = lm.stats.snapshot()
    assert snap["fallbacks"] == 1 and snap["served_by"] == {f"hosted_vllm/{second_server.model}": 1}
    assert fake_openai.requests == 3 and second_server.requests == 1
    assert [h["model"] for h in lm.history] == [f"hosted_vllm/{second_server.model}"]


def test_when_every_model_fails_the_message_says_what_each_answered(fake_openai, second_server):
    fake_openai.fault(1.0, ("http_500",))
    second_server.fault(1.0, ("invalid_json",))
    lm = ResilientLM(
        served_lm(fake_openai),
        [served_lm(second_server)],
        policy=RetryPolicy(retries=1, backoff=0.01),
    )
    with pytest.raises(LMUnavailable) as caught:
        ask(lm)
    assert str(caught.value) == (
        f"LM unavailable after 1 retry: HTTP 500 (hosted_vllm/{fake_openai.model}); "
        f"fallback hosted_vllm/{second_server.model}: unreadable response (HTTP 200) "
        "after 1 retry"
    )
    assert lm.stats.all_failed and lm.history == []


def test_truncated_output_is_retried_once_without_the_cache(fake_openai):
    lm = ResilientLM(served_lm(fake_openai), policy=FAST)
    fake_openai.queue("truncated")
    first = ask(lm)
    assert fake_openai.requests == 2 and lm.stats.snapshot()["faults"] == {"truncated": 1}
    # The good answer replaced the cut one in the cache: asking again costs nothing.
    assert ask(lm) == first and fake_openai.requests == 2
    assert lm.stats.snapshot()["cache_hits"] == 1


def test_unusable_output_twice_propagates_without_a_json_retry(fake_openai):
    lm = ResilientLM(served_lm(fake_openai), policy=FAST)
    fake_openai.queue("truncated", "empty")
    with pytest.raises(UnusableOutput, match=r"empty output .* also after 1 retry"):
        ask(lm)
    assert fake_openai.requests == 2  # ChatAdapter's JSON fallback did not stack a third


def test_an_output_cut_again_is_kept_and_read_as_far_as_it_goes(fake_openai):
    whole = ask(ResilientLM(served_lm(fake_openai), policy=FAST))
    lm = ResilientLM(served_lm(fake_openai), policy=FAST)
    fake_openai.queue("truncated", "truncated")
    cut = ask(lm, "What was 3M's capex in FY2022?")  # not the cached question
    assert fake_openai.requests == 3  # the whole answer, then one cut and its one retry
    assert cut and len(cut) < len(whole) and whole.startswith(cut.rstrip())
    snap = lm.stats.snapshot()
    assert snap["faults"] == {"truncated": 2} and snap["cut_kept"] == 1
    assert snap["failed"] == 0 and snap["succeeded"] == 1


def test_a_deterministic_model_is_not_asked_again_for_a_cut_output(fake_openai):
    lm = RunResilience(policy=FAST).wrap(served_lm(fake_openai), deterministic=True)
    fake_openai.queue("truncated")
    assert ask(lm) and fake_openai.requests == 1
    assert lm.stats.snapshot()["cut_kept"] == 1


def test_the_call_budget_is_run_wide_and_exact_across_threads(fake_openai, second_server):
    guard, stats = RunGuard(max_calls=10), FaultStats()
    lms = [
        ResilientLM(served_lm(fake), guard=guard, stats=stats)
        for fake in (fake_openai, second_server)
    ]
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            ask(lms[n % 2], f"What was 3M's revenue in {2000 + n}?")
        except CallBudgetExceeded as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert fake_openai.requests + second_server.requests == 10 == guard.used
    assert len(errors) == 6 and "budget of 10 calls used up" in str(errors[0])
    assert stats.snapshot()["succeeded"] == 10


def test_past_the_deadline_calls_fail_at_once_without_a_request(fake_openai):
    guard = RunGuard(timeout=0.05)
    lm = ResilientLM(served_lm(fake_openai), guard=guard)
    time.sleep(0.1)
    with pytest.raises(RunDeadlineExceeded, match=r"deadline of 0\.05 s passed"):
        ask(lm)
    assert fake_openai.requests == 0


def test_the_request_timeout_is_cut_to_the_deadline(fake_openai):
    served = served_lm(fake_openai, timeout=30)
    ask(served, "Warm up")  # LiteLLM's first import takes seconds: not on the guard's clock
    lm = ResilientLM(served, guard=RunGuard(timeout=0.8))
    fake_openai.queue("hang")
    started = time.monotonic()
    with pytest.raises(RunDeadlineExceeded, match="last fault: timed out"):
        ask(lm)
    # Far below the request's own 30 s timeout, with room for a loaded machine.
    assert time.monotonic() - started < 10


def test_copies_keep_the_policy_and_dspy_sees_the_wrapped_model(fake_openai, second_server):
    primary = served_lm(fake_openai)
    lm = ResilientLM(primary, [served_lm(second_server)], policy=FAST)
    assert lm.dump_state() == primary.dump_state()
    copied = lm.copy(temperature=0.7)
    assert copied.kwargs["temperature"] == 0.7 == copied.fallbacks[0].kwargs["temperature"]
    assert copied.guard is lm.guard and copied.stats is lm.stats
    predictor = dspy.Predict("question -> answer_markdown")
    predictor.lm = copied
    with dspy.context(adapter=dspy.ChatAdapter()):
        predictor(question="What was 3M's capex?")
    assert len(copied.history) == 1 and lm.history == []


# ── research ask under faults ──────────────────────────────────────────────────────────────


def run_ask(fake: FakeOpenAI, tmp_path, store, *options: str) -> tuple[Any, dict, str]:
    out, record = tmp_path / "report.md", tmp_path / "run.json"
    args = ["ask", QUESTION, "--api-base", fake.url, "--store", str(store)]
    args += ["--max-probes", "2", "--no-figures", "--no-track", "--quiet", "--out", str(out)]
    args += ["--json", str(record), "--lm-timeout", "1", "--backoff", "0.01", *options]
    result = runner.invoke(app, args)
    assert "Traceback" not in result.output, result.output
    assert fake.errors == []
    data = json.loads(record.read_text()) if record.exists() else {}
    return result, data, out.read_text() if out.exists() else ""


LM_ERRORS = ("LMUnavailable", "UnusableOutput", "CallBudgetExceeded", "RunDeadlineExceeded")


def failed_probes(record: dict) -> list[tuple[str, dict]]:
    """(slice, probe) for each probe an LM failure closed (the researcher's or reviewer's)."""
    return [
        (s["slice"], p)
        for s in record["slices"]
        for p in s["probes"]
        if any(name in p["reason"] for name in LM_ERRORS)
    ]


def assert_flagged(report: str, failed: list[tuple[str, dict]]) -> None:
    """Each failed probe's slice is flagged: a † note, or (nothing cited) a Scope line."""
    for label, probe in failed:
        assert probe["status"] == "insufficient_evidence" and probe["reason"]
        noted = f"† Evidence incomplete for {label}" in report
        assert noted or f"- {label}: evidence incomplete" in report


def doomed(model: str, user: str) -> str | None:
    """Every researcher request of PEP's "Drivers and risks" probe fails: one sure loss."""
    slice_, probe = "## slice_label ## ]]\nPEP FY2022 Q4", "## probe_title ## ]]\nDrivers and risks"
    return "http_500" if slice_ in user and probe in user else None


def test_a_30_percent_faulted_run_completes_with_daggers_and_reasons(
    fake_openai, wissen_home, sample_store_path, tmp_path
):
    # Seed 27 draws all six kinds (with the prompts of this writing; nothing relies on it).
    fake_openai.fault(0.3, seed=27, retry_after=0.05, hang_s=5, rule=doomed)
    result, record, report = run_ask(fake_openai, tmp_path, sample_store_path, "--retries", "1")
    assert result.exit_code == 0, result.output
    faults = record["lm_faults"]
    assert fake_openai.total_faults > 0 and faults["retries"] > 0
    assert sum(faults["faults"].values()) == fake_openai.total_faults
    assert faults["requests"] == fake_openai.requests
    failed = failed_probes(record)
    assert ("PEP FY2022 Q4", "Drivers and risks") in [
        (s, p["title"].split(":")[0]) for s, p in failed
    ]
    for _, probe in failed:
        errors = [r["error"] for r in probe["rounds"] if "error" in r]
        assert any("LM unavailable" in e or "LM output unusable" in e for e in errors)
    assert_flagged(report, failed)
    print(
        f"\n30% run: {fake_openai.requests} requests, faults {dict(fake_openai.faults)}, "
        f"retries {faults['retries']}, failed calls {faults['failed']}, "
        f"daggered probes {len(failed)}, exit {result.exit_code}"
    )


def test_the_fallback_model_carries_the_run_when_the_primary_is_down(
    fake_openai, wissen_home, sample_store_path, tmp_path
):
    fake_openai.fault(0.0, rule=lambda model, user: "http_500" if model == "big" else None)
    options = ["--lm", "big", "--fallback-lm", "small", "--retries", "1"]
    result, record, report = run_ask(fake_openai, tmp_path, sample_store_path, *options)
    assert result.exit_code == 0, result.output
    faults = record["lm_faults"]
    assert faults["fallback_models"] == ["hosted_vllm/small"] and faults["failed"] == 0
    assert faults["served_by"] == {"hosted_vllm/small": faults["succeeded"]}
    assert faults["fallbacks"] == faults["succeeded"] == record["usage"]["lm_calls"]
    assert "Sources" in report


def test_a_fully_faulted_run_says_so_and_exits_1(
    fake_openai, wissen_home, sample_store_path, tmp_path
):
    fake_openai.fault(1.0, ("http_500",))
    result, record, report = run_ask(fake_openai, tmp_path, sample_store_path, "--retries", "1")
    assert result.exit_code == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("error: no language model call succeeded (")
    assert "HTTP 500" in last
    assert record["lm_faults"]["succeeded"] == 0  # the record and report are still written
    assert_flagged(report, failed_probes(record))


def test_a_plan_that_needed_the_model_names_the_model_failure(
    fake_openai, wissen_home, sample_store_path, tmp_path
):
    fake_openai.fault(1.0, ("http_500",))
    args = ["ask", "How much did the maker of Post-it notes spend on capex in FY2022?"]
    args += ["--api-base", fake_openai.url, "--store", str(sample_store_path), "--no-track"]
    result = runner.invoke(app, [*args, "--retries", "0", "--quiet"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "No company in the question is in the grid" in result.stderr
    assert "no language model call succeeded (1 attempt): LM unavailable" in result.stderr


def test_a_small_call_budget_ends_in_daggers_that_name_it(
    fake_openai, wissen_home, sample_store_path, tmp_path
):
    result, record, report = run_ask(fake_openai, tmp_path, sample_store_path, "--max-calls", "8")
    assert result.exit_code == 0, result.output
    assert fake_openai.requests == 8 == record["lm_faults"]["calls_used"]
    failed = failed_probes(record)
    assert failed and all("CallBudgetExceeded" in p["reason"] for _, p in failed)
    errors = [r["error"] for _, p in failed for r in p["rounds"] if "error" in r]
    assert any("LM call budget of 8 calls used up" in e for e in errors)
    assert_flagged(report, failed)


def test_a_run_deadline_ends_in_daggers_without_hanging(
    fake_openai, wissen_home, sample_store_path, tmp_path
):
    fake_openai.delay = 0.4  # the run's critical path is about eight calls: 3 s or more
    started = time.monotonic()
    result, record, report = run_ask(fake_openai, tmp_path, sample_store_path, "--timeout", "1.5")
    assert time.monotonic() - started < 15
    assert result.exit_code == 0, result.output
    failed = failed_probes(record)
    assert failed and any("RunDeadlineExceeded" in p["reason"] for _, p in failed)
    assert_flagged(report, failed)


def test_a_tiny_deadline_fails_fast_with_a_clear_message(
    fake_openai, wissen_home, sample_store_path, tmp_path
):
    result, record, _ = run_ask(fake_openai, tmp_path, sample_store_path, "--timeout", "0.01")
    assert result.exit_code == 1 and fake_openai.requests == 0
    assert "no language model call succeeded (0 attempts): run deadline" in result.stderr
    assert record["lm_faults"]["timeout_s"] == 0.01
