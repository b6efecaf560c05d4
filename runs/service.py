"""Starting a research run: what ``research ask`` and the web app both call.

A run goes through two steps. :func:`prepare_run` reads the request (a resume takes the
stored options back), checks the question, builds and checks every model, builds the
program over the grid and marks the run directory ``running``: anything wrong surfaces
here, as a :class:`~runs.errors.RunError`, before any LM call. :meth:`ResearchRun.execute`
then plans and researches with the run's models (optionally tracked in MLflow), saves
finished work to the run's checkpoint as it goes, writes ``report.md`` and ``run.json`` and
sets the final status. Its events go to :attr:`ResearchRun.events` (subscribe before
executing to see them all, or replay them later by index).

:func:`start_run` does both, executing in a background thread, and returns a
:class:`RunHandle`; handles stay findable by run id (:func:`active_run`) in this process.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from runs.errors import BadRunRequest, RunFailed
from runs.events import EventLog
from runs.record import (
    agent_modules,
    distinct_lms,
    history_marks,
    lm_usage,
    report_metrics,
    run_record,
    usage_metrics,
)
from runs.redaction import REDACTED, redact
from runs.resume import research_options, resumable, stored_options
from runs.run_dir import FAILED, RunDir, new_run_id
from runs.tracking import program_version, tracked_run

logger = logging.getLogger(__name__)

EXPERIMENT = "wissen-ask"


@dataclass(frozen=True)
class ResearchRequest:
    """Everything that shapes one run: a question (or ``resume``, a run id), the model and its
    resilience settings, the compiled program, the grid, the bounds, and MLflow tracking."""

    question: str | None = None
    lm: str | None = None
    api_base: str | None = None
    agents: Path | None = None
    program: Path | None = None
    store: Path | None = None
    max_probes: int = 5
    max_rounds: int = 5
    figures: bool = True  # figure questions answered from statement facts
    concurrency: int = 8
    track: bool = True
    fallback_lm: tuple[str, ...] = ()
    max_calls: int | None = None
    timeout: float | None = None
    lm_timeout: float = 120.0
    retries: int = 3
    backoff: float = 0.5
    max_tokens: int | None = None
    resume: str | None = None


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
    saved_error: str | None = None  # report.md/run.json could not be written (run: failed)


def _resumed(request: ResearchRequest) -> tuple[ResearchRequest, RunDir | None]:
    """``request`` with a resumed run's stored options in place of its own."""
    if request.resume is None:
        return request, None
    previous = resumable(request.resume, request.question)
    stored = stored_options(previous)
    api_base = request.api_base or stored["api_base"]  # the server may have moved
    if api_base and REDACTED in api_base:
        raise BadRunRequest("the run's --api-base held credentials, never stored: give it again")
    names = ("question", "lm", "agents", "program", "store", "max_probes", "max_rounds")
    resumed = replace(
        request,
        api_base=api_base,
        figures=stored.get("figures", True),  # runs from before the option had figures on
        **{name: stored[name] for name in names},
    )
    return resumed, previous


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
        research.observer = self.events
        research.checkpoint = run.checkpoint
        self._lms = distinct_lms(research, models.lm)
        self._agents = agent_modules(research)
        self._marks = history_marks([*self._lms, *self._agents.values()])

    @property
    def run_id(self) -> str:
        return self.run.run_id

    def execute(self) -> RunResult:
        """Research the question; the run directory ends ``completed`` or ``incomplete``,
        or ``failed``/``interrupted`` when this raises."""
        try:
            return self._execute()
        finally:
            self.events.close()

    def _execute(self) -> RunResult:
        import dspy

        from programs.errors import PlanningError

        models, params, track = self.models, self.params, self.request.track
        resilience = models.resilience
        tracking = (
            tracked_run(EXPERIMENT, self.run_id, params) if track else contextlib.nullcontext()
        )
        try:
            with self.run.guard(tracking):  # a run that fails or is interrupted says so
                with dspy.context(lm=models.lm, adapter=models.adapter):
                    prediction = self.research(question=self.question)
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
            failure=redact(failure) if failure else None,
            saved_error=saved_error,
        )


def prepare_run(request: ResearchRequest) -> ResearchRun:
    """Check ``request`` and get everything ready; :class:`~runs.errors.RunError` if it cannot
    run (:class:`~runs.errors.RunAlreadyComplete` when resuming a finished run)."""
    from lm.agent_overrides import apply_agent_lms
    from lm.run_models import ModelSetupError, build_models
    from programs.question import EmptyQuestion, QuestionError, read_question
    from runs.research_setup import prepare_research

    request, previous = _resumed(request)
    try:
        question = read_question(request.question)
    except EmptyQuestion:
        raise BadRunRequest("the question is empty: ask something about a listed company") from None
    except QuestionError as exc:
        raise BadRunRequest(str(exc)) from None
    try:
        models = build_models(
            request.lm,
            request.api_base,
            agents=request.agents,
            fallbacks=list(request.fallback_lm),
            lm_timeout=request.lm_timeout,
            retries=request.retries,
            backoff=request.backoff,
            max_tokens=request.max_tokens,
            max_calls=request.max_calls,
            timeout=request.timeout,
        )
    except ModelSetupError as exc:
        raise BadRunRequest(str(exc)) from None
    _, research = prepare_research(
        request.store,
        request.program,
        max_probes=request.max_probes,
        max_rounds=request.max_rounds,
        figures=request.figures,
        concurrency=request.concurrency,
    )
    apply_agent_lms(research, models.overrides)
    start = time.perf_counter()
    run_id = previous.run_id if previous else new_run_id()
    params = {
        "model": redact(models.spec.describe()),
        "program_version": program_version(research.dump_state()),
        "question": question,
        "max_probes": request.max_probes,
        "max_rounds": request.max_rounds,
        "run_id": run_id,
    }
    options = research_options(
        question=question,
        lm=request.lm,
        api_base=request.api_base,
        agents=request.agents,
        program=request.program,
        store=request.store,
        max_probes=request.max_probes,
        max_rounds=request.max_rounds,
        figures=request.figures,
    )
    meta = {**params, "options": options, "settings": research.settings.model_dump()}
    run = RunDir.start(run_id, meta)
    return ResearchRun(request, question, models, research, run, params, start)


class RunHandle:
    """A run executing in a background thread of this process."""

    def __init__(self, run: ResearchRun) -> None:
        self.run = run
        self.result: RunResult | None = None
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._work, name=f"run-{run.run_id}", daemon=True)

    def _work(self) -> None:
        try:
            self.result = self.run.execute()
        except BaseException as exc:  # recorded in meta.json by the run; kept for callers
            logger.warning("run %s ended with an error: %s", self.run_id, exc)
            self.error = exc

    @property
    def run_id(self) -> str:
        return self.run.run_id

    @property
    def events(self) -> EventLog:
        return self.run.events

    @property
    def done(self) -> bool:
        return not self._thread.is_alive() and self.run.events.closed

    @property
    def status(self) -> str:
        """The run directory's status: ``running`` until the thread has finished."""
        current = RunDir.open(self.run_id)
        return current.status if current else self.run.run.status

    def wait(self, timeout: float | None = None) -> RunResult | None:
        """The result once the run is over (None on timeout or when it failed: see ``error``)."""
        self._thread.join(timeout)
        return self.result


_ACTIVE: dict[str, RunHandle] = {}
_ACTIVE_LOCK = threading.Lock()


def start_run(request: ResearchRequest) -> RunHandle:
    """Prepare in this thread (errors raise here, before the run exists or any LM call) and
    execute in a background thread; the handle's events can be followed at once."""
    handle = RunHandle(prepare_run(request))
    with _ACTIVE_LOCK:
        _ACTIVE[handle.run_id] = handle
    handle._thread.start()
    return handle


def active_run(run_id: str) -> RunHandle | None:
    """The handle of a run this process started with :func:`start_run`, finished or not."""
    with _ACTIVE_LOCK:
        return _ACTIVE.get(run_id)
