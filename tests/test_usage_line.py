"""The footer's usage line counts what the LMs' histories logged, and says when the cache
answered: a cached call spends no tokens, and "2 LM calls · 0 tokens" alone reads as a fault."""

from __future__ import annotations

from types import SimpleNamespace

from runs.record import describe_usage, lm_usage


def _entry(prompt: int, completion: int, cached: bool = False) -> dict:
    usage = {} if cached else {"prompt_tokens": prompt, "completion_tokens": completion}
    return {"usage": usage, "response": SimpleNamespace(cache_hit=cached), "cost": None}


def test_calls_tokens_and_cache_hits_since_the_mark():
    lm = SimpleNamespace(history=[_entry(50, 5), _entry(100, 20), _entry(0, 0, cached=True)])
    usage = lm_usage([lm], {id(lm): 1})  # the first call came before this run
    assert usage["lm_calls"] == 2
    assert usage["cached_calls"] == 1
    assert usage["prompt_tokens"] + usage["completion_tokens"] == 120
    assert describe_usage(usage) == "2 LM calls (1 from the cache) · 120 tokens"


def test_a_run_without_cache_hits_says_nothing_of_the_cache():
    lm = SimpleNamespace(history=[_entry(1000, 234)])
    agent = SimpleNamespace(history=[_entry(1000, 234)])
    usage = lm_usage([lm], {}, {"planner": agent})
    assert describe_usage(usage) == "1 LM call · 1,234 tokens (planner 1,234)"
