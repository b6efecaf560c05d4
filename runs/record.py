"""The run record's measured parts: LM usage since the run began, and the report's metrics.

Deterministic code over what the run produced: the calls, tokens and cost its LMs logged,
and citation coverage, numeric grounding and dagger correctness of the report.
"""

from __future__ import annotations

import time
from typing import Any


def distinct_lms(program: Any, default: Any) -> list[Any]:
    """The default LM and every per-agent LM of ``program``, each once."""
    lms = {id(default): default}
    for _, predictor in program.named_predictors():
        if getattr(predictor, "lm", None) is not None:
            lms[id(predictor.lm)] = predictor.lm
    return list(lms.values())


def agent_modules(program: Any) -> dict[str, Any]:
    """``program``'s agents by name (those it has), for usage by agent.

    DSPy appends every LM call to the ``history`` of each module on the call stack, so an
    agent's own history holds exactly the calls made on its behalf, whichever LM served them
    and in whichever worker thread.
    """
    from lm.language_models import AGENT_NAMES

    return {
        name: module
        for name in AGENT_NAMES
        if isinstance(getattr(module := getattr(program, name, None), "history", None), list)
    }


def history_marks(owners: list[Any]) -> dict[int, int]:
    """Each LM's (or agent's) history length now: usage is counted from here."""
    return {id(x): len(x.history) for x in owners}


def _from_cache(entry: dict[str, Any]) -> bool:
    """DSPy logs a cache hit with the stored response, whose usage is the first call's, and
    an empty usage of its own (nothing was billed); a live call logs the usage it spent."""
    return not entry.get("usage") and getattr(entry.get("response"), "usage", None) is not None


def _count(entries: list[dict[str, Any]]) -> dict[str, Any]:
    prompt = completion = cached = 0
    cost = 0.0
    for entry in entries:
        cached += _from_cache(entry)
        usage = entry.get("usage") or {}
        prompt += int(usage.get("prompt_tokens") or 0)
        completion += int(usage.get("completion_tokens") or 0)
        cost += float(entry.get("cost") or 0.0)
    return {
        "lm_calls": len(entries),
        "cached_calls": cached,
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "cost_usd": round(cost, 6),
    }


def lm_usage(
    lms: list[Any], marks: dict[int, int], agents: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Calls, tokens and cost the LMs logged since ``marks`` (history lengths before the run);
    with ``agents``, the same counts by agent under ``by_agent`` (agents that made a call)."""
    usage = _count([e for lm in lms for e in lm.history[marks.get(id(lm), 0) :]])
    if agents is not None:
        by_agent = {}
        for name, module in agents.items():
            counted = _count(module.history[marks.get(id(module), 0) :])
            if counted["lm_calls"]:
                by_agent[name] = {
                    k: v for k, v in counted.items() if k not in ("cost_usd", "cached_calls")
                }
        usage["by_agent"] = by_agent
    return usage


def usage_metrics(usage: dict[str, Any]) -> dict[str, float]:
    """``usage`` as flat numbers for a tracker: totals, then ``<agent>_tokens`` per agent."""
    flat = {k: float(v) for k, v in usage.items() if isinstance(v, int | float)}
    for name, counted in (usage.get("by_agent") or {}).items():
        flat[f"{name}_tokens"] = float(counted["prompt_tokens"] + counted["completion_tokens"])
    return flat


def describe_usage(usage: dict[str, Any]) -> str:
    """One line for a report footer: calls (and how many the cache answered: they cost no
    tokens, so "0 tokens" alone would read as a fault), tokens, then tokens by agent."""
    total = usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0)
    cached = usage.get("cached_calls", 0)
    calls = usage.get("lm_calls", 0)
    line = f"{calls} LM call" + ("" if calls == 1 else "s")
    line += f" ({cached} from the cache)" if cached else ""
    line += f" · {total:,} tokens"
    by_agent = usage.get("by_agent") or {}
    if by_agent:
        parts = [
            f"{name} {c['prompt_tokens'] + c['completion_tokens']:,}"
            for name, c in by_agent.items()
        ]
        line += " (" + ", ".join(parts) + ")"
    return line


def report_metrics(prediction: Any) -> dict[str, float]:
    """The deterministic report metrics of a finished run (0-1 each)."""
    from metrics import score_citation_coverage, score_daggers, score_numeric_grounding

    report = prediction.report
    coverage = score_citation_coverage(report, getattr(prediction, "retrieved_uids", None))
    grounding = score_numeric_grounding(report, getattr(prediction, "page_texts", {}) or {})
    daggers = score_daggers(report, getattr(prediction, "flagged_slices", None))
    return {
        "citation_coverage": coverage.score,
        "numeric_grounding": grounding.score,
        "dagger_correctness": daggers.score,
    }


def run_record(
    prediction: Any,
    params: dict[str, Any],
    usage: dict[str, Any],
    metrics: dict[str, float],
    start: float,
) -> dict[str, Any]:
    """``run.json``: the run's parameters, the program's own record, usage, metrics, time."""
    return {
        **params,
        **(getattr(prediction, "record", None) or {}),
        "usage": usage,
        "metrics": metrics,
        "wall_seconds": round(time.perf_counter() - start, 3),
    }
