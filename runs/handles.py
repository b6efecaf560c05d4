"""Runs executing in background threads of this process: what the web app starts and stops.

:func:`start_run` prepares a run (:func:`runs.service.prepare_run`) and executes it in a
background thread, returning a :class:`RunHandle`; handles stay findable by run id
(:func:`active_run`) in this process. :func:`stop_runs` stops such runs as Ctrl-C stops
``research ask``'s (a server that is shutting down): the run directory reads
``interrupted`` and its MLflow run ``KILLED``.
"""

from __future__ import annotations

import logging
import threading
import time

from runs.events import EventLog
from runs.run_dir import RunDir
from runs.service import ResearchRequest, ResearchRun, RunInterrupted, RunResult, prepare_run

logger = logging.getLogger(__name__)


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
        except RunInterrupted as exc:  # stopped on purpose: recorded as interrupted
            logger.info("run %s stopped", self.run_id)
            self.error = exc
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

    @property
    def alive(self) -> bool:
        """Whether the run's thread is still going (an abandoned run's may be, for a while)."""
        return self._thread.is_alive()


def stop_runs(handles: list[RunHandle], grace: float) -> list[str]:
    """Stop ``handles``' runs, as Ctrl-C stops ``research ask``'s: for a process (a server)
    about to exit, whose run threads die with it and could not record that themselves.

    Each run is interrupted; one that has not ended within ``grace`` seconds (its threads
    are inside LM calls, which are not cut short) is abandoned: marked interrupted, its
    MLflow run KILLED and trace ended, as its own thread would have. Returns the ids of
    the runs stopped (not those that finished meanwhile).
    """
    going = [handle for handle in handles if handle.alive]
    for handle in going:
        handle.run.interrupt()
    deadline = time.monotonic() + grace
    for handle in going:
        handle.wait(max(0.0, deadline - time.monotonic()))
    stopped = []
    for handle in going:
        if handle.run.abandon() if handle.alive else isinstance(handle.error, RunInterrupted):
            stopped.append(handle.run_id)
    return stopped


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
