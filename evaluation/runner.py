"""Scoring a program on an evalset: ``dspy.Evaluate`` for the headline, every metric per row.

``dspy.Evaluate`` runs the program over the examples (threads, progress bar, errors
counted rather than raised) and averages the set's headline metric. The other metrics are
deterministic and cheap, so they are computed afterwards from the same predictions rather
than by running the program again.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import dspy

from evaluation.ledger import Ledger, example_id
from evaluation.tasks import EvalTask
from metrics._inputs import field as field_of


@dataclass
class EvalOutcome:
    """Per-example rows and per-metric means (0-1) of one program on one set and split."""

    task: str
    split: str | None
    rows: list[dict[str, Any]] = field(default_factory=list)

    @property
    def metrics(self) -> list[str]:
        names: list[str] = []
        for row in self.rows:
            names += [k for k in row["metrics"] if k not in names]
        return names

    @property
    def means(self) -> dict[str, float]:
        out = {}
        for name in self.metrics:
            values = [r["metrics"][name] for r in self.rows if name in r["metrics"]]
            out[name] = sum(values) / len(values) if values else 0.0
        return out

    @property
    def score(self) -> float:
        """The headline: the mean ``score`` (every row has one; a failed example scores 0)."""
        return self.means.get("score", 0.0)

    @property
    def errors(self) -> int:
        return sum(1 for r in self.rows if r["error"])

    def by_type(self) -> dict[str, dict[str, float]]:
        """Metric means per question type (``all`` for every row), for types rows carry."""
        groups: dict[str, list[dict[str, Any]]] = {"all": self.rows}
        for row in self.rows:
            if row.get("question_type"):
                groups.setdefault(row["question_type"], []).append(row)
        return {
            kind: {**EvalOutcome(self.task, self.split, rows).means, "n": float(len(rows))}
            for kind, rows in groups.items()
        }


def _failed(pred: Any, task: EvalTask) -> bool:
    """``dspy.Evaluate`` hands back an empty prediction for an example that raised."""
    key = "plan" if task.planner_only else "report"
    return field_of(pred, key) is None


def evaluate(
    program: dspy.Module,
    task: EvalTask,
    examples: list[dspy.Example],
    split: str | None = None,
    num_threads: int = 1,
    progress: bool = True,
    ledger: Path | None = None,
) -> EvalOutcome:
    """Run ``program`` on ``examples`` and score every metric of ``task`` per example.

    With a ``ledger`` (a JSONL file) each example's row is written as it finishes and
    rows already there are read back instead of run again: a killed evaluation resumes.
    """
    outcome = EvalOutcome(task=task.name, split=split)
    if not examples:
        return outcome
    if ledger is not None:
        return _evaluate_resumably(program, task, examples, outcome, Ledger(ledger), progress)
    evaluator = dspy.Evaluate(
        devset=examples,
        metric=task.metric,
        num_threads=num_threads,
        display_progress=progress,
        display_table=False,
        max_errors=len(examples) + 1,
        provide_traceback=False,
        failure_score=0.0,
    )
    # Autologging would log this call into whatever run is active; callers log their own.
    result = evaluator(program, callback_metadata={"disable_logging": True})
    for example, pred, _ in result.results:
        outcome.rows.append(_row(example, pred, task))
    return outcome


def _row(example: dspy.Example, pred: Any, task: EvalTask) -> dict[str, Any]:
    failed = _failed(pred, task)
    return {
        "id": example_id(example),
        "question": field_of(example, "question", ""),
        "question_type": field_of(example, "question_type", "") or "",
        "metrics": {"score": 0.0} if failed else task.parts(example, pred),
        "error": failed,
        "output": _output_text(pred, task) if not failed else "",
    }


def _evaluate_resumably(
    program: dspy.Module,
    task: EvalTask,
    examples: list[dspy.Example],
    outcome: EvalOutcome,
    ledger: Ledger,
    progress: bool,
) -> EvalOutcome:
    """One example at a time (the embedded model runs one call at a time anyway), each row
    appended to the ledger as it ends; a progress bar with the time left."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    columns = ("{task.description}", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, disable=not progress, transient=True) as bar:
        todo = bar.add_task(f"{task.name} {outcome.split or ''}".strip(), total=len(examples))
        for example in examples:
            row = ledger.get(example_id(example))
            if row is None:
                started = time.monotonic()
                try:
                    pred = program(**example.inputs())
                except Exception:  # an example that raised scores 0, as in dspy.Evaluate
                    pred = dspy.Prediction()
                row = {**_row(example, pred, task), "seconds": round(time.monotonic() - started, 1)}
                ledger.add(row)
            outcome.rows.append(row)
            bar.advance(todo)
    return outcome


def _output_text(pred: Any, task: EvalTask) -> str:
    if task.planner_only:
        plan = field_of(pred, "plan")
        return ", ".join(plan.labels) + (
            " | " + " ".join(plan.user_notes()) if plan.user_notes() else ""
        )
    return str(field_of(pred, "report", ""))
