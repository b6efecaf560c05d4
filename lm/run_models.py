"""The set of language models one run calls, built and checked the same way for every command.

Every model is checked before any work starts (a missing key or a dead ``--api-base`` is a
one-line error, not a failure fifty calls in) and wrapped in the run's retry policy,
bounds and fallback chain (``lm.resilient_lm``), so a flaky provider costs daggers or
a lower score, never a traceback. Any setting that cannot run is one
:class:`ModelSetupError` whose message says the fix; front ends decide how to show it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import dspy

from lm import language_models as lms
from lm.agent_overrides import load_agent_overrides
from lm.language_models import LMSpec
from lm.policies import RetryPolicy, RunGuard
from lm.redaction import redact
from lm.resilient_lm import ResilientLM, RunResilience


class ModelSetupError(Exception):
    """A model of the run cannot be used as configured (bad spec or override file, missing
    key, a server that does not answer, local weights missing); the message says the fix."""


@dataclass
class RunModels:
    """The default LM, per-agent overrides and what they share, ready for ``dspy.context``."""

    spec: LMSpec
    lm: ResilientLM
    adapter: dspy.Adapter
    resilience: RunResilience
    overrides: dict[str, ResilientLM] = field(default_factory=dict)

    @property
    def description(self) -> str:
        return self.spec.describe()


def build_models(
    model: str | None,
    api_base: str | None,
    *,
    agents: Path | None = None,
    fallbacks: list[str] | None = None,
    lm_timeout: float = 120.0,
    retries: int = 3,
    backoff: float = 0.5,
    max_calls: int | None = None,
    timeout: float | None = None,
    max_tokens: int | None = None,
) -> RunModels:
    """Check and build every model the run will call; :class:`ModelSetupError` if one cannot."""
    try:
        spec = LMSpec(
            model=model,
            api_base=api_base,
            timeout=lm_timeout,
            num_retries=retries,
            max_tokens=max_tokens,
        )
        lms.check_lm_reachable(spec)
        resilience = _resilience(spec, fallbacks or [], backoff, max_calls, timeout)
        overrides = load_agent_overrides(agents, base=spec) if agents else {}
        for override in overrides.values():
            lms.check_lm_reachable(override)
        return RunModels(
            spec=spec,
            lm=_resilient_lm(spec, resilience),
            adapter=lms.default_adapter(spec),
            resilience=resilience,
            overrides=_wrapped(overrides, resilience),
        )
    except (ValueError, RuntimeError, OSError) as exc:
        # Every message that leaves here is shown or logged; a client library's own error
        # text may quote the server URL, credentials and all.
        raise ModelSetupError(redact(str(exc))) from None


def _resilience(
    spec: LMSpec,
    fallbacks: list[str],
    backoff: float,
    max_calls: int | None,
    timeout: float | None,
) -> RunResilience:
    """The run's retry policy, bounds and fallback chain; fallbacks are checked like --lm.

    A fallback keeps the primary's settings (server, per-call timeout, retries), only the
    model changes: the usual chain is a cheaper model of the same provider or server.
    """
    specs = [replace(spec, model=model) for model in fallbacks]
    for fallback in specs:
        lms.check_lm_reachable(fallback)
    return RunResilience(
        policy=RetryPolicy(retries=spec.num_retries, backoff=backoff),
        guard=RunGuard(max_calls=max_calls, timeout=timeout),
        fallbacks=tuple(lms.build_lm(fallback) for fallback in specs),
    )


def _resilient_lm(spec: LMSpec, resilience: RunResilience) -> ResilientLM:
    """`spec`'s LM under the run's policy, with its own retry count (`--retries` or TOML)."""
    return resilience.wrap(
        lms.build_lm(spec), retries=spec.num_retries, deterministic=spec.is_local
    )


def _wrapped(overrides: dict[str, LMSpec], resilience: RunResilience) -> dict[str, ResilientLM]:
    """Each per-agent LM under the run's policy; agents with one spec still share one LM."""
    built: dict[LMSpec, ResilientLM] = {}
    for spec in overrides.values():
        if spec not in built:
            built[spec] = _resilient_lm(spec, resilience)
    return {agent: built[spec] for agent, spec in overrides.items()}


def describe_model(model: str | None) -> str:
    """How a model string (``None``: the bundled one) appears in logs and records."""
    return LMSpec(model=model).describe()
