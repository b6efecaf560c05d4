"""Per-agent models: a small TOML file that gives an agent its own model or settings.

A cheaper reviewer, a stronger composer: each table names an agent and overrides fields of
the run's :class:`~lm.language_models.LMSpec`. Keys are refused (they come from environment
variables), unknown agents and settings are one-line errors that list what is allowed.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import dspy

from lm import language_models
from lm.language_models import AGENT_NAMES, LMConfigError, LMSpec

_SPEC_KEYS = {f.name for f in fields(LMSpec)}
_FILE_KEYS = {"lm": "model", **{name: name for name in _SPEC_KEYS if name != "model"}}
_TYPES: dict[str, tuple[type, ...]] = {
    "model": (str,),
    "api_base": (str,),
    "temperature": (int, float),
    "max_tokens": (int,),
    "timeout": (int, float),
    "num_retries": (int,),
    "cache": (bool,),
    "n_ctx": (int,),
}


def _spec_fields(section: Mapping[str, Any], where: str) -> dict[str, Any]:
    """Validate one TOML table into LMSpec field values (`lm` is the model string)."""
    values: dict[str, Any] = {}
    for key, value in section.items():
        if "key" in key.lower():
            raise LMConfigError(
                f"{where}: {key!r} is not allowed: API keys are read only from environment "
                "variables (OPENAI_API_KEY, ANTHROPIC_API_KEY, HOSTED_VLLM_API_KEY, …)."
            )
        if key not in _FILE_KEYS:
            raise LMConfigError(
                f"{where}: unknown setting {key!r}; allowed: " + ", ".join(sorted(_FILE_KEYS))
            )
        name = _FILE_KEYS[key]
        allowed = _TYPES[name]
        if (isinstance(value, bool) and bool not in allowed) or not isinstance(value, allowed):
            expected = " or ".join(t.__name__ for t in allowed)
            raise LMConfigError(f"{where}: {key} must be {expected}, got {value!r}")
        values[name] = float(value) if float in allowed and not isinstance(value, bool) else value
    return values


def parse_agent_overrides(
    data: Mapping[str, Any], base: LMSpec | None = None, source: str = "overrides"
) -> dict[str, LMSpec]:
    """Parsed TOML -> {agent: LMSpec}. Unset fields inherit from `[default]`, then from `base`.

    Changing the model resets `api_base` unless the table sets it too, so a `[reviewer]` on
    `openai/gpt-4.1-mini` does not inherit the default's local server address.
    """
    base = base or LMSpec()
    unknown = set(data) - set(AGENT_NAMES) - {"default"}
    if unknown:
        raise LMConfigError(
            f"{source}: unknown agent(s) {', '.join(sorted(unknown))}; agents are: "
            + ", ".join(AGENT_NAMES)
            + " (and [default] for all of them)"
        )
    for name, section in data.items():
        if not isinstance(section, Mapping):
            raise LMConfigError(f'{source}: [{name}] must be a table, e.g. [{name}] lm = "…"')

    def derive(parent: LMSpec, values: dict[str, Any]) -> LMSpec:
        if "model" in values and "api_base" not in values:
            values = {**values, "api_base": None}
        return replace(parent, **values)

    default = derive(base, _spec_fields(data.get("default", {}), f"{source} [default]"))
    overrides: dict[str, LMSpec] = {}
    for agent in AGENT_NAMES:
        if agent in data:
            overrides[agent] = derive(default, _spec_fields(data[agent], f"{source} [{agent}]"))
        elif "default" in data:
            overrides[agent] = default
    return overrides


def load_agent_overrides(path: str | Path, base: LMSpec | None = None) -> dict[str, LMSpec]:
    """Read a TOML file of per-agent models, e.g.

    ```toml
    [default]            # optional: every agent
    lm = "openai/gpt-4.1"
    [reviewer]           # a cheaper reviewer
    lm = "openai/gpt-4.1-mini"
    temperature = 0.0
    ```

    Tables are agent names (`planner`, `probes`, `researcher`, `reviewer`, `synthesiser`,
    `composer`); settings are `lm`, `api_base`, `temperature`, `max_tokens`, `timeout`,
    `num_retries`, `cache`, `n_ctx`. Keys are refused: they come from environment variables.
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LMConfigError(f"Agent model file not found: {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise LMConfigError(f"{path} is not valid TOML: {exc}") from None
    return parse_agent_overrides(data, base=base, source=str(path))


def apply_agent_lms(program: Any, overrides: Mapping[str, LMSpec | dspy.LM]) -> dict[str, Any]:
    """Give each named agent of `program` its own LM: `getattr(program, agent).set_lm(lm)`.

    Duck-typed: any object whose agents are attributes with `set_lm` works. Agents with the
    same spec share one LM object (one loaded local model, one history). Returns {agent: LM}.
    """
    built: dict[LMSpec, Any] = {}
    applied: dict[str, Any] = {}
    for agent, spec in overrides.items():
        if agent not in AGENT_NAMES:
            raise LMConfigError(f"unknown agent {agent!r}; agents are: " + ", ".join(AGENT_NAMES))
        module = getattr(program, agent, None)
        if module is None or not hasattr(module, "set_lm"):
            raise LMConfigError(f"the program has no agent {agent!r} to give a model to")
        if isinstance(spec, LMSpec):
            if spec not in built:
                built[spec] = language_models.build_lm(spec)
            lm = built[spec]
        else:
            lm = spec
        module.set_lm(lm)
        applied[agent] = lm
    return applied


__all__ = ["apply_agent_lms", "load_agent_overrides", "parse_agent_overrides"]
