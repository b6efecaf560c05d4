"""How hard a run tries its language models: the retry policy, the run-wide bounds, the counters.

:class:`RetryPolicy` says how often and how long to wait; :class:`RunGuard` holds the call
budget (``--max-calls``) and the deadline (``--timeout``) that every LM of a run shares;
:class:`FaultStats` counts what happened for the run record. All three are shared across
threads and survive DSPy's deep copies and pickling as the same run's objects.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from lm.faults import CallBudgetExceeded, RunDeadlineExceeded


@dataclass(frozen=True)
class RetryPolicy:
    """How hard to try one model before the next.

    `retries` transient faults are retried per model; waits grow from `backoff` seconds,
    doubling, capped at `max_backoff`, each drawn between half and all of that (jitter, so
    eight threads hit by one outage do not retry in lockstep). A server's `Retry-After` is
    honoured instead, up to `retry_after_cap`. `output_retries` is how often a truncated or
    empty completion is asked for again (0 for a deterministic local model, where the same
    prompt gives the same output).
    """

    retries: int = 3
    backoff: float = 0.5
    max_backoff: float = 20.0
    retry_after_cap: float = 30.0
    output_retries: int = 1

    def delay(self, failures: int, retry_after: float | None) -> float:
        """Seconds to wait before retry number `failures` (1-based)."""
        if retry_after is not None:
            return min(retry_after, self.retry_after_cap)
        ceiling = min(self.max_backoff, self.backoff * 2 ** (failures - 1))
        return random.uniform(ceiling / 2, ceiling)


class RunGuard:
    """The run-wide bounds: at most `max_calls` requests, none after `timeout` seconds.

    Shared by every LM of a run (and by their copies: deep copies return the same guard),
    so the budget is the run's, not a model's. A request's slot is taken before it is sent,
    under a lock, so eight threads never overshoot the budget; a cache hit gives it back.
    """

    def __init__(self, max_calls: int | None = None, timeout: float | None = None) -> None:
        self.max_calls = max_calls
        self.timeout = timeout
        self.started = time.monotonic()
        self.used = 0
        self._lock = threading.Lock()

    def remaining(self) -> float | None:
        """Seconds left before the deadline (None without one)."""
        if self.timeout is None:
            return None
        return self.timeout - (time.monotonic() - self.started)

    def reserve(self) -> None:
        """Take one request slot, or raise the bound that is spent."""
        left = self.remaining()
        if left is not None and left <= 0:
            raise RunDeadlineExceeded(f"run deadline of {self.timeout:g} s passed")
        with self._lock:
            if self.max_calls is not None and self.used >= self.max_calls:
                raise CallBudgetExceeded(f"LM call budget of {self.max_calls} calls used up")
            self.used += 1

    def release(self) -> None:
        """Give back a slot that cost nothing (the answer came from the cache)."""
        with self._lock:
            self.used -= 1

    def describe(self) -> dict[str, Any]:
        return {"max_calls": self.max_calls, "calls_used": self.used, "timeout_s": self.timeout}

    def __deepcopy__(self, memo: dict) -> RunGuard:
        return self  # one run, one budget

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_lock"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()


class FaultStats:
    """What the LMs of a run did: calls, requests, retries, fallbacks, faults by kind."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.faults: Counter[str] = Counter()
        self.served_by: Counter[str] = Counter()
        self.backoff_s = 0.0
        self.last_error: str | None = None
        self._lock = threading.Lock()

    def add(self, **counts: int) -> None:
        with self._lock:
            self.counts.update(counts)

    def fault(self, kind: str) -> None:
        with self._lock:
            self.faults[kind] += 1

    def waited(self, seconds: float) -> None:
        with self._lock:
            self.backoff_s += seconds

    def served(self, model: str) -> None:
        with self._lock:
            self.counts["succeeded"] += 1
            self.served_by[model] += 1

    def failed(self, message: str) -> None:
        with self._lock:
            self.counts["failed"] += 1
            self.last_error = message

    @property
    def all_failed(self) -> bool:
        """True when calls were made and not one of them got an answer."""
        return self.counts["calls"] > 0 and self.counts["succeeded"] == 0

    def snapshot(self) -> dict[str, Any]:
        """A JSON-ready summary for the run record."""
        with self._lock:
            names = ("calls", "requests", "cache_hits", "succeeded", "failed")
            return {
                **{name: self.counts[name] for name in names},
                "retries": self.counts["retries"],
                "cut_kept": self.counts["cut_kept"],
                "fallbacks": self.counts["fallbacks"],
                "backoff_s": round(self.backoff_s, 3),
                "faults": dict(sorted(self.faults.items())),
                "served_by": dict(self.served_by),
                "last_error": self.last_error,
            }

    def __deepcopy__(self, memo: dict) -> FaultStats:
        return self

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_lock"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()


__all__ = ["FaultStats", "RetryPolicy", "RunGuard"]
