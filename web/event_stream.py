"""A run's trace as server-sent events, with ``id:`` lines and replay from ``Last-Event-ID``.

Event ``n`` of a run has id ``n`` (0, 1, 2, …), the same index the run service gives it, so
a browser that reconnects with ``Last-Event-ID: 41`` gets events 42 onwards and nothing
twice. The stream ends with one ``end`` event carrying the run's final status. A client
that goes away only stops its own stream: the run goes on in the run service.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

POLL_SECONDS = 0.2
KEEPALIVE_SECONDS = 15.0


@dataclass
class EventBatch:
    """Events after an index, and whether the run has finished (no more will come)."""

    events: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    finished: bool = False
    status: str = ""


def sse(event: str, data: dict[str, Any], event_id: int | None = None) -> str:
    """One server-sent event; JSON data is one line, so no field can break the framing."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def last_event_id(header: str | None, after: int | None) -> int:
    """The index of the last event the client has: the header wins over ``?after=``."""
    for value in (header, after):
        try:
            if value is not None and int(value) >= -1:
                return int(value)
        except (TypeError, ValueError):
            continue
    return -1


async def event_stream(
    read: Callable[[int], EventBatch],
    after: int,
    disconnected: Callable[[], Any],
) -> AsyncIterator[str]:
    """Events after index ``after`` as SSE text, as they happen, then ``end``.

    ``read(after)`` must not block (the run service answers from memory); the stream polls
    it, so no thread waits on a quiet run.
    """
    yield "retry: 1000\n\n"
    last_sent = time.monotonic()
    while True:
        batch = read(after)
        for index, data in batch.events:
            yield sse("trace", data, index)
            after = index
            last_sent = time.monotonic()
        if batch.finished:
            yield sse("end", {"status": batch.status})
            return
        if await disconnected():
            return
        if time.monotonic() - last_sent > KEEPALIVE_SECONDS:
            yield ": keep-alive\n\n"
            last_sent = time.monotonic()
        await asyncio.sleep(POLL_SECONDS)
