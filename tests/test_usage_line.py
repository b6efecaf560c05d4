"""The footer's usage line counts what the LMs' histories logged, and says when the cache
answered: a cached call spends no tokens, and "2 LM calls · 0 tokens" alone reads as a fault."""

from __future__ import annotations

from types import SimpleNamespace

from runs.record import describe_usage, lm_usage


def _entry(prompt: int, completion: int, cached: bool = False) -> dict:
    """A history entry as DSPy logs it: a cache hit keeps the stored response (and its
    usage) but logs no usage of its own."""
    spent = {"prompt_tokens": prompt, "completion_tokens": completion}
    response = SimpleNamespace(usage=SimpleNamespace(input_tokens=prompt))
    return {"usage": {} if cached else spent, "response": response, "cost": None}


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


def test_dspy_cache_hits_are_counted_as_dspy_logs_them(tmp_path):
    import dspy
    from scripted_lm import ScriptedLM

    class Ask(dspy.Signature):
        """Answer."""

        question: str = dspy.InputField()
        probes: str = dspy.OutputField()

    previous = dspy.cache
    dspy.configure_cache(
        enable_disk_cache=True, enable_memory_cache=True, disk_cache_dir=str(tmp_path)
    )
    try:
        lm = ScriptedLM(cache=True)
        with dspy.context(lm=lm):
            dspy.Predict(Ask)(question="same")
            dspy.Predict(Ask)(question="same")  # the second answer comes from the cache
        usage = lm_usage([lm], {})
    finally:
        dspy.cache = previous
    assert (usage["lm_calls"], usage["cached_calls"]) == (2, 1)
    assert describe_usage(usage).startswith("2 LM calls (1 from the cache) · ")
