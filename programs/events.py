"""Progress events for live traces: what the program is doing, as it happens.

Events are emitted from worker threads; the emitter serialises observer calls so an
observer (a Rich live view, an MLflow logger) need not be thread-safe, and an observer that
raises is logged and ignored, because a broken progress display must never fail research.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

logger = logging.getLogger(__name__)

EventKind = Literal[
    "started",
    "planning",
    "plan",
    "slice_start",
    "probes",
    "search",
    "draft",
    "verdict",
    "slice_done",
    "report",
]


@dataclass(frozen=True)
class ResearchEvent:
    """One step of a research run."""

    kind: EventKind
    slice: str | None = None
    probe: str | None = None
    detail: str = ""
    elapsed: float = 0.0


Observer = Callable[[ResearchEvent], None]


class EventEmitter:
    """Stamps events with the run's elapsed time and hands them to the observer, if any."""

    def __init__(self, observer: Observer | None) -> None:
        self.observer = observer
        self.start = time.monotonic()
        self._lock = threading.Lock()

    def emit(
        self,
        kind: EventKind,
        slice: str | None = None,
        probe: str | None = None,
        detail: str = "",
    ) -> None:
        if self.observer is None:
            return
        event = ResearchEvent(kind, slice, probe, detail, round(time.monotonic() - self.start, 3))
        with self._lock:
            try:
                self.observer(event)
            except Exception:  # a progress display must never fail the run
                logger.exception("research observer failed on %s event", kind)
