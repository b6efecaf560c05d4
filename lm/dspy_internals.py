"""The one place that reaches below DSPy's public surface (``dspy.LM``, ``dspy.Module``, ...).

The project leans on a handful of DSPy 3.4 internals: the three execution steps of
``BaseLM.__call__`` (so ``ResilientLM`` can retry and fall back per attempt), the
``dspy.lm15`` request/response types a custom engine speaks, ReAct's trajectory-truncating
step, the ``_compiled`` flag optimisers skip, and a few exception and helper types kept in
sub-modules. Importing them here, and only here, means a DSPy upgrade that moves or renames
one fails at import of this module, and ``tests/test_dspy_internals.py`` checks each one's
shape, so the break is loud and points at this file instead of surfacing mid-run.
"""

from __future__ import annotations

from typing import Any

import dspy
from dspy.clients import execution as _execution
from dspy.clients.base_lm import LM_CLASS_STATE_KEY
from dspy.clients.engines.base import validate_request
from dspy.clients.legacy_outputs import value as legacy_output_value
from dspy.lm15 import (
    ConfigurationError,
    ContextLengthError,
    InvalidRequestError,
    Message,
    Request,
    Response,
    TextPart,
    Usage,
    response_to_events,
)
from dspy.utils.callback import with_callbacks
from dspy.utils.exceptions import (
    AdapterParseError,
    ContextWindowExceededError,
    LMAuthError,
    LMBillingError,
    LMInvalidRequestError,
    LMProviderError,
    LMRateLimitError,
    LMServerError,
    LMTimeoutError,
    LMTransportError,
)

# What ``BaseLM.__call__``/``acall`` run, one step at a time.
prepare_call = _execution.prepare
execute_call = _execution.execute
aexecute_call = _execution.aexecute
finalize_call = _execution.finalize


def store_in_cache(lm: dspy.LM, call: Any, result: Any, asynchronous: bool) -> None:
    """Write ``result`` into DSPy's cache under ``call`` (``execution._store``): a good answer
    overwrites the bad one an earlier attempt cached."""
    _execution._store(lm, call, result, asynchronous)


def react_step(react: dspy.ReAct, predictor: dspy.Module, trajectory: dict, **inputs: Any) -> Any:
    """One ReAct predictor call that drops the oldest steps when the context overflows
    (``ReAct._call_with_potential_trajectory_truncation``)."""
    return react._call_with_potential_trajectory_truncation(predictor, trajectory, **inputs)


def set_frozen(module: dspy.Module, frozen: bool) -> None:
    """Hide ``module``'s predictors from optimisers, or show them again: DSPy's
    ``named_parameters`` skips sub-modules whose ``_compiled`` flag is set."""
    module._compiled = frozen


def streaming() -> bool:
    """Whether DSPy is streaming the current call (``settings.send_stream``): a streamed
    answer must never be asked for twice."""
    return dspy.settings.send_stream is not None


__all__ = [
    "LM_CLASS_STATE_KEY",
    "AdapterParseError",
    "ConfigurationError",
    "ContextLengthError",
    "ContextWindowExceededError",
    "InvalidRequestError",
    "LMAuthError",
    "LMBillingError",
    "LMInvalidRequestError",
    "LMProviderError",
    "LMRateLimitError",
    "LMServerError",
    "LMTimeoutError",
    "LMTransportError",
    "Message",
    "Request",
    "Response",
    "TextPart",
    "Usage",
    "aexecute_call",
    "execute_call",
    "finalize_call",
    "legacy_output_value",
    "prepare_call",
    "react_step",
    "response_to_events",
    "set_frozen",
    "store_in_cache",
    "streaming",
    "validate_request",
    "with_callbacks",
]
