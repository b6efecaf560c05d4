"""Starting a research run: what ``research ask`` and the web app both call.

A run goes through two steps. :func:`prepare_run` reads the request (a resume takes the
stored options back), checks the question, builds and checks every model, builds the
program over the grid and marks the run directory ``running``: anything wrong surfaces
here, as a :class:`~runs.errors.RunError`, before any LM call. :meth:`ResearchRun.execute`
then plans and researches with the run's models (optionally tracked in MLflow), saves
finished work to the run's checkpoint as it goes, writes ``report.md`` and ``run.json`` and
sets the final status. Its events go to :attr:`ResearchRun.events` (subscribe before
executing to see them all, or replay them later by index).

A request is a question (or a run to resume) and the run's :class:`~runs.settings.RunSettings`;
``meta.json`` records both, and a resume rebuilds them (:mod:`runs.resume`).
:mod:`runs.handles` executes prepared runs in background threads.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from programs.events import ResearchEvent
from runs.errors import BadRunRequest, RunFailed, StoreFailed
from runs.events import EventLog
from runs.program_choice import SHIPPED, choose_program
from runs.record import (
    agent_modules,
    distinct_lms,
    history_marks,
    lm_usage,
    report_metrics,
    run_record,
    usage_metrics,
)
from runs.redaction import redact
from runs.resume import recorded_options, resumable, resumed_settings
from runs.run_dir import FAILED, INTERRUPTED, RunDir, _now, new_run_id
from runs.settings import RunSettings, load_settings
from runs.tracking import (
    kill_run,
    prepare_tracking,
    program_version,
    trace_recorder,
    tracked_run,
)

if TYPE_CHECKING:
    from retrieval.open_store import SeedNotice

logger = logging.getLogger(__name__)

EXPERIMENT = "wissen-ask"
#: Seconds :meth:`ResearchRun.abandon` waits for a run's thread to finish opening its MLflow
#: run (milliseconds once the store exists: see :func:`prepare_run_tracking`).
OPEN_WAIT_SECONDS = 10.0


def prepare_run_tracking() -> None:
    """Ready MLflow for the tracked runs this process will start on other threads: the store,
    the runs' experiment, DSPy autologging (:func:`runs.tracking.prepare_tracking`)."""
    prepare_tracking(EXPERIMENT)


class RunInterrupted(KeyboardInterrupt):
    """Raised inside a run that was asked to stop (:meth:`ResearchRun.interrupt`).

    A KeyboardInterrupt, so everything that already handles Ctrl-C in ``research ask``
    handles it the same way: DSPy's callbacks end the open spans, :func:`tracked_run` ends
    the MLflow run as KILLED, the run directory's guard marks it ``interrupted``, and the
    program's ``except Exception`` backstops do not swallow it.
    """


@dataclass(frozen=True)
class ResearchRequest:
    """One run asked for: a question (or ``resume``, a run id) and the run's settings (the
    model and its resilience, the compiled program, the grid, the bounds, tracking)."""

    question: str | None = None
    settings: RunSettings = field(default_factory=load_settings)
    resume: str | None = None

    @classmethod
    def of(
        cls, question: str | None = None, resume: str | None = None, **given: Any
    ) -> ResearchRequest:
        """A request with ``given`` settings (None: not given) over the environment's, the
        config file's and the defaults (:func:`runs.settings.load_settings`)."""
        return cls(question=question, settings=load_settings(**given), resume=resume)


@dataclass
class RunResult:
    """A finished run: the report (without any front end's footer) and the record."""

    run_id: str
    path: Path
    report: str
    record: dict[str, Any]
    record_json: str
    usage: dict[str, Any]
    model: str
    failure: str | None  # set when LM calls were made and not one succeeded (redacted)
    program: str = "shipped"  # the prompts: shipped, optimised/default or a path
    saved_error: str | None = None  # report.md/run.json could not be written (run: failed)


def _resumed(request: ResearchRequest) -> tuple[ResearchRequest, RunDir | None]:
    """``request`` with a resumed run's question and research settings in place of its own."""
    if request.resume is None:
        return request, None
    previous = resumable(request.resume, request.question)
    question, settings = resumed_settings(previous, request.settings)
    return replace(request, question=question, settings=settings), previous


class ResearchRun:
    """A prepared run: models built and checked, program ready, directory marked running."""

    def __init__(
        self,
        request: ResearchRequest,
        question: str,
        models: Any,
        research: Any,
        run: RunDir,
        params: dict[str, Any],
        start: float,
    ) -> None:
        self.request = request
        self.question = question
        self.models = models
        self.research = research
        self.run = run
        self.params = params
        self.start = start
        self.events = EventLog()
        # The first event at once, before any model loads: a follower sees work has begun.
        self.events(
            ResearchEvent(
                "started",
                detail=f"run {run.run_id} · {params['model']} · prompts {params['program']}",
            )
        )
        research.observer = self._observe
        research.checkpoint = run.checkpoint
        self._lms = distinct_lms(research, models.lm)
        self._agents = agent_modules(research)
        self._marks = history_marks([*self._lms, *self._agents.values()])
        self.mlflow_run_id: str | None = None  # set once the tracked run has started
        self._traces = trace_recorder() if request.settings.track else None
        self._stop = threading.Event()
        self._opened = threading.Event()  # the MLflow run is open (or the run is untracked)
        self._ending = threading.Lock()  # the run's own ending and abandon(): one of them
        self._committed = False  # the research is done and its results are being written
        self._abandoned = False

    def _observe(self, event: Any) -> None:
        """The program's observer: the run's event log, and where a stopped run stops (every
        event is a point where the run's threads hold no half-written work)."""
        if self._stop.is_set():
            raise RunInterrupted(f"run {self.run_id} was stopped")
        self.events(event)

    def interrupt(self) -> None:
        """Ask the run to stop: the next event any of its threads emits raises
        :class:`RunInterrupted` there, which ends the run as Ctrl-C does. An LM call in
        progress is not cut short (see :meth:`abandon`)."""
        self._stop.set()

    def abandon(self) -> bool:
        """Record now that the run was stopped, for a run whose threads are still inside an
        LM call (the process is about to exit and will not wait for them): the run directory
        ``interrupted`` (a resume continues from the checkpoint), its MLflow run ``KILLED``
        with its trace ended, its event log closed. False, and nothing done, when the run
        had already finished its research and is writing its results."""
        self.interrupt()
        with self._ending:
            if self._committed or self._abandoned:
                return False
            self._abandoned = True
        if not self._opened.wait(OPEN_WAIT_SECONDS):  # an MLflow run opened later stays open
            logger.warning("run %s: its MLflow run was still being opened", self.run_id)
        try:
            self.run.update(status=INTERRUPTED, updated_at=_now())
        except OSError as exc:
            logger.warning("run %s: could not mark it interrupted: %s", self.run_id, exc)
        if self.mlflow_run_id is not None:
            try:
                kill_run(self.mlflow_run_id, self._traces.ids() if self._traces else ())
            except Exception as exc:  # the tracking store is gone: the run is still stopped
                logger.warning("run %s: could not end its MLflow run: %s", self.run_id, exc)
        self.events.close()
        return True

    def _commit(self) -> None:
        """From here the run writes its results; a run stopped before this point raises."""
        with self._ending:
            if self._stop.is_set():
                raise RunInterrupted(f"run {self.run_id} was stopped")
            self._committed = True

    @property
    def run_id(self) -> str:
        return self.run.run_id

    def execute(self) -> RunResult:
        """Research the question; the run directory ends ``completed`` or ``incomplete``,
        or ``failed``/``interrupted`` when this raises (``failed`` with
        :class:`~runs.errors.StoreFailed` when the grid's store failed mid-run)."""
        try:
            return self._execute()
        finally:
            self._opened.set()
            self.events.close()

    def _execute(self) -> RunResult:
        import dspy

        from programs.errors import PlanningError
        from retrieval.search.tools import StoreFault

        models, params, track = self.models, self.params, self.request.settings.track
        resilience = models.resilience
        tracking = (
            tracked_run(EXPERIMENT, self.run_id, params) if track else contextlib.nullcontext()
        )
        try:
            with self.run.guard(tracking) as tracked:  # a failed or interrupted run says so
                if tracked is not None:
                    self.mlflow_run_id = tracked.info.run_id
                self._opened.set()  # abandon() reads the id after this
                if self._stop.is_set():  # stopped while the MLflow run was being opened
                    raise RunInterrupted(f"run {self.run_id} was stopped")
                # Per-run DSPy settings go through dspy.context, never dspy.configure: this
                # may be any thread, and only DSPy's first configuring thread may configure.
                extra: dict[str, Any] = {}
                if self._traces is not None:
                    extra["callbacks"] = [*dspy.settings.callbacks, self._traces]
                with dspy.context(lm=models.lm, adapter=models.adapter, **extra):
                    prediction = self.research(
                        question=self.question,
                        company=self.request.settings.company,
                        period=self.request.settings.period,
                    )
                self._commit()
                metrics = report_metrics(prediction)
                usage = lm_usage(self._lms, self._marks, self._agents)
                record = run_record(prediction, params, usage, metrics, self.start)
                faults = resilience.record()
                record["lm_faults"] = {
                    k: redact(v) if isinstance(v, str) else v for k, v in faults.items()
                }
                if track:
                    import mlflow

                    mlflow.log_metrics({**metrics, **usage_metrics(usage)})
                    mlflow.log_text(prediction.report, "report.md")
                    mlflow.log_dict(record, "run.json")
        except PlanningError as exc:
            if failure := resilience.failure_message():  # the planner had no model to ask
                raise RunFailed(redact(f"{exc} ({failure})")) from None
            raise BadRunRequest(str(exc)) from None
        except StoreFault as exc:
            # The guard has marked the run failed (resumable: its finished work is
            # checkpointed). Probes still in flight on other threads stop at their next step
            # rather than spend LM calls on research that cannot reach the grid.
            self._stop.set()
            raise StoreFailed(str(exc), self.run_id) from None  # the store redacted it

        record_json = json.dumps(record, indent=2, default=str)
        saved_error = None
        try:
            self.run.write_results(prediction.report, record_json)
            self.run.finish(lm_calls=usage["lm_calls"])
        except OSError as exc:  # a full disk: the caller still gets the report to show
            saved_error = f"the run directory {self.run.path} could not be written: {exc}"
            with contextlib.suppress(OSError):
                self.run.update(status=FAILED, error=saved_error)
        failure = resilience.failure_message()
        return RunResult(
            run_id=self.run_id,
            path=self.run.path,
            report=prediction.report,
            record=record,
            record_json=record_json,
            usage=usage,
            model=params["model"],
            program=f"{params['program']} ({params['program_version']})",
            failure=redact(failure) if failure else None,
            saved_error=saved_error,
        )


def prepare_run(request: ResearchRequest, on_seed: SeedNotice | None = None) -> ResearchRun:
    """Check ``request`` and get everything ready; :class:`~runs.errors.RunError` if it cannot
    run (:class:`~runs.errors.RunAlreadyComplete` when resuming a finished run). ``on_seed``
    is told when the grid store is made from the bundled sample, after the request is checked,
    so a run refused for a bad setting does not announce a store it never makes."""
    from lm.agent_overrides import apply_agent_lms
    from lm.run_models import ModelSetupError, build_models
    from programs.question import EmptyQuestion, QuestionError, read_question
    from runs.research_setup import prepare_research

    request, previous = _resumed(request)
    settings = request.settings
    try:
        question = read_question(request.question)
    except EmptyQuestion:
        raise BadRunRequest("the question is empty: ask something about a listed company") from None
    except QuestionError as exc:
        raise BadRunRequest(str(exc)) from None
    try:
        models = build_models(
            settings.lm,
            settings.api_base,
            agents=settings.agents,
            fallbacks=list(settings.fallback_lm),
            lm_timeout=settings.lm_timeout,
            retries=settings.retries,
            backoff=settings.backoff,
            max_tokens=settings.max_tokens,
            max_calls=settings.max_calls,
            timeout=settings.timeout,
        )
    except ModelSetupError as exc:
        raise BadRunRequest(str(exc)) from None
    program = choose_program(settings.program)
    _, research = prepare_research(
        settings.store,
        program.path or SHIPPED,
        on_seed=on_seed,
        max_probes=settings.max_probes,
        max_rounds=settings.max_rounds,
        figures=settings.figures,
        web_sources=settings.web_sources,
        concurrency=settings.concurrency,
    )
    apply_agent_lms(research, models.overrides)
    start = time.perf_counter()
    run_id = previous.run_id if previous else new_run_id()
    params = {
        "model": redact(models.spec.describe()),
        "program": program.label,
        "program_version": program_version(research.dump_state()),
        "question": question,
        "max_probes": settings.max_probes,
        "max_rounds": settings.max_rounds,
        "run_id": run_id,
    }
    # A resume uses these prompts, whatever won since.
    chosen = settings.changed(program=program.path or Path(SHIPPED))
    options = recorded_options(question, chosen)
    meta = {**params, "options": options, "settings": research.settings.model_dump()}
    run = RunDir.start(run_id, meta)
    return ResearchRun(request, question, models, research, run, params, start)
