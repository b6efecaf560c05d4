"""SliceScheduler: every slice's stages on one bounded pool, driven from the calling thread.

A slice's probes are submitted as soon as its probe list exists and its synthesis as soon
as its last probe closes, so a multi-slice report costs about its critical path rather
than the sum of its parts, and no worker ever blocks on another (no nested pools, no
deadlock at any ``concurrency``). Each task runs inside ``contextvars.copy_context()``
taken in the submitting thread, so ``dspy.context`` overrides and every other context
variable (callback ancestry, MLflow's active span) follow the work into the worker.

Each stage ends in one handler (``_probes_ready``, ``_probe_closed``, ``_slice_done``)
whether its result came from a worker or from the checkpoint, so a resumed run takes the
same path as a fresh one and makes no LM call for finished work. A stage's checkpoint is
used only if everything it was built from was restored too (a probe list regenerated, or a
probe rerun, invalidates what came after it). Fresh results are checkpointed in this
thread, in the order they finish, except a probe or a synthesis that ended on an error (an
LM that was down, a spent call budget): a resume tries those again.

The stages themselves (probe generation, the probe loop, synthesis) are handed in; their
contracts are in :mod:`programs.stages`.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

import dspy

from domain.cells import SliceRef
from programs.checkpoints import Checkpoint
from programs.events import EventEmitter
from programs.probe_loop import ProbeOutcome
from programs.probes import question_probe
from programs.synthesiser import merge_parts
from signatures.probes import Probe
from signatures.synthesiser import ProbeAnswer, SliceReport


@dataclass
class SliceState:
    """Scheduler book-keeping for one slice."""

    ref: SliceRef
    probes: list[Probe] = field(default_factory=list)
    outcomes: dict[int, ProbeOutcome] = field(default_factory=dict)
    probe_error: str | None = None
    report: SliceReport | None = None
    synthesis: dict[str, Any] = field(default_factory=dict)
    # Some stage of this slice ran in this process: its later stages' checkpoints were built
    # from other inputs and are not used.
    recomputed: bool = False


#: (question, slice) -> Prediction(probes, error)
GenerateProbes = Callable[[str, SliceRef], dspy.Prediction]
#: (question, slice, probe, index, emit) -> the closed probe
RunProbe = Callable[[str, SliceRef, Probe, int, EventEmitter], ProbeOutcome]
#: (question, slice state) -> Prediction(slice_report, summary_words, fabricated_citations, error)
Synthesise = Callable[[str, SliceState], dspy.Prediction]


class SliceScheduler:
    """One run's slices, from probe generation to synthesis, on one pool."""

    def __init__(
        self,
        question: str,
        emit: EventEmitter,
        saved: Checkpoint,
        concurrency: int,
        generate_probes: GenerateProbes,
        run_probe: RunProbe,
        synthesise: Synthesise,
    ) -> None:
        self.question = question
        self.emit = emit
        self.saved = saved
        self.concurrency = concurrency
        self.generate_probes = generate_probes
        self.run_probe = run_probe
        self.synthesise = synthesise
        self._pending: dict[Future, tuple[str, SliceState, int]] = {}
        self._pool: ThreadPoolExecutor | None = None

    def run(self, slices: Sequence[SliceRef]) -> list[SliceState]:
        """Start every slice, then handle finished work until none is pending."""
        states = [SliceState(ref) for ref in slices]
        self._pool = ThreadPoolExecutor(max_workers=self.concurrency, thread_name_prefix="research")
        try:
            for state in states:
                self._start_slice(state)
            while self._pending:
                self._handle_finished()
        finally:
            self._pool.shutdown(wait=not self._pending, cancel_futures=True)
        return states

    # -- submitting and collecting ---------------------------------------------------------
    def _submit(
        self, kind: str, state: SliceState, j: int, fn: Callable[..., Any], *args: Any
    ) -> None:
        # A fresh copy of the submitter's context per task: dspy.context overrides and
        # callback/tracing context variables follow the work into the worker thread.
        assert self._pool is not None  # run() opened it
        ctx = contextvars.copy_context()
        self._pending[self._pool.submit(ctx.run, fn, *args)] = (kind, state, j)

    def _handle_finished(self) -> None:
        """Wait for the next finished task(s) and pass each result to its stage's handler."""
        done, _ = wait(list(self._pending), return_when=FIRST_COMPLETED)
        for future in done:
            kind, state, j = self._pending.pop(future)
            state.recomputed = True
            if kind == "probes":
                self._probes_generated(state, future)
            elif kind == "probe":
                self._probe_finished(state, j, future)
            else:
                self._synthesis_finished(state, future)

    def _probes_generated(self, state: SliceState, future: Future) -> None:
        state.probes, state.probe_error = _probes_of(future, self.question)
        self.saved.save_probes(state.ref, state.probes, state.probe_error)
        self._probes_ready(state)

    def _probe_finished(self, state: SliceState, j: int, future: Future) -> None:
        outcome = _outcome_of(future, state.probes[j - 1], j)
        if not _errored(outcome):
            self.saved.save_probe(state.ref, j, outcome)
        self._probe_closed(state, j, outcome)

    def _synthesis_finished(self, state: SliceState, future: Future) -> None:
        state.report, state.synthesis = _synthesis_of(future, state)
        if _whole(state):
            self.saved.save_slice(state.ref, state.report, state.synthesis)
        self._slice_done(state)

    # -- each stage's end, fresh or restored -----------------------------------------------
    def _start_slice(self, state: SliceState) -> None:
        self.emit.emit("slice_start", state.ref.label)
        probes = self.saved.load_probes(state.ref)
        if probes is None:
            self._submit("probes", state, 0, self.generate_probes, self.question, state.ref)
        else:
            state.probes, state.probe_error = probes
            self._probes_ready(state, restored=True)

    def _probes_ready(self, state: SliceState, restored: bool = False) -> None:
        titles = "; ".join(p.probe_title for p in state.probes)
        self.emit.emit("probes", state.ref.label, detail=titles + restored_suffix(restored))
        for j, probe in enumerate(state.probes, 1):
            outcome = None if state.recomputed else self.saved.load_probe(state.ref, j)
            if outcome is None:
                args = (self.question, state.ref, probe, j, self.emit)
                self._submit("probe", state, j, self.run_probe, *args)
            else:
                self._probe_closed(state, j, outcome)

    def _probe_closed(self, state: SliceState, j: int, outcome: ProbeOutcome) -> None:
        state.outcomes[j] = outcome
        if len(state.outcomes) < len(state.probes):
            return
        synthesised = None if state.recomputed else self.saved.load_slice(state.ref)
        if synthesised is None:
            self._submit("synth", state, 0, self.synthesise, self.question, state)
        else:
            state.report, state.synthesis = synthesised
            self._slice_done(state, restored=True)

    def _slice_done(self, state: SliceState, restored: bool = False) -> None:
        report = state.report
        detail = f"{len(report.citations)} citation(s)" + (
            f"; open: {'; '.join(report.open_issues)}" if report.open_issues else ""
        )
        self.emit.emit("slice_done", state.ref.label, detail=detail + restored_suffix(restored))


def restored_suffix(restored: bool) -> str:
    return " (from checkpoint)" if restored else ""


def _probes_of(future: Future, question: str) -> tuple[list[Probe], str | None]:
    try:
        pred = future.result()
        return list(pred.probes), pred.error
    except Exception as exc:  # ProbeGenerator already falls back; backstop
        return [question_probe(question)], f"{type(exc).__name__}: {exc}"


def _outcome_of(future: Future, probe: Probe, index: int) -> ProbeOutcome:
    try:
        return future.result()
    except Exception as exc:  # ProbeLoop never raises; backstop
        return _failed_probe(probe, index, exc)


def _synthesis_of(future: Future, state: SliceState) -> tuple[SliceReport, dict[str, Any]]:
    try:
        pred = future.result()
    except Exception as exc:  # the synthesiser catches LM errors; backstop
        return _unsynthesised(state), {"error": f"{type(exc).__name__}: {exc}"[:500]}
    synthesis = {
        "summary_words": pred.summary_words,
        "fabricated_citations": pred.fabricated_citations,
        "error": pred.error,
    }
    return pred.slice_report, synthesis


def _errored(outcome: ProbeOutcome) -> bool:
    """Whether a probe closed because something raised, rather than on the evidence."""
    rounds = outcome.record.get("rounds", [])
    return bool(outcome.record.get("error")) or any("error" in r for r in rounds)


def _whole(state: SliceState) -> bool:
    """A synthesis worth keeping: it, and every probe it summarises, ended without error."""
    return not state.synthesis.get("error") and not any(map(_errored, state.outcomes.values()))


def _failed_probe(probe: Probe, index: int, exc: BaseException) -> ProbeOutcome:
    reason = f"probe failed ({type(exc).__name__})"
    answer = ProbeAnswer(
        index=index,
        probe_title=probe.probe_title,
        probe_question=probe.probe_question,
        insufficient_evidence=True,
        reason=reason,
    )
    record = {
        "index": index,
        "title": probe.probe_title,
        "question": probe.probe_question,
        "status": "insufficient_evidence",
        "reason": reason,
        "error": f"{type(exc).__name__}: {exc}"[:500],
        "rounds": [],
        "fabricated_citations": 0,
        "searches": 0,
        "citations": [],
    }
    return ProbeOutcome(answer=answer, record=record)


def _unsynthesised(state: SliceState) -> SliceReport:
    """A slice report from the probe answers alone, so finished research is never lost."""
    answers = [state.outcomes[i].answer for i in sorted(state.outcomes)]
    merged, parts = merge_parts([a.answer for a in answers])
    return SliceReport(
        slice=state.ref,
        answer=merged,
        open_issues=[a.open_issue for a in answers if a.open_issue],
        probe_answers=[
            a.model_copy(update={"answer": part}) for a, part in zip(answers, parts, strict=True)
        ],
        retrieved_uids=sorted({uid for o in state.outcomes.values() for uid in o.pages}),
    )
