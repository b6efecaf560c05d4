"""The research pipeline's stages: what each takes and what it hands the next.

::

    question
      -> planner       SlicePlanner           question -> ResearchPlan (.slices: SliceRef each)
      -> per slice     ProbeGenerator         question, slice -> Prediction(probes, error)
      -> per probe     ProbeLoop.run          question, slice, probe -> ProbeOutcome, rounds of
           researcher  Researcher             the probe, last draft, follow-ups
                                              -> Prediction(answer_markdown), read and verified
                                              into a CitedAnswer (programs.drafts.verify_draft)
           reviewer    Reviewer               the verified draft, its evidence -> ReviewVerdict
      -> per slice     SliceSynthesiser       the probes' ProbeAnswers -> Prediction(slice_report)
      -> composer      ReportComposer         plan, SliceReports -> Prediction(report, markdown)

:class:`programs.research_program.ResearchProgram` wires them; the scheduler
(:mod:`programs.scheduler`) runs the per-slice and per-probe stages on one pool. Each
Protocol below is the call a stage answers (a ``dspy.Module``'s ``forward``, called as the
module); code never raises out of a stage for an LM failure: each returns a failure value
(an ``error`` field, a fail-closed verdict, an insufficient-evidence probe) instead.
This module is documentation with types: nothing imports it at run time.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import dspy

from domain.cells import SliceRef
from signatures.planner import ResearchPlan
from signatures.probes import Probe
from signatures.reviewer import ReviewVerdict
from signatures.synthesiser import ProbeAnswer, SliceReport

if TYPE_CHECKING:
    from calculator.tools import FactTools
    from programs.events import EventEmitter
    from programs.probe_loop import ProbeOutcome
    from programs.researcher import SearchHook
    from retrieval.search.tools import EquitySearchTool


class PlannerStage(Protocol):
    """:class:`programs.planner.SlicePlanner`: the slices to research (``plan.slices``) and
    notes on what was assumed; raises ``PlanningError`` for a question it cannot plan.
    ``company`` and ``period`` are the company and the period a question that names none
    is about."""

    def __call__(
        self, question: str, company: str | None = None, period: str | None = None
    ) -> ResearchPlan: ...


class ProbesStage(Protocol):
    """:class:`programs.probes.ProbeGenerator`: ``Prediction(probes: list[Probe], error:
    str | None)``, at least one probe (the question itself when generation fails)."""

    def __call__(
        self,
        question: str,
        slice: SliceRef,
        slice_context: str = "",
        max_probes: int | None = None,
    ) -> dspy.Prediction: ...


class ProbeStage(Protocol):
    """:meth:`programs.probe_loop.ProbeLoop.run`: one probe closed, by code from statement
    facts or by researcher/reviewer rounds; never raises."""

    def __call__(
        self,
        question: str,
        slice: SliceRef,
        probe: Probe,
        index: int,
        emit: EventEmitter | None = None,
    ) -> ProbeOutcome: ...


class ResearcherStage(Protocol):
    """:class:`programs.researcher.Researcher`: one round's draft, ``Prediction(answer_markdown:
    str, trajectory)``, citing pages by the hit numbers ``tool`` handed out; the probe loop
    turns it into a verified :class:`~citations.markup.CitedAnswer`
    (:func:`programs.drafts.verify_draft`). Keyword arguments only."""

    def __call__(
        self,
        *,
        tool: EquitySearchTool,
        on_search: SearchHook | None,
        fact_tools: FactTools | None,
        question: str,
        slice_label: str,
        probe_title: str,
        probe_question: str,
        previous_draft: str,
        reviewer_feedback: str,
        first_query: str,
        first_skip: Collection[str],
        computed: list[dict[str, Any]],
    ) -> dspy.Prediction: ...


class ReviewerStage(Protocol):
    """:class:`programs.reviewer.Reviewer`: the verdict on one verified draft, failing closed
    (an unreadable verdict is never an acceptance); code's floor then applies
    (:func:`programs.draft_checks.floor_verdict`)."""

    def __call__(
        self,
        question: str,
        slice_label: str,
        probe_question: str,
        draft: str,
        evidence: str,
        verification: str,
        round_number: int,
        max_rounds: int,
    ) -> ReviewVerdict: ...


class SynthesiserStage(Protocol):
    """:class:`programs.synthesiser.SliceSynthesiser`: ``Prediction(slice_report: SliceReport,
    summary_words: int, fabricated_citations: int, error: str | None)``."""

    def __call__(
        self,
        question: str,
        slice: SliceRef,
        probe_answers: Sequence[ProbeAnswer],
        retrieved_uids: Iterable[str],
    ) -> dspy.Prediction: ...


class ComposerStage(Protocol):
    """:class:`programs.composer.ReportComposer`: ``Prediction(report: CitedAnswer, markdown:
    str, fabricated_citations: int, dangling_markers: list[int], table_rows: list[dict],
    error: str | None)``."""

    def __call__(
        self,
        question: str,
        plan: ResearchPlan,
        slices: Sequence[SliceReport],
        retrieved_uids: Iterable[str],
    ) -> dspy.Prediction: ...
