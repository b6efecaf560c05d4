"""The composite metric optimisers maximise, with textual feedback naming what failed.

Interface (what a program's prediction and an evalset example must carry):

* ``pred``: ``dspy.Prediction`` (or any object / dict) with ``report`` (Markdown str) and
  optionally ``page_texts`` (uid -> page text, for grounding), ``retrieved_uids`` (for
  coverage; fabricated citations cover nothing) and ``flagged_slices`` (slice label -> uids,
  or ``SliceResult`` objects with open issues).
* ``gold``: ``dspy.Example`` with ``answer`` (gold answer), optionally ``question`` and
  ``flagged_slices``.

Parts without their inputs are left out of the weighted mean rather than scored as 0 or 1:
no gold answer -> no correctness; no page texts -> no grounding; no flagged slices -> no
dagger part. ``composite_feedback_metric`` returns ``dspy.Prediction(score, feedback)`` (GEPA's
five-argument form); ``composite_metric`` returns the float for ``dspy.Evaluate`` and
MIPROv2 (Evaluate would also sum Predictions, but a float is unambiguous).
"""

from __future__ import annotations

from typing import Any

import dspy

from metrics._inputs import field, report_text
from metrics.answer_correctness import judge_answer
from metrics.citation_coverage import score_citation_coverage
from metrics.dagger_correctness import score_daggers
from metrics.numeric_grounding import score_numeric_grounding

WEIGHTS = {"answer": 0.4, "coverage": 0.2, "grounding": 0.25, "daggers": 0.15}


def _clip(items: list[str], n: int = 3) -> str:
    shown = "; ".join(repr(x[:80]) for x in items[:n])
    return shown + (f" (+{len(items) - n} more)" if len(items) > n else "")


def composite_feedback_metric(
    gold: Any, pred: Any, trace: Any = None, pred_name: Any = None, pred_trace: Any = None
) -> dspy.Prediction:
    """Weighted mean of the available parts in [0, 1], and feedback on each failing part."""
    report = report_text(pred)
    parts: dict[str, float] = {}
    notes: list[str] = []

    gold_answer = field(gold, "answer")
    if gold_answer is not None and str(gold_answer).strip():
        verdict = judge_answer(report, gold_answer, field(gold, "question"))
        parts["answer"] = verdict.score
        if verdict.label != "correct":
            notes.append(
                f"Answer {verdict.label} ({verdict.reason}); expected: {gold_answer!s:.200}"
            )

    cov = score_citation_coverage(report, field(pred, "retrieved_uids"))
    parts["coverage"] = cov.score
    if cov.uncited_sentences:
        notes.append(f"Uncited sentences: {_clip(cov.uncited_sentences)}")
    if cov.uncited_numbers:
        notes.append(f"Numbers without a citation right after them: {_clip(cov.uncited_numbers)}")

    page_texts = field(pred, "page_texts")
    if page_texts:
        ground = score_numeric_grounding(report, page_texts)
        parts["grounding"] = ground.score
        if ground.ungrounded:
            notes.append(f"Numbers not found on the pages they cite: {_clip(ground.ungrounded)}")
        if ground.unverifiable:
            notes.append(f"Numbers citing pages never retrieved: {_clip(ground.unverifiable)}")

    flagged = field(pred, "flagged_slices") or field(gold, "flagged_slices")
    if flagged:
        dag = score_daggers(report, flagged)
        parts["daggers"] = dag.score
        if dag.missing:
            notes.append(f"Missing † on sentences using flagged slices: {_clip(dag.missing)}")
        if dag.spurious:
            notes.append(f"† on sentences using no flagged slice: {_clip(dag.spurious)}")
        if dag.explained < 1:
            unexplained = [s for s in dag.slices_used if s not in dag.slices_explained]
            notes.append(f"No dagger note for: {', '.join(unexplained) or 'the daggers used'}")

    total = sum(WEIGHTS[k] for k in parts)
    score = sum(WEIGHTS[k] * v for k, v in parts.items()) / total if total else 0.0
    summary = ", ".join(f"{k}={v:.2f}" for k, v in parts.items())
    feedback = f"Scores: {summary}. " + (" ".join(notes) if notes else "No problems found.")
    return dspy.Prediction(score=score, feedback=feedback)


def composite_metric(gold: Any, pred: Any, trace: Any = None) -> float:
    """Float form of the composite metric, for ``dspy.Evaluate`` and non-GEPA optimisers."""
    return float(composite_feedback_metric(gold, pred, trace).score)
