"""The web app's side of the run service: start, resume and follow runs, a few at a time.

Runs are started with ``runs.handles.start_run`` (``research ask`` prepares the same way), on a
background thread of the server process: a browser that closes its tab, or reloads, leaves
the run going. Each run researches with the CLI's bounds (``concurrency`` workers for its
slices and probes, ``research ask``'s default 8); at most ``max_runs`` go at once (one by
default, as in one terminal; more only untracked, since MLflow's autolog is process-wide),
and an Ask beyond that is refused with a message saying so (a queued run would sit marked
``running`` with nothing running).

With tracking on, MLflow's DSPy autologging is turned on here, once, in the thread that
builds the app (``research serve``'s main thread): it configures DSPy, which only the
thread that configured it first may do again, and every run has a thread of its own.
Stopping the server stops the runs still going (:meth:`RunControl.close`), as Ctrl-C stops
``research ask``'s: each reads ``interrupted`` (Resume continues it) and its MLflow run
``KILLED``, its trace ended, instead of ``RUNNING`` forever.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from retrieval.store_location import StoreLocation
from runs.settings import field_default
from web.ask_form import AskForm, AskRefused, program_path
from web.event_stream import EventBatch

logger = logging.getLogger(__name__)

#: ``research ask --concurrency``'s default: workers per run for its slices and probes.
CLI_CONCURRENCY: int = field_default("concurrency")
#: Seconds a stopping server gives its runs to stop by themselves (at their next event)
#: before recording them stopped: an LM call in progress is not waited for.
STOP_GRACE_SECONDS = 2.0


class TooManyRuns(AskRefused):
    """``max_runs`` runs are going; the message says how many and what to do."""


class ServerStopping(TooManyRuns):
    """The server is shutting down: no run starts now."""


class RunControl:
    """Starts runs over one store and keeps the handles of those it started."""

    def __init__(
        self,
        store: StoreLocation | str | Path | None,
        max_runs: int = 1,
        concurrency: int = CLI_CONCURRENCY,
        track: bool = True,
        stop_grace: float = STOP_GRACE_SECONDS,
    ) -> None:
        from lm.language_models import DEFAULT_LOCAL_MODEL

        self.store = store
        self.limit = max_runs
        self.concurrency = concurrency
        self.track = track
        self.stop_grace = stop_grace
        self.default_model = DEFAULT_LOCAL_MODEL
        self._handles: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._closed = False
        if track:
            from runs.tracking import enable_autolog

            enable_autolog()

    def _going(self, besides: str | None = None) -> int:
        """Runs still going, ``besides`` left out: a run asked to resume holds no slot of its
        own (its thread may still be closing after its record says complete, and a run
        really still going is refused by the run service as such)."""
        return sum(1 for rid, h in self._handles.items() if not h.done and rid != besides)

    def _start(self, **request) -> str:
        """Start a run (errors of the run service pass through, before any LM call)."""
        from runs.handles import start_run
        from runs.service import ResearchRequest

        with self._lock:  # the count and the start together: no two Asks take the last slot
            if self._closed:
                raise ServerStopping("this server is stopping: ask again once it is back")
            if (going := self._going(besides=request.get("resume"))) >= self.limit:
                raise TooManyRuns(
                    f"this server runs {self.limit} at a time and {going} "
                    f"{'is' if going == 1 else 'are'} going (research serve --max-runs): "
                    "ask again when one has finished"
                )
            handle = start_run(
                ResearchRequest.of(
                    store=self.store, concurrency=self.concurrency, track=self.track, **request
                )
            )
            self._handles[handle.run_id] = handle
            return handle.run_id

    def start(self, form: AskForm) -> str:
        """Start researching ``form``'s question; returns the run id at once."""
        from runs.errors import RunError

        try:
            return self._start(
                question=form.question,
                lm=form.lm,
                program=program_path(form.program),
                max_probes=form.max_probes,
                max_rounds=form.max_rounds,
                company=form.company,
                period=form.period,
                web_sources=form.web_sources,
            )
        except RunError as exc:
            raise AskRefused(str(exc)) from None

    def resume(self, run_id: str) -> str:
        """Continue ``run_id``; LookupError if there is no such run, ValueError if it cannot
        be resumed (still running). A complete run is left as it is: its report is there."""
        from runs.errors import RunAlreadyComplete, RunError, UnknownRun

        try:
            return self._start(resume=run_id)
        except UnknownRun as exc:
            raise LookupError(str(exc)) from None
        except RunAlreadyComplete:
            return run_id
        except RunError as exc:
            raise ValueError(str(exc)) from None

    def knows(self, run_id: str) -> bool:
        """Whether this server started ``run_id`` (so its events are here to stream)."""
        with self._lock:
            return run_id in self._handles

    def read_events(self, run_id: str, after: int) -> EventBatch:
        """Events with index > ``after`` (never blocks), and whether the run has ended."""
        from runs.events import event_dict

        with self._lock:
            handle = self._handles[run_id]
        finished = handle.events.closed  # read first: once closed, every event is in
        start = after + 1
        events = handle.events.events(start)
        return EventBatch(
            [(start + i, event_dict(start + i, e)) for i, e in enumerate(events)],
            finished,
            handle.status if finished else "running",
        )

    def close(self) -> list[str]:
        """Stop the runs still going, before the process exits and their threads with it.

        Each is interrupted and given ``stop_grace`` seconds to stop by itself; one still
        inside an LM call is then recorded as stopped: ``interrupted`` in its run directory
        (its checkpoint lets ``Resume`` continue it), ``KILLED`` in MLflow with its trace
        ended, its event stream closed. Starts nothing afterwards. Returns the ids of the
        runs it stopped (none on a second call; not those that finished meanwhile).
        """
        from runs.handles import stop_runs

        with self._lock:
            if self._closed:
                return []
            self._closed = True
            handles = list(self._handles.values())
        stopped = stop_runs(handles, self.stop_grace)
        for run_id in stopped:
            logger.info("stopped run %s in flight", run_id)
        return stopped
