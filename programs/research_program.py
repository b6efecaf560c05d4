"""ResearchProgram: the agents composed end to end, as one optimisable DSPy module.

question -> SlicePlanner -> per slice: ProbeGenerator -> per probe: ProbeLoop (Researcher +
Reviewer) -> SliceSynthesiser -> ReportComposer -> report.

What each stage takes and returns is set out in :mod:`programs.stages`. Slices and probes
run on one bounded thread pool driven by a small scheduler in the calling thread
(:class:`programs.scheduler.SliceScheduler`): a slice's probes are submitted as soon as its
probe list exists and its synthesis as soon as its last probe closes, so a multi-slice
report costs about its critical path rather than the sum of its parts, and no worker ever
blocks on another (no nested pools, no deadlock at any ``concurrency``).

DSPy 3.4 keeps ``dspy.context`` overrides (the LM, adapter, trace, usage tracker, the
calling-module stack) in a ``contextvars.ContextVar``; ``dspy.configure`` is a process
global that threads read anyway. ``dspy.Parallel``'s ``ParallelExecutor`` copies the
parent's overrides into each worker and rebinds the callback call id. Each task here
runs inside ``contextvars.copy_context()`` taken in the submitting thread, which carries
those same overrides and every other context variable (callback ancestry, MLflow's active
span) to the worker. Per-predictor LMs (``predictor.lm``) are attributes and need nothing.

With a :class:`~programs.checkpoints.Checkpoint` attached (``program.checkpoint``; a run
directory's, ``runs.checkpoint``), the
plan, each slice's probes, each closed probe and each slice synthesis are saved as they
finish and loaded instead of recomputed on the next run over the same directory: a killed
run resumes without repeating finished LM work. Only the report composition is always redone.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from typing import Any

import dspy
from pydantic import BaseModel, Field

from domain.cells import SliceRef
from programs.checkpoints import NO_CHECKPOINT, Checkpoint
from programs.composer import ReportComposer
from programs.drafts import citation_of
from programs.events import EventEmitter, ResearchEvent
from programs.figure_questions import asks_beyond_figure
from programs.figures import Figures
from programs.locked_searcher import LockedSearcher
from programs.planner import SlicePlanner
from programs.probe_focus import about_other_companies, company_words, focused_probes
from programs.probe_loop import ProbeLoop, ProbeOutcome
from programs.probes import ProbeGenerator, period_words, question_probe, slice_words
from programs.researcher import Researcher
from programs.reviewer import Reviewer
from programs.row_choices import asks_row_choice, compares_years
from programs.scheduler import SliceScheduler, SliceState, restored_suffix
from programs.synthesiser import SliceSynthesiser
from programs.web_sources import web_settings_from_env
from retrieval.mentions import company_mentions
from retrieval.search.hybrid import Hit, HybridSearcher
from retrieval.search.passages import DEFAULT_BUDGET
from retrieval.store import GridCell, GridFilter
from signatures.planner import ResearchPlan
from signatures.probes import FROM_THE_STATEMENTS, Probe


def latest_slices(slices: Sequence[SliceRef]) -> frozenset[SliceRef]:
    """Each company's latest slice of the plan: the filing that looks back on the others."""
    latest: dict[str, SliceRef] = {}
    for ref in slices:
        held = latest.get(ref.ticker)
        if held is None or (ref.fy, ref.fq or 4) > (held.fy, held.fq or 4):
            latest[ref.ticker] = ref
    return frozenset(latest.values())


class ResearchSettings(BaseModel):
    """Every bound of the spec, as a setting with the spec's default."""

    max_probes: int = Field(default=5, ge=1, le=5, description="probes per slice")
    max_rounds: int = Field(default=5, ge=1, description="draft + follow-up rounds per probe")
    max_searches: int = Field(default=5, ge=1, description="searches per researcher turn")
    answer_first: bool = Field(
        default=True,
        description="first draft from the probe's own search; the tool loop on follow-ups",
    )
    concurrency: int = Field(default=8, ge=1, description="worker threads for slices/probes")
    k: int = Field(default=5, ge=1, le=10, description="pages per search")
    max_follow_ups: int = Field(default=3, ge=1, le=3)
    max_slices: int = Field(default=16, ge=1)
    passage_chars: int = Field(
        default=DEFAULT_BUDGET, ge=200, description="passage characters shown per search hit"
    )
    evidence_pages: int = Field(default=5, ge=1, description="cited pages shown to the reviewer")
    evidence_chars: int = Field(
        default=DEFAULT_BUDGET + 200, ge=200, description="passage characters per reviewer page"
    )
    mandatory_angles: str | None = Field(
        default=None, description="appended to the probe instructions; env WISSEN_MANDATORY_ANGLES"
    )
    include_slice_summaries: bool = True
    figures: bool = Field(
        default=True, description="answer figure questions from statement facts (no LM)"
    )
    web_sources: bool = Field(
        default=False,
        description="offer the researcher wissen_read_url (and news search, when configured)",
    )


class ResearchProgram(dspy.Module):
    """The whole research pipeline; sub-modules are what optimisers and LM overrides target."""

    def __init__(
        self,
        searcher: HybridSearcher,
        cells: list[GridCell] | None = None,
        settings: ResearchSettings | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings or ResearchSettings()
        s = self.settings
        self.cells = list(cells) if cells is not None else searcher.store.cells()
        self.searcher = LockedSearcher(searcher)
        self.planner = SlicePlanner(self.cells, max_slices=s.max_slices)
        sectors = {c.ticker: c.sector for c in self.planner.companies}
        self.figures = Figures(self.searcher.facts, sectors, pages=self._slice_pages)
        self.probes = ProbeGenerator(max_probes=s.max_probes, mandatory_angles=s.mandatory_angles)
        self.researcher = Researcher(
            max_searches=s.max_searches,
            k=s.k,
            answer_first=s.answer_first,
            web=web_settings_from_env() if s.web_sources else None,
        )
        self.reviewer = Reviewer(max_follow_ups=s.max_follow_ups)
        self.synthesiser = SliceSynthesiser()
        self.composer = ReportComposer(
            include_slice_summaries=s.include_slice_summaries, companies=self.planner.companies
        )
        self.observer: Callable[[ResearchEvent], None] | None = None
        # Where finished work is saved and found again (resume); None: a run keeps nothing.
        self.checkpoint: Checkpoint | None = None

    # -- stages (each runs in a worker thread) -----------------------------------------------
    def _slice_context(self, ref: SliceRef) -> str:
        cell = next(
            (c for c in self.cells if (c.ticker, c.fy, c.fq) == (ref.ticker, ref.fy, ref.fq)),
            None,
        )
        if cell is None:
            return slice_words(ref)
        return f"{cell.company} ({cell.ticker}), {period_words(ref)}: " + ", ".join(cell.doc_types)

    def _generate_probes(
        self,
        question: str,
        ref: SliceRef,
        latest: frozenset[SliceRef] = frozenset(),
        compared: frozenset[SliceRef] = frozenset(),
    ) -> dspy.Prediction:
        """The slice's probes: the figure probe when the question asks for a figure the
        slice's statements hold, the question itself, then the model's probes that add an
        angle to it (:mod:`programs.probe_focus`), within the probe budget.

        The figure takes no model call and is the whole research when the question asks
        nothing beyond it: more probes would re-research it. A question that asks more (a
        cause, a judgement, an outlook) is researched as asked even with one slot, beside its
        figure, since a figure computed for free must not cost the judgement its only probe.
        With a figure it is researched in the company's latest slice (``latest``), whose
        filing discusses the change against the years before it; earlier slices give their
        figures, and a slice added only for a trend's prior period (``compared``) never
        gives more: researched, it answers the question for the wrong year."""
        figure = self.figures.probe(question, ref) if self.settings.figures else None
        # Code's figure says why a metric does not apply: the caveat asking that is answered,
        # and so is whether the metric is healthy (a REIT's quick ratio is not read at all).
        inapplicable = figure is not None and self.figures.inapplicable(question, ref) is not None
        judged = inapplicable or (figure is not None and self.figures.judges(question, ref))
        sector = "" if inapplicable else self.figures.sector(ref.ticker)
        parted = figure is not None and (  # a choice among parts or rows code made
            self.figures.part_table(question, ref) is not None or asks_row_choice(question)
        )
        beyond = asks_beyond_figure(question, sector, judged, parted, inapplicable)
        if figure is not None and (not beyond or ref in compared):
            return dspy.Prediction(probes=[figure], error=None)
        if figure is not None and latest and ref not in latest:
            return dspy.Prediction(probes=[figure], error=None)
        probes = [p for p in (figure, question_probe(question)) if p is not None]
        room = self.settings.max_probes - len(probes)
        if room < 1:
            return dspy.Prediction(probes=probes, error=None)
        pred = self.probes(
            question=question,
            slice=ref,
            slice_context=self._slice_context(ref),
            max_probes=room + 1,  # the model writes the question's own probe among them
        )
        added = focused_probes(
            self._own_company(pred.probes, ref),
            question,
            self._company_words(ref),
            also=self.probes.mandatory_angles,
            computed=figure.probe_title.removesuffix(FROM_THE_STATEMENTS) if figure else "",
        )
        return dspy.Prediction(probes=[*probes, *added[:room]], error=pred.error)

    def _slice_pages(self, query: str, ref: SliceRef) -> list[Hit]:
        """The slice's pages for ``query``, best first: where a parts table is looked for."""
        return self.searcher.search(query, GridFilter(ref.ticker, ref.fy, ref.fq), k=8)

    def _own_company(self, probes: Sequence[Probe], ref: SliceRef) -> list[Probe]:
        """The model's probes about this slice's company: one that names another company, or
        asks about competitors or peers, is dropped, because a slice's searches are locked to
        its own filings and cross-company comparison is the composer's job, from each slice's
        cited figures."""
        companies, cells = self.planner.companies, self.cells
        return [
            p
            for p in probes
            if {t for _, t in company_mentions(p.probe_question, companies, cells)} <= {ref.ticker}
            and not about_other_companies(p)
        ]

    def _company_words(self, ref: SliceRef) -> set[str]:
        """The words of the slice company's ticker and names (no subject of a probe)."""
        names = [c.company for c in self.cells if c.ticker == ref.ticker]
        for company in self.planner.companies:
            if company.ticker == ref.ticker:
                names += [company.name, *company.aliases]
        return company_words(ref.ticker, *names)

    def _run_probe(
        self, question: str, ref: SliceRef, probe: Probe, index: int, emit: EventEmitter
    ) -> ProbeOutcome:
        loop = ProbeLoop(
            researcher=self.researcher,
            reviewer=self.reviewer,
            searcher=self.searcher,
            max_rounds=self.settings.max_rounds,
            k=self.settings.k,
            passage_chars=self.settings.passage_chars,
            evidence_pages=self.settings.evidence_pages,
            evidence_chars=self.settings.evidence_chars,
            figures=self.figures if self.settings.figures else None,
        )
        return loop.run(question, ref, probe, index, emit)

    def _synthesise(self, question: str, state: SliceState) -> dspy.Prediction:
        answers = [state.outcomes[i].answer for i in sorted(state.outcomes)]
        uids = {uid for o in state.outcomes.values() for uid in o.pages}
        return self.synthesiser(
            question=question, slice=state.ref, probe_answers=answers, retrieved_uids=uids
        )

    # -- scheduler -------------------------------------------------------------------------
    def _research_slices(
        self, question: str, plan: ResearchPlan, emit: EventEmitter
    ) -> list[SliceState]:
        """Run every slice's stages on one pool; work the checkpoint holds is loaded instead
        (see :mod:`programs.scheduler` for when a checkpoint is used and what is saved)."""
        scheduler = SliceScheduler(
            question,
            emit,
            self.checkpoint or NO_CHECKPOINT,
            self.settings.concurrency,
            generate_probes=functools.partial(
                self._generate_probes,
                latest=latest_slices(plan.slices),
                compared=frozenset(plan.compared),
            ),
            run_probe=self._run_probe,
            synthesise=self._synthesise,
        )
        return scheduler.run(plan.slices)

    def _fold_fixed_years(self, plan: ResearchPlan) -> ResearchPlan:
        """The plan without the slices a fixed-years figure already reads: for "the FY2017 -
        FY2019 average", FY2019's filing prints all three years, so the FY2017 and FY2018
        slices would only research the same figure again (a noted default, never silent)."""
        if not self.settings.figures:
            return plan
        folded: dict[SliceRef, SliceRef] = {}
        for ref in plan.slices:
            if ref in folded:
                continue
            for fy in self.figures.fixed_years(plan.question, ref):
                other = SliceRef(ticker=ref.ticker, fy=fy, fq=ref.fq)
                if other in plan.slices and other != ref:
                    folded.setdefault(other, ref)
        if not folded:
            return plan
        notes = [
            f"{other.label}: read within {into.label}'s figure, not researched apart"
            for other, into in folded.items()
        ]
        return plan.model_copy(
            update={
                "slices": [s for s in plan.slices if s not in folded],
                "notes": [*plan.notes, *notes],
            }
        )

    def _fold_compared(self, plan: ResearchPlan) -> ResearchPlan:
        """The plan without the prior-period slices a trend question added where their
        statements hold no figure for the question. Such a slice could only research the
        question itself in the earlier filing, and its draft answers for the wrong year
        ("which segment grew fastest in FY2023" answered with FY2022's growth). The later
        filing reports the prior year beside the year asked, so the comparison is read
        there (a Scope line says so). A company's only slice is always kept. No later
        filing prints a sequential question's quarter before, so that slice is dropped, and
        the change is said not to be computed."""
        dropped: dict[SliceRef, str] = {}  # each slice left out, and its Scope line
        for ref in (r for r in plan.compared if r in plan.slices):
            later = [s for s in plan.slices if s.ticker == ref.ticker and s not in plan.compared]
            into = max(later, key=lambda s: (s.fy, s.fq or 4)) if later else None
            parted = self.settings.figures and (
                self.figures.part_table(plan.question, ref) or compares_years(plan.question)
            )
            if into and parted:  # its own table would answer for its own year, apart
                table = self.figures.part_table(plan.question, into)
                read = "its parts' figures are read from" if table and table.prior else "see"
                dropped[ref] = (
                    f"{ref.label}: not researched apart (its parts' table is of its own "
                    f"year); {read} {into.label}'s filing for the year asked"
                )
                continue
            if self.settings.figures and self.figures.probe(plan.question, ref) is not None:
                continue
            if plan.facets.sequential:
                dropped[ref] = (
                    f"{ref.label}: not researched (no statement figure answers the question "
                    "there, and no later quarter's filing reports it): the sequential change "
                    "is not computed"
                )
            elif into is not None:
                dropped[ref] = (
                    f"{ref.label}: not researched apart (no statement figure answers the "
                    f"question there); the prior period is read from {into.label}'s filing, "
                    "which reports it"
                )
        if not dropped:
            return plan
        return plan.model_copy(
            update={
                "slices": [s for s in plan.slices if s not in dropped],
                "compared": [s for s in plan.compared if s not in dropped],
                "scope": [*plan.scope, *dropped.values()],
            }
        )

    # -- the module ------------------------------------------------------------------------
    def forward(
        self, question: str, company: str | None = None, period: str | None = None
    ) -> dspy.Prediction:
        """Research ``question``; ``company`` and ``period`` are the company and the period
        it is about when it names none (a question asked of one filing)."""
        started = time.monotonic()
        emit = EventEmitter(self.observer)
        saved = self.checkpoint or NO_CHECKPOINT
        plan = saved.load_plan()
        restored = plan is not None
        if plan is None:
            emit.emit("planning", detail="reading the question; choosing companies and periods")
            planned = self.planner(question=question, company=company, period=period)
            plan = self._fold_compared(self._fold_fixed_years(planned))
            saved.save_plan(plan)
        emit.emit(
            "plan", detail=", ".join(plan.labels) + _scope_suffix(plan) + restored_suffix(restored)
        )
        states = self._research_slices(plan.question, plan, emit)
        slices = [s.report for s in states if s.report is not None]
        pages: dict[str, Hit] = {}
        for state in states:
            for outcome in state.outcomes.values():
                pages.update(outcome.pages)
        composed = self.composer(
            question=plan.question, plan=plan, slices=slices, retrieved_uids=pages.keys()
        )
        emit.emit(
            "report",
            detail=f"{len(composed.report.references)} citation(s), "
            f"{sum(1 for s in slices if s.flagged)} flagged slice(s)",
        )
        record = self._record(plan, states, composed, pages, time.monotonic() - started)
        return dspy.Prediction(
            report=composed.markdown,
            answer=composed.report,
            plan=plan,
            slices=slices,
            page_texts={uid: hit.text for uid, hit in pages.items()},
            retrieved_uids=sorted(pages),
            flagged_slices=[s for s in slices if s.flagged],
            citations=list(composed.report.references.footnotes),
            record=record,
        )

    def _record(
        self,
        plan: ResearchPlan,
        states: Sequence[SliceState],
        composed: dspy.Prediction,
        pages: dict[str, Hit],
        elapsed: float,
    ) -> dict[str, Any]:
        """A JSON-serialisable account of the run, for run records and MLflow artefacts."""
        slices = []
        for state in states:
            report = state.report
            probes = [state.outcomes[j].record for j in sorted(state.outcomes)]
            slices.append(
                {
                    "slice": state.ref.label,
                    "ticker": state.ref.ticker,
                    "fy": state.ref.fy,
                    "fq": state.ref.fq,
                    "probes": probes,
                    "probe_generation_error": state.probe_error,
                    "summary": report.summary.to_markdown() if report else "",
                    "open_issues": list(report.open_issues) if report else [],
                    "citations": [f.model_dump() for f in report.citations] if report else [],
                    "synthesis": state.synthesis,
                }
            )
        probe_fabricated = sum(p["fabricated_citations"] for s in slices for p in s["probes"])
        synth_fabricated = sum(s["synthesis"].get("fabricated_citations", 0) for s in slices)
        report = composed.report
        return {
            "question": plan.question,
            "settings": self.settings.model_dump(),
            "plan": plan.model_dump(),
            "slices": slices,
            "report": {
                "citations": [f.model_dump() for f in report.references.footnotes],
                "dagger_notes": [n.render() for n in report.dagger_notes],
                "fabricated_citations": composed.fabricated_citations,
                "dangling_markers": composed.dangling_markers,
                "table_rows": composed.table_rows,
                "error": composed.error,
            },
            "fabricated_citations": {
                "probes": probe_fabricated,
                "summaries": synth_fabricated,
                "report": composed.fabricated_citations,
                "total": probe_fabricated + synth_fabricated + composed.fabricated_citations,
            },
            "pages_retrieved": len(pages),
            "pages": {uid: citation_of(hit).model_dump() for uid, hit in sorted(pages.items())},
            "elapsed_s": round(elapsed, 3),
        }


def _scope_suffix(plan: ResearchPlan) -> str:
    notes = plan.user_notes()
    return (" | " + " ".join(notes)) if notes else ""
