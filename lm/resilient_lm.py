"""A `dspy.LM` that survives provider faults: retries, fallbacks, a call budget and a deadline.

`ResilientLM` is a `dspy.LM` (a copy of the model it wraps, so DSPy's adapters, capability
checks, cache keys and saved state see that model's own settings) whose `__call__`/`acall`
run DSPy 3.4's own three execution steps (`prepare`, `execute`, `finalize` in
`dspy.clients.execution`, what `BaseLM.__call__` runs, reached through
`lm.dspy_internals`) once per attempt, on the wrapped
model or a fallback, with DSPy's retries switched off (`num_retries=0`) so that every retry
is ours, counted and bounded:

- transient faults (HTTP 429 honouring `Retry-After` up to a cap, 5xx, timeouts, connection
  errors, unreadable bodies) are retried with exponential backoff and jitter, then the next
  model of the fallback chain is tried with the same policy; when all are spent the call
  raises `LMUnavailable`, whose message says what each model answered;
- a completion cut at max_tokens (`finish_reason="length"`) or with no content is retried
  once without the cache (and the good answer overwrites the cached bad one). A second
  empty one raises `UnusableOutput`; a second cut one is kept and handed to the adapter,
  which reads the fields it holds (a small model that pastes its evidence back runs into
  the limit after a sentence of answer, and failing the step threw that sentence away).
  A deterministic model gets no retry: the same prompt gives the same cut. An answer that
  does not parse is the adapter's business: `ChatAdapter` already retries it once in JSON
  (its JSONAdapter fallback), and `UnusableOutput` is deliberately not an
  `AdapterParseError`, so an empty answer's retries and the adapter's never stack;
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
never make them. API keys stay where `lm.language_models` keeps them: in the
environment, read by the client. What counts as a fault is `lm.faults`; the policy, bounds
and counters are `lm.policies`.
"""

from __future__ import annotations

import asyncio
import copy
import math
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import dspy

from lm.dspy_internals import (
    LM_CLASS_STATE_KEY,
    aexecute_call,
    execute_call,
    finalize_call,
    prepare_call,
    store_in_cache,
    streaming,
    with_callbacks,
)
from lm.faults import (
    EMPTY,
    TRUNCATED,
    BadOutput,
    CallBudgetExceeded,
    LMUnavailable,
    RunDeadlineExceeded,
    UnusableOutput,
    describe_fault,
    fault_kind,
    output_fault,
    retry_after,
)
from lm.policies import FaultStats, RetryPolicy, RunGuard

# `copy()` settings that belong to the wrapped model alone, never to its fallbacks.
_PRIMARY_ONLY = frozenset(
    {"model", "engine", "async_engine", "api_key", "api_base", "base_url", "provider"}
)


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
        streaming_now = streaming()
        self.retries = 0 if streaming_now else lm.policy.retries
        self.output_retries = 0 if streaming_now else lm.policy.output_retries
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
        """Check a completed attempt: count it, and raise `BadOutput` for a cut/empty one."""
        if result.cache_hit:
            self.guard.release()
            self.stats.add(requests=-1, cache_hits=1)
        kind = output_fault(result)
        if kind == TRUNCATED and self.output_retries <= 0:
            # No retry left (or none worth making): what arrived is the answer. The adapter
            # reads the fields it holds; a cut last field is the agent's checks' business,
            # and a reply cut before its fields still fails, as a parse error.
            self.stats.fault(kind)
            self.stats.add(cut_kept=1)
        elif kind is not None:
            raise BadOutput(kind)
        if self.fresh and self.kwargs.get("cache", member.cache):
            # The bad answer the first attempt cached must not greet the next run too.
            store_in_cache(member, replace(call, cache=True), result, asynchronous)
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
                call = prepare_call(member, prompt, messages, sent)
                result = execute_call(member, call)
                state.accept(member, call, result, asynchronous=False)
            except Exception as exc:
                time.sleep(state.failed(exc))
                continue
            return finalize_call(member, call, result)

    @with_callbacks
    async def acall(self, prompt: Any = None, *, messages: Any = None, **kwargs: Any) -> Any:
        state = _Call(self, kwargs)
        while True:
            member, sent = state.begin()
            try:
                call = await asyncio.to_thread(
                    prepare_call, member, prompt, messages, sent, asynchronous=True
                )
                result = await aexecute_call(member, call)
                state.accept(member, call, result, asynchronous=True)
            except Exception as exc:
                await asyncio.sleep(state.failed(exc))
                continue
            return finalize_call(member, call, result)

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


__all__ = ["ResilientLM", "RunResilience"]
