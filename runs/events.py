"""A run's progress events, kept in order so any number of readers can follow them.

The research program emits :class:`programs.events.ResearchEvent` values to one observer;
a run's :class:`EventLog` is that observer. It keeps every event with its index, hands each
new one to its subscribers (the command line's trace printer, a web page's stream), and lets
a reader that arrives late replay from any index and then wait for more, until the run ends
and the log is closed. Thread-safe: the program emits from worker threads, readers read from
their own.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator

from programs.events import ResearchEvent

logger = logging.getLogger(__name__)

Subscriber = Callable[[ResearchEvent], None]


class EventLog:
    """Every event of one run, in order; a callable, so it can be the program's observer."""

    def __init__(self) -> None:
        self._events: list[ResearchEvent] = []
        self._subscribers: list[Subscriber] = []
        self._changed = threading.Condition()
        self._closed = False

    def __call__(self, event: ResearchEvent) -> None:
        """Record ``event`` and hand it to every subscriber (one that raises is logged)."""
        with self._changed:
            self._events.append(event)
            subscribers = list(self._subscribers)
            self._changed.notify_all()
            for subscriber in subscribers:  # under the lock: each sees events in order
                _deliver(subscriber, event)

    def subscribe(self, subscriber: Subscriber, since: int = 0) -> Callable[[], None]:
        """Give ``subscriber`` the events from index ``since`` on, then each new one as it
        comes; returns the function that unsubscribes it. No event is missed or repeated
        between the replay and the live ones."""
        with self._changed:
            for event in self._events[since:]:
                _deliver(subscriber, event)
            self._subscribers.append(subscriber)

        def unsubscribe() -> None:
            with self._changed:
                if subscriber in self._subscribers:
                    self._subscribers.remove(subscriber)

        return unsubscribe

    def events(self, since: int = 0) -> list[ResearchEvent]:
        """The events from index ``since`` on, as they stand now."""
        with self._changed:
            return self._events[since:]

    def __len__(self) -> int:
        with self._changed:
            return len(self._events)

    def wait(self, since: int, timeout: float | None = None) -> list[ResearchEvent]:
        """The events from index ``since`` on, waiting up to ``timeout`` seconds for one if
        there are none yet; an empty list once the log is closed (or on timeout)."""
        with self._changed:
            self._changed.wait_for(lambda: len(self._events) > since or self._closed, timeout)
            return self._events[since:]

    def follow(self, since: int = 0, poll: float = 1.0) -> Iterator[tuple[int, ResearchEvent]]:
        """``(index, event)`` from ``since`` on, blocking for new ones until the log closes."""
        index = since
        while True:
            batch = self.wait(index, timeout=poll)
            for event in batch:
                yield index, event
                index += 1
            if not batch and self.closed:
                return

    def close(self) -> None:
        """The run is over: no more events; waiting readers wake up."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    @property
    def closed(self) -> bool:
        with self._changed:
            return self._closed


def _deliver(subscriber: Subscriber, event: ResearchEvent) -> None:
    try:
        subscriber(event)
    except Exception:  # one broken reader must not starve the others or fail the run
        logger.exception("run event subscriber failed on %s event", event.kind)


def event_dict(index: int, event: ResearchEvent) -> dict[str, object]:
    """An event as JSON (for a web stream): its index, kind, where and what."""
    return {
        "index": index,
        "kind": event.kind,
        "slice": event.slice,
        "probe": event.probe,
        "detail": event.detail,
        "elapsed": event.elapsed,
    }
