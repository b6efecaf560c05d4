"""Slice match: did the planner pick exactly the ``{ticker, FY, FQ}`` cells a question needs?

Scored as the F1 of predicted against expected slices (an empty plan for a question that
needs none is perfect), and, when the question names companies the grid lacks, whether the
plan tells the user about each of them: a plan that silently drops a company is wrong
even if every slice it kept is right.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import dspy
from pydantic import BaseModel, Field

from metrics._inputs import field

Cell = tuple[str, int, int]


def as_cell(value: Any) -> Cell:
    """``{"ticker", "fy", "fq"}`` or an object with those attributes -> a hashable cell."""
    get = value.get if isinstance(value, Mapping) else lambda k: getattr(value, k)
    return (str(get("ticker")).upper(), int(get("fy")), int(get("fq")))


class SliceMatch(BaseModel):
    expected: list[Cell] = Field(default_factory=list)
    predicted: list[Cell] = Field(default_factory=list)
    unknown_expected: list[str] = Field(default_factory=list)
    unknown_reported: list[str] = Field(default_factory=list)

    @property
    def missing(self) -> list[Cell]:
        return sorted(set(self.expected) - set(self.predicted))

    @property
    def extra(self) -> list[Cell]:
        return sorted(set(self.predicted) - set(self.expected))

    @property
    def f1(self) -> float:
        expected, predicted = set(self.expected), set(self.predicted)
        if not expected and not predicted:
            return 1.0
        hits = len(expected & predicted)
        return 2 * hits / (len(expected) + len(predicted))

    @property
    def exact(self) -> float:
        return float(set(self.expected) == set(self.predicted))

    @property
    def unknown_recall(self) -> float:
        if not self.unknown_expected:
            return 1.0
        return len(self.unknown_reported) / len(self.unknown_expected)

    @property
    def score(self) -> float:
        """Slice F1, halved in weight when the question also names unknown companies."""
        if not self.unknown_expected:
            return self.f1
        return (self.f1 + self.unknown_recall) / 2


def score_slices(
    expected: Iterable[Any],
    predicted: Iterable[Any],
    unknown_expected: Iterable[str] = (),
    user_notes: Iterable[str] = (),
) -> SliceMatch:
    """Compare slices; an expected unknown name counts as reported if a user note names it."""
    notes = " ".join(user_notes).lower()
    unknown = [str(u) for u in unknown_expected]
    return SliceMatch(
        expected=[as_cell(s) for s in expected],
        predicted=[as_cell(s) for s in predicted],
        unknown_expected=unknown,
        unknown_reported=[u for u in unknown if u.lower() in notes],
    )


def match_of(gold: Any, pred: Any) -> SliceMatch:
    plan = field(pred, "plan")
    return score_slices(
        field(gold, "expected_slices") or [],
        field(plan, "slices") or [],
        field(gold, "expected_unknown") or [],
        plan.user_notes() if plan is not None and hasattr(plan, "user_notes") else [],
    )


def slice_match(gold: Any, pred: Any, trace: Any = None) -> float:
    """DSPy metric: slice F1 (with the unknown-company part when the question has one)."""
    return match_of(gold, pred).score


def slice_feedback_metric(
    gold: Any, pred: Any, trace: Any = None, pred_name: Any = None, pred_trace: Any = None
) -> dspy.Prediction:
    """GEPA's form: the score and what the plan got wrong, in words a prompt can act on."""
    match = match_of(gold, pred)
    notes = []
    if match.missing:
        notes.append("Missing slices: " + ", ".join(f"{t} FY{y} Q{q}" for t, y, q in match.missing))
    if match.extra:
        notes.append(
            "Slices not asked for: " + ", ".join(f"{t} FY{y} Q{q}" for t, y, q in match.extra)
        )
    lost = [u for u in match.unknown_expected if u not in match.unknown_reported]
    if lost:
        notes.append("Companies named but not reported as outside the grid: " + ", ".join(lost))
    return dspy.Prediction(score=match.score, feedback=" ".join(notes) or "The plan is exact.")
