"""ProbeLoop: Researcher and Reviewer take turns on one probe until it closes.

Round 1 is the draft; rounds 2..max_rounds answer the reviewer's follow-ups. Each round is
draft -> verify -> review -> follow up or stop (see :meth:`ProbeLoop.run`):

- verify: the draft is checked against the pages this probe retrieved
  (:mod:`programs.round_checks`: fabricated citations removed and counted, pasted lines
  dropped, footnotes rewritten from the grid's record, uncited sentences attributed or
  dropped, figures held to the statements, causes kept with their figures), so the
  reviewer and everything after it see only real, correctly labelled citations;
- review: the reviewer sees the cited passages and code's notes
  (:mod:`programs.evidence_text`), and code keeps a floor under its verdict
  (:func:`programs.draft_checks.floor_verdict`: an uncited draft is not accepted; a draft
  with no figure for a probe that asks how much closes under a dagger).

A figure probe the statements answer is closed by code before any of that (no LM call).
The loop never raises: a failure closes the probe with insufficient evidence and a reason,
keeping the last verified draft. The stage's contract is :class:`programs.stages.ProbeStage`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from calculator.tools import FactTools
from citations.hit_numbers import numbered_markdown
from citations.markup import MARKER_RE, CitedAnswer
from domain.cells import SliceRef
from domain.periods import slice_period
from lm.faults import LMUnavailable
from programs.draft_checks import EMPTY_VERDICT, floor_verdict
from programs.drafts import VerifiedDraft
from programs.events import EventEmitter
from programs.evidence_text import evidence_text, verification_text
from programs.figures import Figures
from programs.page_answers import asks_of_a_page, page_answer
from programs.probe_outcome import ProbeOutcome, closed_by_code
from programs.researcher import Researcher
from programs.reviewer import Reviewer
from programs.round_checks import check_draft
from programs.synthesiser import merge_parts
from retrieval.search.passages import DEFAULT_BUDGET
from retrieval.search.query import follow_up_query
from retrieval.search.tools import EquitySearchTool, page_hit
from retrieval.store import GridFilter
from signatures.probes import Probe
from signatures.reviewer import ReviewVerdict
from signatures.synthesiser import Figure, ProbeAnswer

logger = logging.getLogger(__name__)


@dataclass
class _ProbeRun:
    """One probe's rounds in progress: what each round hands the next."""

    question: str
    slice: SliceRef
    probe: Probe
    emit: EventEmitter
    tool: EquitySearchTool
    facts: FactTools
    #: The question's figure as the slice's statements hold it: a draft may not contradict it.
    figure: Figure | None = None
    rounds: list[dict[str, Any]] = field(default_factory=list)
    #: The last verified draft (kept when a later round fails).
    answer: CitedAnswer = field(default_factory=CitedAnswer)
    feedback: list[str] = field(default_factory=list)
    next_query: str = ""
    asked: str = ""  # every query searched so far, for follow_up_query
    insufficient: bool = False
    reason: str = ""
    pasted: ReviewVerdict | None = None  # the last draft pasted evidence: see _next_pages

    @property
    def label(self) -> str:
        return self.slice.label

    @property
    def title(self) -> str:
        return self.probe.probe_title


@dataclass
class ProbeLoop:
    """One probe's rounds (the stage contract: :class:`programs.stages.ProbeStage`)."""

    researcher: Researcher
    reviewer: Reviewer
    searcher: Any
    max_rounds: int = 5
    k: int = 5
    passage_chars: int = DEFAULT_BUDGET
    evidence_pages: int = 5
    evidence_chars: int = DEFAULT_BUDGET + 200
    figures: Figures | None = None

    def run(
        self,
        question: str,
        slice: SliceRef,
        probe: Probe,
        index: int,
        emit: EventEmitter | None = None,
    ) -> ProbeOutcome:
        """Close ``probe``: by code from statement facts if it can, else round by round,
        each round draft -> verify -> review -> stop or follow up."""
        emit = emit or EventEmitter(None)
        computed = self._computed_outcome(question, slice, probe, index, emit)
        if computed is None:
            computed = self._page_outcome(question, slice, probe, index, emit)
        if computed is not None:
            return computed
        run = self._start(question, slice, probe, emit)
        for number in range(1, self.max_rounds + 1):
            entry = self._new_round(run, number)
            raw = self._draft(run, entry, number)
            if raw is None:  # the researcher failed: closed, the last verified draft kept
                break
            verified = self._verify(run, entry, raw, number)
            verdict, queries = self._review(run, entry, verified, number)
            if self._stops(run, verdict, number):
                break
            self._follow_up(run, verdict, queries)
        return self._outcome(run, index)

    # -- the steps of a probe ----------------------------------------------------------------
    def _computed_outcome(
        self, question: str, slice: SliceRef, probe: Probe, index: int, emit: EventEmitter
    ) -> ProbeOutcome | None:
        """A figure probe closed from statement facts (None: the loop researches it)."""
        if self.figures is None or not self.figures.is_figure_probe(probe, question, slice):
            return None
        outcome = self._figure_outcome(question, slice, probe, index)
        if outcome is not None:
            emit.emit(
                "draft", slice.label, probe.probe_title, "computed from statement facts, no LM call"
            )
        return outcome

    def _start(self, question: str, slice: SliceRef, probe: Probe, emit: EventEmitter) -> _ProbeRun:
        """The probe's slice-locked search tool and number tools, and the slice's figure for
        the question (computed once, checked against every round's draft)."""
        computed = self.figures.answer(question, slice) if self.figures is not None else None
        tool = EquitySearchTool(
            self.searcher,
            lock=GridFilter(slice.ticker, slice.fy, slice.fq),
            default_k=self.k,
            max_chars=self.passage_chars,
        )
        facts = FactTools(
            self._slice_facts(slice),
            slice_period(slice),
            record=lambda uids: self._record_pages(tool, uids),
        )
        if computed:  # its pages are retrieved: the draft may cite them
            self._record_pages(tool, computed[1].uids)
        return _ProbeRun(
            question,
            slice,
            probe,
            emit,
            tool,
            facts,
            figure=computed[1] if computed else None,
            next_query=probe.probe_question,
            asked=probe.probe_question,
        )

    def _new_round(self, run: _ProbeRun, number: int) -> dict[str, Any]:
        """The round's record, its searches filled in as the researcher makes them."""
        entry: dict[str, Any] = {"round": number, "follow_up_prompts": list(run.feedback)}
        run.rounds.append(entry)
        entry["searches"] = []
        return entry

    def _draft(self, run: _ProbeRun, entry: dict[str, Any], number: int) -> str | None:
        """The researcher's Markdown for this round; None when it failed (the probe closes
        as insufficient evidence, the failure in the round's record)."""
        searches: list[dict[str, Any]] = entry["searches"]

        def on_search(query: str, hits: list[dict]) -> None:
            searches.append({"query": query, "uids": [h["uid"] for h in hits]})
            run.emit.emit("search", run.label, run.title, f"{query!r} -> {len(hits)} page(s)")

        skip = _next_pages(run, number)  # and if any, a fresh draft: see _next_pages
        # After a pasted draft, a fresh one too: its lead-in restated a page's line.
        fresh = skip or run.pasted
        previous = "" if fresh else numbered_markdown(run.answer, run.tool.numbers)
        feedback = [] if skip else run.feedback
        try:
            pred = self.researcher(
                tool=run.tool,
                on_search=on_search,
                fact_tools=run.facts,
                question=run.question,
                slice_label=run.label,
                probe_title=run.title,
                probe_question=run.probe.probe_question,
                previous_draft=previous,
                reviewer_feedback="\n".join(f"- {p}" for p in feedback),
                first_query=run.next_query,
                first_skip=skip,
                computed=[figure_observation(run.figure)] if run.figure else [],
            )
            return str(pred.answer_markdown or "")
        except Exception as exc:
            logger.warning("research failed on %s / %s: %s", run.label, run.title, exc)
            entry["error"] = f"{type(exc).__name__}: {exc}"[:500]
            run.insufficient = True
            run.reason = f"research failed in round {number} ({_short(exc)})"
            return None

    def _verify(
        self, run: _ProbeRun, entry: dict[str, Any], raw: str, number: int
    ) -> VerifiedDraft:
        """The draft checked against the probe's pages (:mod:`programs.round_checks`); it
        becomes the probe's answer."""
        checked = check_draft(
            raw,
            run.tool,
            run.probe.probe_question,
            run.slice,
            run.figure,
            self.figures,
            computed=run.facts.computed,
        )
        verified = checked.verified
        run.answer = answer = verified.answer
        run.pasted = checked.pasted
        entry.update(checked.record)
        attributed = verified.attributed_by_code
        run.emit.emit(
            "draft",
            run.label,
            run.title,
            f"round {number}: {len(answer.references)} citation(s), "
            f"{len(verified.fabricated)} fabricated removed"
            + (f", {attributed} sentence(s) cited by code" if attributed else ""),
        )
        return verified

    def _review(
        self, run: _ProbeRun, entry: dict[str, Any], verified: VerifiedDraft, number: int
    ) -> tuple[ReviewVerdict, list[str]]:
        """The reviewer's verdict under code's floor, and the new queries its follow-ups
        name (none: an unsatisfied reviewer with nothing new to search closes the probe)."""
        reviewed = self._reviewer_verdict(run, verified, number)
        verdict = floor_verdict(
            reviewed, run.answer, number, self.max_rounds, run.probe.probe_question
        )
        queries: list[str] = []
        if (
            verdict is reviewed
            and verdict is not run.pasted  # code's verdict: the same pages are read again
            and verdict.parsed
            and not verdict.done
            and run.answer.references.footnotes
        ):
            verdict, queries = _follow_up_queries(verdict, run.asked)
        entry["verdict"] = verdict.model_dump()
        run.emit.emit("verdict", run.label, run.title, verdict.describe(number))
        return verdict, queries

    def _reviewer_verdict(
        self, run: _ProbeRun, verified: VerifiedDraft, number: int
    ) -> ReviewVerdict:
        answer = run.answer
        if run.pasted and number < self.max_rounds:
            return run.pasted
        if not answer.body.strip() and number < self.max_rounds:
            return EMPTY_VERDICT  # nothing to review: a fresh draft, from the next pages
        if not answer.references.footnotes and number >= self.max_rounds:
            # An uncited draft in the last round closes as insufficient evidence whatever
            # a reviewer says (code's floor): no call to spend on it.
            return ReviewVerdict(
                done=True, insufficient_evidence=True, reason="draft cites no retrieved page"
            )
        return self.reviewer(
            question=run.question,
            slice_label=run.label,
            probe_question=run.probe.probe_question,
            draft=answer.to_markdown(),
            evidence=evidence_text(
                answer,
                run.tool.retrieved,
                self.evidence_pages,
                self.evidence_chars,
                run.probe.probe_question,
            ),
            verification=verification_text(verified.fabricated, verified.dangling_markers, answer),
            round_number=number,
            max_rounds=self.max_rounds,
        )

    def _stops(self, run: _ProbeRun, verdict: ReviewVerdict, number: int) -> bool:
        """Whether the probe closes after this round (and how)."""
        if verdict.done:
            run.insufficient = verdict.insufficient_evidence
            run.reason = verdict.reason if run.insufficient else ""
            return True
        if number == self.max_rounds:  # unreachable with the floor, kept as a backstop
            run.insufficient, run.reason = True, f"reviewer unsatisfied after {number} rounds"
            return True
        return False

    def _follow_up(self, run: _ProbeRun, verdict: ReviewVerdict, queries: list[str]) -> None:
        """The next round answers the reviewer's follow-ups, starting from their first query."""
        run.feedback = verdict.follow_up_prompts
        run.next_query = queries[0] if queries else run.probe.probe_question
        run.asked += " " + run.next_query

    def _outcome(self, run: _ProbeRun, index: int) -> ProbeOutcome:
        """The closed probe: its answer, the pages it retrieved, and its record."""
        rounds, answer, insufficient, reason = run.rounds, run.answer, run.insufficient, run.reason
        result = ProbeAnswer(
            index=index,
            probe_title=run.title,
            probe_question=run.probe.probe_question,
            answer=answer,
            insufficient_evidence=insufficient,
            reason=reason,
            rounds=len(rounds),
        )
        record = {
            "index": index,
            "title": run.title,
            "question": run.probe.probe_question,
            "status": "insufficient_evidence" if insufficient else "accepted",
            "reason": reason,
            "rounds": rounds,
            "fabricated_citations": sum(r.get("fabricated_citations", 0) for r in rounds),
            "searches": sum(len(r["searches"]) for r in rounds),
            "citations": [f.citation.uid for f in answer.references.footnotes],
        }
        return ProbeOutcome(answer=result, pages=dict(run.tool.retrieved), record=record)

    # -- the probe's tools and figures -------------------------------------------------------
    def _slice_facts(self, slice: SliceRef) -> list[Any]:
        """The slice's statement facts for the number tools; a store fault (``StoreFault``,
        not an ``Exception``) stops the run here as under a search; any other failure here
        fails the searches too, and those are recorded round by round, so none is kept back."""
        facts_of = getattr(self.searcher, "facts", None)  # a LockedSearcher has them
        if facts_of is None:
            return []
        try:
            return facts_of(slice)
        except Exception as exc:
            logger.warning("statement facts unavailable for %s: %s", slice.label, exc)
            return []

    def _record_pages(self, tool: EquitySearchTool, uids: Any) -> None:
        """Pages the number tools answered from count as retrieved, as searched pages do."""
        missing = [u for u in dict.fromkeys(uids) if u not in tool.retrieved]
        lookup = getattr(self.searcher, "pages_by_uid", None)
        for page in lookup(missing) if missing and lookup else []:
            tool.remember(page_hit(page))

    def _figure_outcome(
        self, question: str, slice: SliceRef, probe: Probe, index: int
    ) -> ProbeOutcome | None:
        """A figure probe closed by code: numbers read from facts need no researcher to copy
        them and no reviewer to check the copy; their pages count as retrieved."""
        assert self.figures is not None
        computed = self.figures.answer(question, slice)
        if computed is None:
            return None
        answer, figure = computed
        # The earlier years, from this filing's comparative columns, stated first.
        earlier = self.figures.years_before(question, slice)
        if earlier:
            answer, _ = merge_parts([*(a for a, _ in earlier), answer])
        figures = [figure, *(f for _, f in earlier)]
        uids = [uid for f in figures for uid in f.uids]
        pages = {p.uid: page_hit(p) for p in self.searcher.pages_by_uid(uids)}
        extra = {
            "figure": figure.model_dump(),
            "earlier_figures": [f.model_dump() for _, f in earlier],
        }
        return closed_by_code(probe, index, answer, pages, "statement facts", figures, extra)

    def _page_outcome(
        self, question: str, slice: SliceRef, probe: Probe, index: int, emit: EventEmitter
    ) -> ProbeOutcome | None:
        """The question's own probe, closed from a page that answers it in its own words (a
        cover page's registered securities, the one sentence on what drove a figure:
        :mod:`programs.page_answers`), with no model call."""
        if probe.probe_question != question or not asks_of_a_page(question):
            return None
        found = page_answer(
            question, slice, lambda query, where: self.searcher.search(query, where, k=self.k)
        )
        if found is None:
            return None
        page, answer, answered_by = found
        emit.emit("draft", slice.label, probe.probe_title, f"from {answered_by}, no LM call")
        return closed_by_code(probe, index, answer, {page.uid: page}, answered_by)


def _next_pages(run: _ProbeRun, number: int) -> list[str]:
    """The pages a round's first search passes over: after a draft that cited none of the
    pages it had, every page the probe has seen, so the round reads the next ones. That
    round searches the probe's question again (a follow-up is made a query only for a cited
    draft), and the same pages again gave the same uncited draft or a refusal. Over the next
    pages the draft starts afresh: shown the uncited draft, the model copied its claim (JPM's
    "Consumer & Community had the highest net income" beside the table that said otherwise);
    after a draft that pasted a page, the same pages are read again, that page first."""
    if number == 1 or run.answer.references.footnotes or run.pasted:
        return []
    return list(run.tool.retrieved)


def _follow_up_queries(verdict: ReviewVerdict, asked: str) -> tuple[ReviewVerdict, list[str]]:
    """The reviewer's own follow-ups, each as a new query; when none names anything the
    probe did not already search, the verdict closes the probe (its words kept under a
    dagger, as the last round would close it, rounds earlier)."""
    queries = [q for f in verdict.follow_up_prompts if (q := follow_up_query(f, asked))]
    if not queries:
        verdict = ReviewVerdict(
            done=True,
            insufficient_evidence=True,
            parsed=verdict.parsed,
            reason=verdict.reason or "the reviewer's follow-ups name nothing new to search",
        )
    return verdict, queries


def _short(exc: BaseException) -> str:
    """The exception for a reader: its class, and the message when it is one of ours.

    Our LM errors say what each model answered ("HTTP 500 after 3 retries"); other
    messages can be long or carry request details, so only their class is shown.
    """
    if isinstance(exc, LMUnavailable):
        return f"{type(exc).__name__}: {str(exc)[:200]}"
    return type(exc).__name__


def figure_observation(figure: Figure) -> dict[str, object]:
    """The slice's computed figure as a ``wissen_calculate`` result, for the researcher's
    evidence: its value, what it is and how it was computed, and the pages to cite."""
    formula = MARKER_RE.sub("", figure.formula).strip()
    what = f"{figure.title}, {figure.period}" + (f": {formula}" if formula else "")
    return {"value": figure.text, "formula": what, "cite_uids": list(figure.uids)}
