"""A request limiter for SEC's fair-access rule: at most N requests in any one second.

Why a sliding window and not a plain token bucket: a bucket of 10 tokens refilled at 10/s
lets 10 requests go at once and 9 more in the next 0.9 s, 19 in one second; SEC's rule is
"no more than 10 requests per second". Remembering the last N start times and waiting
until the oldest is a second old keeps every one-second window at N or fewer. The clock
and the sleep are injected so a test can check this without waiting.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

#: SEC's published limit (https://www.sec.gov/os/accessing-edgar-data).
SEC_MAX_REQUESTS_PER_SECOND = 10
#: Float slack: a start exactly one period ago (up to rounding) has left the window, so a
#: wait of a few ulps cannot repeat for ever when the clock cannot advance by that little.
_EPSILON_S = 1e-9


class RateLimiter:
    """Blocks in :meth:`acquire` until a request may start without breaking the limit."""

    def __init__(
        self,
        max_requests: int = SEC_MAX_REQUESTS_PER_SECOND,
        per_seconds: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if max_requests < 1 or per_seconds <= 0:
            raise ValueError("a rate limit needs at least one request per positive period")
        self.max_requests = max_requests
        self.per_seconds = per_seconds
        self._clock = clock
        self._sleep = sleep
        self._starts: deque[float] = deque()
        self._lock = threading.Lock()

    def acquire(self) -> float:
        """Wait until one more request fits the window, note its start; returns the wait."""
        waited = 0.0
        with self._lock:
            while True:
                now = self._clock()
                while self._starts and now - self._starts[0] >= self.per_seconds - _EPSILON_S:
                    self._starts.popleft()
                if len(self._starts) < self.max_requests:
                    self._starts.append(now)
                    return waited
                pause = self.per_seconds - (now - self._starts[0])
                self._sleep(pause)
                waited += pause
