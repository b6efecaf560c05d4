"""A `dspy.LM` that survives provider faults: retries, fallbacks, a call budget and a deadline.

`ResilientLM` is a `dspy.LM` (a copy of the model it wraps, so DSPy's adapters, capability
checks, cache keys and saved state see that model's own settings) whose `__call__`/`acall`
run DSPy 3.4's own three execution steps (`prepare`, `execute`, `finalize` in
`dspy.clients.execution`, what `BaseLM.__call__` runs) once per attempt, on the wrapped
model or a fallback, with DSPy's retries switched off (`num_retries=0`) so that every retry
is ours, counted and bounded:

- transient faults (HTTP 429 honouring `Retry-After` up to a cap, 5xx, timeouts, connection
  errors, unreadable bodies) are retried with exponential backoff and jitter, then the next
  model of the fallback chain is tried with the same policy; when all are spent the call
  raises `LMUnavailable`, whose message says what each model answered;
- a completion cut at max_tokens (`finish_reason="length"`) or with no content is retried
  once without the cache (and the good answer overwrites the cached bad one); a second bad
  one raises `UnusableOutput`. An answer that arrives whole but does not parse is the
  adapter's business: `ChatAdapter` already retries it once in JSON (its JSONAdapter
  fallback), and `UnusableOutput` is deliberately not an `AdapterParseError`, so the two
  retries never stack;
- a run-wide `RunGuard` (call budget, wall-clock deadline) is checked before every request:
  once spent, calls raise `CallBudgetExceeded` / `RunDeadlineExceeded` at once, with no
  network, and each request's timeout is cut to the time left;
- other errors (a bad key, a rejected request, a context window exceeded, which ReAct
  handles itself) propagate unchanged.

Every agent already turns an exception from its LM into a closed, flagged result (the
probe loop closes the probe as insufficient evidence with the error, the reviewer fails
closed), so a faulted run degrades to daggers instead of crashing or hanging. Counters for
the run record live in a shared `FaultStats`. Successful calls are recorded in this LM's
`history` whichever model served them (fallbacks write into the same list), so usage
accounting is unchanged. Thread-safe: per-call state is local, the shared guard and counters
take a lock. Calls made through `lm.forward()` directly bypass all this; DSPy's adapters
never make them. API keys stay where `programs.language_models` keeps them: in the
environment, read by the client.
"""

from __future__ import annotations

import asyncio
import copy
import math
import random
import threading
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import dspy
from dspy.clients import execution
from dspy.clients.base_lm import LM_CLASS_STATE_KEY
from dspy.utils.callback import with_callbacks
from dspy.utils.exceptions import (
    LMAuthError,
    LMBillingError,
    LMInvalidRequestError,
    LMProviderError,
    LMRateLimitError,
    LMServerError,
    LMTimeoutError,
    LMTransportError,
)

# Fault kinds a retry can cure, and the two kinds of unusable output.
TRANSIENT = ("rate_limit", "server_error", "timeout", "connection", "bad_response")
TRUNCATED, EMPTY = "truncated", "empty"
# `copy()` settings that belong to the wrapped model alone, never to its fallbacks.
_PRIMARY_ONLY = frozenset(
    {"model", "engine", "async_engine", "api_key", "api_base", "base_url", "provider"}
)


# ── errors ─────────────────────────────────────────────────────────────────────────────────


class LMUnavailable(RuntimeError):
    """No usable answer from any model; the message says why, for logs and run records."""


class CallBudgetExceeded(LMUnavailable):
    """The run's LM call budget (`--max-calls`) is spent; raised before any request."""


class RunDeadlineExceeded(LMUnavailable):
    """The run's wall-clock deadline (`--timeout`) has passed; raised before any request."""


class UnusableOutput(LMUnavailable):
    """The model answered, twice, with output cut at max_tokens or with no content."""


class _BadOutput(Exception):
    """One truncated or empty completion (internal: decides a retry, never escapes)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


# ── policy, guard and counters ────────────────────────────────────────────────────────────


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


# ── reading faults ───────────────────────────────────────────────────────────────────────


def fault_kind(exc: BaseException) -> str | None:
    """The transient fault `exc` is (one of TRANSIENT), or None when retrying cannot help."""
    if isinstance(exc, _BadOutput):
        return exc.kind
    if isinstance(exc, LMRateLimitError):
        return "rate_limit"
    if isinstance(exc, LMTimeoutError):
        return "timeout"
    if isinstance(exc, LMTransportError):
        return "connection"
    if isinstance(exc, LMAuthError | LMBillingError | LMInvalidRequestError):
        return None  # a key, quota or request problem (or a context window): same again
    if isinstance(exc, LMServerError) or (
        isinstance(exc, LMProviderError) and (exc.status or 0) >= 500
    ):
        return "server_error"
    if isinstance(exc, LMProviderError) and (exc.status is None or exc.status < 400):
        return "bad_response"  # no status, or a success status with a body no client reads
    return None


def retry_after(exc: BaseException) -> float | None:
    """The server's `Retry-After`, in seconds, wherever the client chain kept it.

    DSPy copies it onto its error for most SDKs; for LiteLLM's hosted_vllm route it stays
    in the LiteLLM exception's `litellm_response_headers`, so the cause chain is searched.
    """
    seen: BaseException | None = exc
    for _ in range(8):  # a cause chain is short; the bound only guards against odd ones
        if seen is None:
            return None
        value = getattr(seen, "retry_after", None)
        if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0:
            return float(value)
        for headers in (
            getattr(seen, "litellm_response_headers", None),
            getattr(getattr(seen, "response", None), "headers", None),
        ):
            seconds = _header_seconds(headers)
            if seconds is not None:
                return seconds
        seen = seen.__cause__ or seen.__context__
    return None


def _header_seconds(headers: Any) -> float | None:
    if not headers or not hasattr(headers, "items"):
        return None
    found = {str(k).lower(): v for k, v in headers.items()}
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        try:
            seconds = float(found[name]) / scale
        except (KeyError, TypeError, ValueError):
            continue
        if math.isfinite(seconds) and seconds >= 0:
            return seconds
    return None


def describe_fault(exc: BaseException, kind: str | None = None) -> str:
    """A short reason for messages: `HTTP 500`, `timed out`, `truncated output`, …"""
    kind = kind or fault_kind(exc)
    status = getattr(exc, "status", None)
    return {
        "rate_limit": "HTTP 429 (rate limited)",
        "server_error": f"HTTP {status}",
        "timeout": "timed out",
        "connection": "connection failed",
        "bad_response": f"unreadable response (HTTP {status})" if status else "unreadable response",
        TRUNCATED: "truncated output (finish_reason=length)",
        EMPTY: "empty output",
    }.get(kind or "", f"{type(exc).__name__}: {exc}"[:200])


def output_fault(result: Any) -> str | None:
    """`truncated` when a completion stopped at max_tokens, `empty` when one has no content."""
    reasons = [getattr(r, "finish_reason", None) for r in getattr(result, "responses", ())]
    raw = getattr(result, "raw", None)
    if not reasons and raw is not None:
        from dspy.clients.legacy_outputs import value

        reasons = [value(c, "finish_reason") for c in value(raw, "choices", []) or []]
    if "length" in reasons:
        return TRUNCATED
    for output in result.outputs or [None]:
        text = output.get("text") if isinstance(output, Mapping) else output
        calls = output.get("tool_calls") if isinstance(output, Mapping) else None
        if not (text and str(text).strip()) and not calls:
            return EMPTY
    return None


# ── one call ─────────────────────────────────────────────────────────────────────────────


class _Call:
    """The decisions of one logical LM call: which model next, whether to wait, when to stop.

    Shared by the sync and async paths, which only differ in how they wait.
    """

    def __init__(self, lm: ResilientLM, kwargs: dict[str, Any]) -> None:
        self.lm, self.guard, self.stats = lm, lm.guard, lm.stats
        self.kwargs = kwargs
        self.members = lm.members
        self.index = 0
        self.failures = 0
        # A streamed answer must never be replayed: one attempt, as DSPy itself does.
        streaming = dspy.settings.send_stream is not None
        self.retries = 0 if streaming else lm.policy.retries
        self.output_retries = 0 if streaming else lm.policy.output_retries
        self.fresh = False  # the next attempt skips the cache (after a bad cached answer)
        self.notes: list[str] = []  # one per model given up on
        self.last_fault: str | None = None
        self.stats.add(calls=1)

    @property
    def member(self) -> dspy.LM:
        return self.members[self.index]

    def begin(self) -> tuple[dspy.LM, dict[str, Any]]:
        """Take a request slot and give the model to ask and the keyword arguments to send."""
        try:
            self.guard.reserve()
        except LMUnavailable as exc:
            raise self._give_up(type(exc), str(exc)) from None
        self.stats.add(requests=1)
        kwargs = dict(self.kwargs)
        timeout = self._cut_timeout()
        if timeout is not None:
            kwargs["timeout"] = timeout
        if self.fresh:
            kwargs["cache"] = False
        return self.member, kwargs

    def _cut_timeout(self) -> float | None:
        """The request timeout cut to the run's time left, when that is shorter.

        Whole seconds (rounded up): the native client keeps one connection pool per timeout
        value, so a handful of values, not one per request (and DSPy's cache key includes
        the timeout, so only these last calls miss the cache). Custom engines (the
        in-process model) take no client settings and are only stopped between calls.
        """
        left = self.guard.remaining()
        member = self.member
        if left is None or not isinstance(member.engine, str):
            return None
        own = member.kwargs.get("timeout")
        cut = float(max(1, math.ceil(left)))
        return cut if own is None or cut < float(own) else None

    def accept(self, member: dspy.LM, call: Any, result: Any, asynchronous: bool) -> None:
        """Check a completed attempt: count it, and raise `_BadOutput` for a cut/empty one."""
        if result.cache_hit:
            self.guard.release()
            self.stats.add(requests=-1, cache_hits=1)
        kind = output_fault(result)
        if kind is not None:
            raise _BadOutput(kind)
        if self.fresh and self.kwargs.get("cache", member.cache):
            # The bad answer the first attempt cached must not greet the next run too.
            execution._store(member, replace(call, cache=True), result, asynchronous)
        self.stats.served(member.model)

    def failed(self, exc: Exception) -> float:
        """Seconds to wait before the next attempt; raises when there is none to make."""
        kind = fault_kind(exc)
        if kind is None:
            self.stats.fault("rejected")
            self.stats.failed(f"{type(exc).__name__}: {exc}"[:300])
            raise exc
        self.stats.fault(kind)
        self.last_fault = f"{describe_fault(exc, kind)} from {self.member.model}"
        if kind in (TRUNCATED, EMPTY):
            return self._output_retry(kind)
        return self._transient_retry(exc, kind)

    def _output_retry(self, kind: str) -> float:
        if self.output_retries <= 0:
            retried = self.lm.policy.output_retries - self.output_retries
            again = f", also after {retried} retry" if retried else ""
            message = f"LM output unusable: {self.last_fault}{again}"
            raise self._give_up(UnusableOutput, message) from None
        self.output_retries -= 1
        self.fresh = True
        self.stats.add(retries=1)
        return 0.0

    def _transient_retry(self, exc: Exception, kind: str) -> float:
        if self.failures < self.retries:
            self.failures += 1
            self.stats.add(retries=1)
            wait = self.lm.policy.delay(self.failures, retry_after(exc))
            left = self.guard.remaining()
            if left is not None and wait >= left:
                message = f"run deadline of {self.guard.timeout:g} s passed"
                raise self._give_up(RunDeadlineExceeded, message) from exc
            self.stats.waited(wait)
            return wait
        self.notes.append(self._note(describe_fault(exc, kind)))
        if self.index + 1 < len(self.members):
            self.index += 1
            self.failures = 0
            self.stats.add(fallbacks=1)
            return 0.0
        raise self._give_up(LMUnavailable, "LM unavailable " + "; ".join(self.notes)) from exc

    def _note(self, reason: str) -> str:
        tries = f"{self.retries} retr{'y' if self.retries == 1 else 'ies'}"
        model = self.member.model
        if self.index == 0:
            return f"after {tries}: {reason} ({model})"
        return f"fallback {model}: {reason} after {tries}"

    def _give_up(self, cls: type[LMUnavailable], message: str) -> LMUnavailable:
        """The exception that ends this call; a bound's message names the last fault too."""
        if issubclass(cls, CallBudgetExceeded | RunDeadlineExceeded) and self.last_fault:
            message += f" (last fault: {self.last_fault})"
        self.stats.failed(message)
        return cls(message)


# ── the LM ────────────────────────────────────────────────────────────────────────────────


def _member(lm: dspy.LM, history: list) -> dspy.LM:
    """A shallow copy of `lm` that makes one attempt per call and logs into `history`."""
    member = copy.copy(lm)  # LM.__copy__: the same engine and connection pools
    member.kwargs = dict(lm.kwargs)
    member.callbacks = list(lm.callbacks)
    member.num_retries = 0
    member.history = history
    return member


class ResilientLM(dspy.LM):
    """`primary` with retries, fallbacks and run bounds; otherwise exactly `primary`.

    Construction adopts a copy of `primary`'s state (model, settings, engine, cache), so to
    DSPy this object is that model; `fallbacks` are tried in order once a model's retries
    are spent. `guard` and `stats` are meant to be shared by every LM of a run.
    """

    def __init__(
        self,
        primary: dspy.LM,
        fallbacks: Iterable[dspy.LM] = (),
        *,
        policy: RetryPolicy | None = None,
        guard: RunGuard | None = None,
        stats: FaultStats | None = None,
    ) -> None:
        self.__dict__.update(_member(primary, []).__dict__)
        self.policy = policy or RetryPolicy()
        self.guard = guard or RunGuard()
        self.stats = stats or FaultStats()
        self.fallbacks = tuple(_member(lm, self.history) for lm in fallbacks)
        # What a saved program records: the wrapped model, as if unwrapped.
        self._saved_as = (
            f"{type(primary).__module__}.{type(primary).__qualname__}",
            primary.num_retries,
        )

    @property
    def members(self) -> tuple[dspy.LM, ...]:
        """The models to try, in order: this one, then the fallbacks."""
        return (self, *self.fallbacks)

    @with_callbacks
    def __call__(self, prompt: Any = None, *, messages: Any = None, **kwargs: Any) -> Any:
        state = _Call(self, kwargs)
        while True:
            member, sent = state.begin()
            try:
                call = execution.prepare(member, prompt, messages, sent)
                result = execution.execute(member, call)
                state.accept(member, call, result, asynchronous=False)
            except Exception as exc:
                time.sleep(state.failed(exc))
                continue
            return execution.finalize(member, call, result)

    @with_callbacks
    async def acall(self, prompt: Any = None, *, messages: Any = None, **kwargs: Any) -> Any:
        state = _Call(self, kwargs)
        while True:
            member, sent = state.begin()
            try:
                call = await asyncio.to_thread(
                    execution.prepare, member, prompt, messages, sent, asynchronous=True
                )
                result = await execution.aexecute(member, call)
                state.accept(member, call, result, asynchronous=True)
            except Exception as exc:
                await asyncio.sleep(state.failed(exc))
                continue
            return execution.finalize(member, call, result)

    def copy(self, **kwargs: Any) -> ResilientLM:
        """A copy with its own history; generation settings apply to the fallbacks too."""
        copied = super().copy(**kwargs)
        shared = {k: v for k, v in kwargs.items() if k not in _PRIMARY_ONLY}
        copied.fallbacks = tuple(
            _member(fallback.copy(**shared), copied.history) for fallback in self.fallbacks
        )
        return copied

    def dump_state(self) -> dict[str, Any]:
        """The wrapped model's state: saved programs (and their version hash) ignore the policy."""
        state = super().dump_state()
        state[LM_CLASS_STATE_KEY], state["num_retries"] = self._saved_as
        return state


@dataclass
class RunResilience:
    """What the LMs of one run share: the retry policy, the bounds, the counters, the fallbacks."""

    policy: RetryPolicy = field(default_factory=RetryPolicy)
    guard: RunGuard = field(default_factory=RunGuard)
    stats: FaultStats = field(default_factory=FaultStats)
    fallbacks: tuple[dspy.LM, ...] = ()

    def wrap(
        self, lm: dspy.LM, *, retries: int | None = None, deterministic: bool = False
    ) -> ResilientLM:
        """`lm` under the run's policy, falling back to the chain (less `lm`'s own model).

        `retries` overrides the policy's for this model (an agent's own setting). A
        deterministic model (the in-process one) is never asked twice for an output it cut
        or left empty: the same prompt would give the same output, minutes later.
        """
        policy = self.policy if retries is None else replace(self.policy, retries=retries)
        if deterministic:
            policy = replace(policy, output_retries=0)
        fallbacks = [f for f in self.fallbacks if f.model != lm.model]
        return ResilientLM(lm, fallbacks, policy=policy, guard=self.guard, stats=self.stats)

    def record(self) -> dict[str, Any]:
        """The run record's `lm_faults`: counters, bounds and the chain."""
        return {
            **self.stats.snapshot(),
            **self.guard.describe(),
            "retries_per_model": self.policy.retries,
            "fallback_models": [f.model for f in self.fallbacks],
        }

    def failure_message(self) -> str | None:
        """One line for the user when LM calls were made and not one got an answer."""
        if not self.stats.all_failed:
            return None
        n = self.stats.counts["requests"]
        attempts = f"{n} attempt" + ("" if n == 1 else "s")
        return f"no language model call succeeded ({attempts}): {self.stats.last_error}"


__all__ = [
    "CallBudgetExceeded",
    "FaultStats",
    "LMUnavailable",
    "ResilientLM",
    "RetryPolicy",
    "RunDeadlineExceeded",
    "RunGuard",
    "RunResilience",
    "UnusableOutput",
    "describe_fault",
    "fault_kind",
    "output_fault",
    "retry_after",
]
