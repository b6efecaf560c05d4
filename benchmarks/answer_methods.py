"""The three ways the answer benchmark answers a question, each scored the same way.

* ``program``: the full research program, exactly as ``research ask`` runs it (the run
  service: planner, probes, researcher and reviewer, synthesiser, composer), slices as its
  planner decides;
* ``baseline``: one slice-locked search (top 5 passages) and one LM call under the same
  citation protocol (``programs.baseline``);
* ``facts``: no LM at all: the calculator's deterministic formula choice over the slice's
  statement facts, for metric questions only.

Every answer is judged by ``metrics.answer_correctness.judge_answer`` and measured for
citation coverage and numeric grounding against the pages it could cite.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.answer_cases import METRIC_QUESTIONS, AnswerCase
from benchmarks.attribution import Trace, attribute
from metrics import (
    extract_numbers,
    judge_answer,
    score_citation_coverage,
    score_numeric_grounding,
)

METHODS = ("program", "baseline", "facts")


@dataclass
class Outcome:
    """What one method did with one question, before scoring."""

    answer: str
    seconds: float
    usage: dict[str, int] = field(default_factory=dict)
    retrieved_uids: list[str] | None = None
    page_texts: dict[str, str] = field(default_factory=dict)
    coverage: float | None = None  # set when the method measured it itself (the program)
    grounding: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    trace: Trace | None = None  # for attribution; None: the retrieved pages, no plan
    round_answers: list[str] = field(default_factory=list)  # the answer after each round


def score(case: AnswerCase, outcome: Outcome) -> dict[str, Any]:
    """The result row: the judgement, the answer's citation metrics, cost and time."""
    judged = judge_answer(outcome.answer, case.gold, case.question)
    coverage, grounding = outcome.coverage, outcome.grounding
    if coverage is None:
        coverage = score_citation_coverage(outcome.answer, outcome.retrieved_uids).score
    if grounding is None:
        grounding = score_numeric_grounding(outcome.answer, outcome.page_texts).score
    usage = outcome.usage
    trace = outcome.trace or Trace(seen_uids=set(outcome.retrieved_uids or []))
    stage = attribute(
        judged.label, outcome.answer, case.gold, case.slice_label, case.evidence_uids, trace
    )
    rounds = [judge_answer(a, case.gold, case.question).label for a in outcome.round_answers]
    return {
        "label": judged.label,
        "stage": stage,
        **({"round_labels": rounds} if rounds else {}),
        "score": judged.score,
        "reason": judged.reason,
        "answer": outcome.answer,
        "seconds": round(outcome.seconds, 2),
        "lm_calls": int(usage.get("lm_calls", 0)),
        "tokens": int(usage.get("prompt_tokens", 0)) + int(usage.get("completion_tokens", 0)),
        "citation_coverage": round(coverage, 4),
        "numeric_grounding": round(grounding, 4),
        **outcome.extra,
        **({"error": outcome.error} if outcome.error else {}),
    }


@dataclass
class ModelOptions:
    """The model every LM method of one benchmark run uses, and the program's bounds."""

    lm: str | None = None
    api_base: str | None = None
    max_tokens: int | None = None
    max_probes: int = 5
    max_rounds: int = 5
    run_timeout: float | None = None
    #: Give the program each question's document's company, for a question that names none:
    #: FinanceBench asks every question of one filing (the baseline gets its whole cell).
    company_context: bool = True
    #: And its document's period, for a question that names none (its filing's cell).
    period_context: bool = True


def document_period(case: AnswerCase) -> str:
    """The period of the question's document, as ``research ask --period`` takes it."""
    return f"FY{case.where.fy} Q{case.where.fq}"


def run_program(case: AnswerCase, store: Path | None, options: ModelOptions) -> Outcome:
    """The question through the run service, as ``research ask`` would run it (untracked)."""
    from runs.errors import RunError
    from runs.service import ResearchRequest, prepare_run

    company = case.where.ticker if options.company_context else None
    period = document_period(case) if options.period_context else None
    request = ResearchRequest.of(
        question=case.question,
        company=company,
        period=period,
        lm=options.lm,
        api_base=options.api_base,
        store=store,
        max_probes=options.max_probes,
        max_rounds=options.max_rounds,
        max_tokens=options.max_tokens,
        timeout=options.run_timeout,
        track=False,
    )
    start = time.perf_counter()
    try:
        result = prepare_run(request).execute()
    except RunError as exc:
        return Outcome("", time.perf_counter() - start, error=str(exc))
    metrics = result.record.get("metrics") or {}
    trace = Trace.from_record(result.record)
    return Outcome(
        answer=result.report,
        seconds=time.perf_counter() - start,
        usage=result.usage,
        coverage=metrics.get("citation_coverage"),
        grounding=metrics.get("numeric_grounding"),
        extra={
            "run_id": result.run_id,
            "planned": trace.planned,
            "company_context": company,
            "period_context": period,
        },
        error=result.failure,
        trace=trace,
        round_answers=answers_by_round(result.record, options.max_rounds),
    )


def answers_by_round(record: dict[str, Any], max_rounds: int) -> list[str]:
    """The probes' verified drafts as they stood after round 1, 2, …: what the answer would
    have been had the loop stopped there (a probe closed earlier keeps its last draft).
    Figure probes answered from facts count as their answer in every round."""
    probes = [p for s in record.get("slices") or [] for p in s.get("probes") or []]
    if not probes:
        return []
    answers = []
    for number in range(1, max_rounds + 1):
        parts = []
        for probe in probes:
            drafts = [r.get("verified_draft", "") for r in probe.get("rounds") or []]
            if drafts:
                parts.append(drafts[min(number, len(drafts)) - 1])
            elif figure := probe.get("figure"):
                parts.append(f"{figure['title']} ({figure['period']}): {figure['text']}")
        answers.append("\n\n".join(p for p in parts if p))
    return answers


class BaselineRunner:
    """The single-call baseline on one set of models, over one grid."""

    def __init__(self, searcher: Any, models: Any) -> None:
        from programs.baseline import SingleCallBaseline
        from retrieval.store import GridFilter

        self.searcher = searcher
        self.models = models
        self.module = SingleCallBaseline()
        searcher.search("warm up", GridFilter(), k=1)  # the embedder loads outside the timing

    def __call__(self, case: AnswerCase) -> Outcome:
        import dspy
        from dspy.utils.exceptions import AdapterParseError

        from lm.faults import LMUnavailable
        from retrieval.search.tools import EquitySearchTool
        from runs.record import history_marks, lm_usage

        lms = [self.models.lm]
        marks = history_marks(lms)
        tool = EquitySearchTool(self.searcher, lock=case.where)
        start = time.perf_counter()
        try:
            with dspy.context(lm=self.models.lm, adapter=self.models.adapter):
                prediction = self.module(
                    question=case.question, tool=tool, slice_label=case.slice_label
                )
        except (LMUnavailable, AdapterParseError, ValueError) as exc:
            return Outcome(
                "", time.perf_counter() - start, lm_usage(lms, marks), error=str(exc)[:300]
            )
        return Outcome(
            answer=prediction.report,
            seconds=time.perf_counter() - start,
            usage=lm_usage(lms, marks),
            retrieved_uids=prediction.retrieved_uids,
            page_texts=prediction.page_texts,
            extra={"fabricated_citations": prediction.fabricated},
        )


def run_facts(case: AnswerCase, store: Any) -> Outcome | None:
    """Facts + calculator, no LM: a cited figure, or an empty answer (a refusal) with why.

    None for a question that is not a metric question (the method does not apply).
    """
    if case.question_type != METRIC_QUESTIONS:
        return None
    from calculator import CalculationError, FormulaChoice, calculate, choose_formula
    from calculator.answers import format_value
    from citations import Citation, CitedAnswer, Footnote, ReferenceList, render_marker
    from domain.periods import Period

    start = time.perf_counter()
    where = case.where
    period = Period(where.fy) if case.doc_type == "10-K" else Period(where.fy, where.fq)
    choice = choose_formula(case.question, period)
    if not isinstance(choice, FormulaChoice):
        return Outcome("", time.perf_counter() - start, extra={"why": choice.reason})
    try:
        result = calculate(
            choice.formula,
            store.facts(where),
            choice.period,
            title=choice.title,
            definitions=choice.definitions,
            doc_name=case.doc_name,
        )
    except CalculationError as exc:
        return Outcome("", time.perf_counter() - start, extra={"why": str(exc)})
    numbers = {uid: n for n, uid in enumerate(result.citations, 1)}
    facts = {f.uid: f for f in result.inputs}
    footnotes = [
        Footnote(
            number=n,
            citation=Citation(
                uid=uid,
                doc_label=facts[uid].doc_label,
                page_index=facts[uid].page_index,
                page_id=facts[uid].page_id,
            ),
        )
        for uid, n in numbers.items()
    ]
    marker = render_marker(numbers.values())
    value = format_value(result, choice.presentation)
    # The answer is the figure, cited to its inputs' pages; the formula goes in the row (its
    # constants, ``365 ×``, are not claims for the citation metrics to count).
    end = extract_numbers(value)[-1].end if extract_numbers(value) else len(value)
    body = f"{result.title} ({result.period.label}): {value[:end]}{marker}{value[end:]}."
    answer = CitedAnswer(body=body, references=ReferenceList(footnotes=footnotes))
    pages = store.pages_by_uid(list(numbers))
    return Outcome(
        answer=answer.to_markdown(),
        seconds=time.perf_counter() - start,
        retrieved_uids=list(numbers),
        page_texts={p.uid: p.text for p in pages},
        extra={"formula": result.render(numbers)},
    )
