"""Building the language models a command runs, the same way for ask, eval and optimise.

Every model is checked before any work starts (a missing key or a dead ``--api-base`` is a
one-line error, not a failure fifty calls in) and wrapped in the run's retry policy,
bounds and fallback chain (``programs.resilient_lm``), so a flaky provider costs daggers or
a lower score, never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any

import typer

from cli.errors import fail

LMOption = Annotated[
    str | None,
    typer.Option("--lm", help="DSPy model string, e.g. openai/gpt-4.1 (default: bundled)"),
]
ApiBaseOption = Annotated[
    str | None, typer.Option(help="an OpenAI-compatible server (vLLM, llama.cpp, Ollama)")
]


@dataclass
class RunModels:
    """The default LM, per-agent overrides and what they share, ready for ``dspy.context``."""

    spec: Any
    lm: Any
    adapter: Any
    resilience: Any
    overrides: dict[str, Any] = field(default_factory=dict)

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
    """Check and build every model the run will call; a clear error if one cannot run."""
    from programs import language_models as lms

    try:
        spec = lms.LMSpec(
            model=model,
            api_base=api_base,
            timeout=lm_timeout,
            num_retries=retries,
            max_tokens=max_tokens,
        )
        lms.check_lm_reachable(spec)
        resilience = _resilience(spec, fallbacks or [], backoff, max_calls, timeout)
        overrides = lms.load_agent_overrides(agents, base=spec) if agents else {}
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
        raise fail(str(exc)) from None


def _resilience(
    spec: Any, fallbacks: list[str], backoff: float, max_calls: int | None, timeout: float | None
) -> Any:
    """The run's retry policy, bounds and fallback chain; fallbacks are checked like --lm.

    A fallback keeps the primary's settings (server, per-call timeout, retries), only the
    model changes: the usual chain is a cheaper model of the same provider or server.
    """
    from programs import language_models as lms
    from programs.resilient_lm import RetryPolicy, RunGuard, RunResilience

    specs = [replace(spec, model=model) for model in fallbacks]
    for fallback in specs:
        lms.check_lm_reachable(fallback)
    return RunResilience(
        policy=RetryPolicy(retries=spec.num_retries, backoff=backoff),
        guard=RunGuard(max_calls=max_calls, timeout=timeout),
        fallbacks=tuple(lms.build_lm(fallback) for fallback in specs),
    )


def _resilient_lm(spec: Any, resilience: Any) -> Any:
    """`spec`'s LM under the run's policy, with its own retry count (`--retries` or TOML)."""
    from programs import language_models as lms

    return resilience.wrap(
        lms.build_lm(spec), retries=spec.num_retries, deterministic=spec.is_local
    )


def _wrapped(overrides: dict[str, Any], resilience: Any) -> dict[str, Any]:
    """Each per-agent LM under the run's policy; agents with one spec still share one LM."""
    built: dict[Any, Any] = {}
    for spec in overrides.values():
        if spec not in built:
            built[spec] = _resilient_lm(spec, resilience)
    return {agent: built[spec] for agent, spec in overrides.items()}
