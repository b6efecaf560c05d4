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


def history_marks(lms: list[Any]) -> dict[int, int]:
    """Each LM's history length now: usage is counted from here."""
    return {id(x): len(x.history) for x in lms}


def lm_usage(lms: list[Any], marks: dict[int, int]) -> dict[str, Any]:
    """Calls, tokens and cost the LMs logged since ``marks`` (history lengths before the run)."""
    calls = prompt = completion = 0
    cost = 0.0
    for lm in lms:
        for entry in lm.history[marks.get(id(lm), 0) :]:
            calls += 1
            usage = entry.get("usage") or {}
            prompt += int(usage.get("prompt_tokens") or 0)
            completion += int(usage.get("completion_tokens") or 0)
            cost += float(entry.get("cost") or 0.0)
    return {
        "lm_calls": calls,
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "cost_usd": round(cost, 6),
    }


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
