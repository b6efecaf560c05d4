"""What each evalset measures: the program under test, its headline metric, the full table.

* ``financebench``: the whole research program against FinanceBench's gold answers; the
  headline is the composite metric (answer correctness, citation coverage, numeric
  grounding, dagger correctness).
* ``reports``: the whole program on cross-sectional and inter-temporal questions; the
  headline is the mean of the composite and the share of required facts stated *and*
  cited to their page.
* ``planner``: the slice planner alone (two predictors, seconds per question), scored by
  slice F1; its expectations are written against the bundled sample grid, so it always
  plans over that grid's cells.

Every metric is on a 0-1 scale, and the headline is what ``dspy.Evaluate`` and the
optimisers maximise, so an eval run and an optimise run of the same set compare directly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import dspy

from evaluation.program_state import copy_state
from metrics import (
    composite_feedback_metric,
    judge_answer,
    score_citation_coverage,
    score_daggers,
    score_facts,
    score_numeric_grounding,
    slice_feedback_metric,
)
from metrics._inputs import field, report_text
from metrics.slice_match import match_of
from programs.errors import PlanningError
from programs.planner import SlicePlanner
from retrieval.ingest.sample import sample_cells
from retrieval.store import PageStore
from signatures.planner import ResearchPlan


class PlannerProgram(dspy.Module):
    """The planner as a program of its own: question in, plan out.

    It holds the planner under the attribute name ``planner``, as ``ResearchProgram``
    does, so its saved predictor names (``planner.extract_facets``…) are the research
    program's and compiled prompts move between the two unchanged.
    """

    def __init__(self, planner: SlicePlanner) -> None:
        super().__init__()
        self.planner = planner

    def forward(self, question: str, company: str | None = None) -> dspy.Prediction:
        try:
            plan = self.planner(question=question, company=company)
        except PlanningError as exc:  # nothing to research is a plan too: empty, with the why
            plan = ResearchPlan(question=question, unknown=[str(exc)])
        return dspy.Prediction(plan=plan)


def _report_parts(gold: Any, pred: Any) -> dict[str, float]:
    report = report_text(pred)
    parts = {
        "citation_coverage": score_citation_coverage(report, field(pred, "retrieved_uids")).score,
        "numeric_grounding": score_numeric_grounding(report, field(pred, "page_texts") or {}).score,
        "dagger_correctness": score_daggers(report, field(pred, "flagged_slices")).score,
    }
    gold_answer = field(gold, "answer")
    if gold_answer:
        verdict = judge_answer(report, gold_answer, field(gold, "question"))
        parts["answer_correctness"] = verdict.score
        # The answer's label as three 0/1 parts: their means are the accuracy, wrong-answer
        # and refusal rates every eval and compile logs under the same names.
        parts["accuracy"] = float(verdict.label == "correct")
        parts["wrong"] = float(verdict.label == "incorrect")
        parts["refusal"] = float(verdict.label == "refusal")
    parts["composite"] = float(composite_feedback_metric(gold, pred).score)
    return parts


def _financebench_parts(gold: Any, pred: Any) -> dict[str, float]:
    parts = _report_parts(gold, pred)
    return {**parts, "score": parts["composite"]}


def _reports_parts(gold: Any, pred: Any) -> dict[str, float]:
    parts = _report_parts(gold, pred)
    facts = score_facts(report_text(pred), field(gold, "facts") or [])
    parts.update(fact_recall=facts.recall, fact_cited_recall=facts.cited_recall)
    return {**parts, "score": (parts["composite"] + facts.cited_recall) / 2}


def _planner_parts(gold: Any, pred: Any) -> dict[str, float]:
    match = match_of(gold, pred)
    return {
        "slice_f1": match.f1,
        "slice_exact": match.exact,
        "unknown_recall": match.unknown_recall,
        "score": match.score,
    }


def _reports_feedback(
    gold: Any, pred: Any, trace: Any = None, pred_name: Any = None, pred_trace: Any = None
) -> dspy.Prediction:
    base = composite_feedback_metric(gold, pred, trace)
    facts = score_facts(report_text(pred), field(gold, "facts") or [])
    notes = [base.feedback]
    if facts.missing:
        notes.append("Facts the report should state: " + "; ".join(facts.missing[:4]))
    if facts.uncited:
        notes.append("Facts stated without citing their page: " + "; ".join(facts.uncited[:4]))
    return dspy.Prediction(score=(base.score + facts.cited_recall) / 2, feedback=" ".join(notes))


def _financebench_feedback(
    gold: Any, pred: Any, trace: Any = None, pred_name: Any = None, pred_trace: Any = None
) -> dspy.Prediction:
    return composite_feedback_metric(gold, pred, trace)


def _answer_passes(gold: Any, pred: Any) -> tuple[bool, str]:
    """A run worth a demo: its answer is right and it cites a gold evidence page, so no demo
    shows a right answer read off the wrong page."""
    from evaluation.trace_demos import cited_uids, gold_uids

    verdict = judge_answer(report_text(pred), field(gold, "answer"), field(gold, "question"))
    if verdict.label != "correct":
        return False, f"answer {verdict.label}"
    gold_pages, cited = gold_uids(gold), cited_uids(pred)
    if gold_pages and not cited & gold_pages:
        return False, "right answer, but no gold evidence page cited"
    return True, "right answer citing a gold page"


def _full_score_passes(parts: Callable[[Any, Any], dict[str, float]]):
    def passes(gold: Any, pred: Any) -> tuple[bool, str]:
        score = parts(gold, pred)["score"]
        return score >= 1.0, f"score {score:.2f}"

    return passes


@dataclass(frozen=True)
class EvalTask:
    """One evalset's way of scoring: ``parts`` gives every metric, ``score`` the headline,
    ``passes`` whether a run is good enough to become a few-shot demo (and why)."""

    name: str
    parts: Callable[[Any, Any], dict[str, float]]
    feedback_metric: Callable[..., dspy.Prediction]
    passes: Callable[[Any, Any], tuple[bool, str]]
    planner_only: bool = False

    def metric(self, gold: Any, pred: Any, trace: Any = None) -> float:
        """The headline metric in DSPy's three-argument form (0-1)."""
        return float(self.parts(gold, pred)["score"])

    def program(self, research: Any) -> dspy.Module:
        """The module this set evaluates, with ``research``'s prompts and demos."""
        if not self.planner_only:
            return research
        planner = SlicePlanner(sample_cells(), max_slices=research.settings.max_slices)
        program = PlannerProgram(planner)
        copy_state(research, program)
        return program

    def answerable(self, examples: Sequence[dspy.Example], store: PageStore) -> list[dspy.Example]:
        """The examples whose evidence pages the grid holds; for the planner, the hand-written
        rows and the FinanceBench rows whose gold cells the grid holds."""
        if self.planner_only:
            held = {(c.ticker, c.fy, c.fq) for c in store.cells()}
            return [e for e in examples if _cells_held(e, held)]
        held = {p.uid for p in store.pages_by_uid(sorted(_evidence_uids(examples)))}
        return [e for e in examples if set(_uids_of(e)) <= held]


def _cells_held(example: dspy.Example, held: set[tuple[str, int, int]]) -> bool:
    if field(example, "grid") != "financebench":
        return True  # written over the bundled sample grid, refusals included
    cells = field(example, "expected_slices") or []
    return all((c["ticker"], c["fy"], c["fq"]) in held for c in cells)


def _uids_of(example: dspy.Example) -> list[str]:
    uids = field(example, "evidence_uids")
    if uids:
        return list(uids)
    return [f["uid"] for f in field(example, "facts") or [] if f.get("uid")]


def _evidence_uids(examples: Sequence[dspy.Example]) -> set[str]:
    return {uid for e in examples for uid in _uids_of(e)}


TASKS: dict[str, EvalTask] = {
    "financebench": EvalTask(
        "financebench", _financebench_parts, _financebench_feedback, _answer_passes
    ),
    "reports": EvalTask(
        "reports", _reports_parts, _reports_feedback, _full_score_passes(_reports_parts)
    ),
    "planner": EvalTask(
        "planner",
        _planner_parts,
        slice_feedback_metric,
        _full_score_passes(_planner_parts),
        planner_only=True,
    ),
}


def task_for(name: str) -> EvalTask:
    try:
        return TASKS[name]
    except KeyError:
        raise ValueError(f"unknown evalset {name!r}: choose one of {', '.join(TASKS)}") from None
