"""What a language-model fault is: the errors a run's LM calls end in, and how to read one.

A provider fault arrives as one of DSPy's typed exceptions; :func:`fault_kind` sorts it into
the transient kinds a retry can cure (rate limit, 5xx, timeout, connection, unreadable body)
or None (a bad key, a rejected request: the same again would fail the same way).
:func:`output_fault` reads a completion that arrived but cannot be used (cut at max_tokens,
or empty). ``lm.resilient_lm`` decides what to do about each.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from lm import dspy_internals as dspy_api

# Fault kinds a retry can cure, and the two kinds of unusable output.
TRANSIENT = ("rate_limit", "server_error", "timeout", "connection", "bad_response")
TRUNCATED, EMPTY = "truncated", "empty"


# ── errors ─────────────────────────────────────────────────────────────────────────────────


class LMUnavailable(RuntimeError):
    """No usable answer from any model; the message says why, for logs and run records."""


class CallBudgetExceeded(LMUnavailable):
    """The run's LM call budget (`--max-calls`) is spent; raised before any request."""


class RunDeadlineExceeded(LMUnavailable):
    """The run's wall-clock deadline (`--timeout`) has passed; raised before any request."""


class UnusableOutput(LMUnavailable):
    """The model answered with no content, also when asked again."""


class BadOutput(Exception):
    """One truncated or empty completion (decides a retry inside ``ResilientLM``, never escapes)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


# ── reading faults ───────────────────────────────────────────────────────────────────────


def fault_kind(exc: BaseException) -> str | None:
    """The transient fault `exc` is (one of TRANSIENT), or None when retrying cannot help."""
    if isinstance(exc, BadOutput):
        return exc.kind
    if isinstance(exc, dspy_api.LMRateLimitError):
        return "rate_limit"
    if isinstance(exc, dspy_api.LMTimeoutError):
        return "timeout"
    if isinstance(exc, dspy_api.LMTransportError):
        return "connection"
    if isinstance(
        exc, dspy_api.LMAuthError | dspy_api.LMBillingError | dspy_api.LMInvalidRequestError
    ):
        return None  # a key, quota or request problem (or a context window): same again
    if isinstance(exc, dspy_api.LMServerError) or (
        isinstance(exc, dspy_api.LMProviderError) and (exc.status or 0) >= 500
    ):
        return "server_error"
    if isinstance(exc, dspy_api.LMProviderError) and (exc.status is None or exc.status < 400):
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
        value = dspy_api.legacy_output_value
        reasons = [value(c, "finish_reason") for c in value(raw, "choices", []) or []]
    if "length" in reasons:
        return TRUNCATED
    for output in result.outputs or [None]:
        text = output.get("text") if isinstance(output, Mapping) else output
        calls = output.get("tool_calls") if isinstance(output, Mapping) else None
        if not (text and str(text).strip()) and not calls:
            return EMPTY
    return None


__all__ = [
    "EMPTY",
    "TRANSIENT",
    "TRUNCATED",
    "BadOutput",
    "CallBudgetExceeded",
    "LMUnavailable",
    "RunDeadlineExceeded",
    "UnusableOutput",
    "describe_fault",
    "fault_kind",
    "output_fault",
    "retry_after",
]
