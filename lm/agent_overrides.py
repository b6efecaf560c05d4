"""Per-agent models: a small TOML file that gives an agent its own model or settings.

A cheaper reviewer, a stronger composer: each table names an agent and overrides fields of
the run's :class:`~lm.language_models.LMSpec`. Keys are refused (they come from environment
variables), unknown agents and settings are one-line errors that list what is allowed.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import dspy
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from lm import language_models
from lm.language_models import AGENT_NAMES, LMConfigError, LMSpec
from lm.redaction import redact

MAX_TOKENS_LIMIT = 1_000_000  # beyond any model's output window: a typo, not a setting
MAX_TIMEOUT_S = 86_400.0  # a day for one request: beyond that the run is stuck, not slow
MAX_RETRIES = 10  # as `--retries`: more only multiplies the cost of a dead provider
N_CTX_RANGE = (256, 1_048_576)  # llama.cpp needs room for the prompt; no model has more


class AgentSettings(BaseModel):
    """What one table of the file may set, each value checked against what can run.

    TOML accepts `max_tokens = -5` or `temperature = 1e309` (infinity) as readily as a
    sensible value, and a provider would only refuse them mid-run, after other agents had
    spent calls, or not at all (llama.cpp takes a negative budget as "unlimited"). Strict:
    `max_tokens = 1.5` or `cache = 1` is refused rather than coerced into something the user
    did not write. Each field's description is the wording of its error message.
    """

    # The defaults are placeholders, never used nor validated: only the keys a table sets
    # are checked and taken (`model_dump(include=…)`), the rest inherit from [default].
    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False)

    model: str = Field(default="", min_length=1, description="a model string, e.g. openai/gpt-4.1")
    api_base: str = Field(
        default="",
        pattern=r"^https?://[^\s]+$",
        description="an http:// or https:// server address, e.g. http://localhost:8000/v1",
    )
    temperature: float = Field(
        default=0.0, ge=0.0, le=2.0, description="a finite number from 0 to 2"
    )
    max_tokens: int = Field(
        default=1, ge=1, le=MAX_TOKENS_LIMIT, description=f"from 1 to {MAX_TOKENS_LIMIT:,}"
    )
    timeout: float = Field(
        default=1.0,
        gt=0.0,
        le=MAX_TIMEOUT_S,
        description=f"a number of seconds above 0 and at most {MAX_TIMEOUT_S:,.0f}",
    )
    num_retries: int = Field(
        default=0, ge=0, le=MAX_RETRIES, description=f"from 0 to {MAX_RETRIES}"
    )
    cache: bool = Field(default=True, description="true or false")
    n_ctx: int = Field(
        default=N_CTX_RANGE[0],
        ge=N_CTX_RANGE[0],
        le=N_CTX_RANGE[1],
        description=f"from {N_CTX_RANGE[0]:,} to {N_CTX_RANGE[1]:,} tokens",
    )


_FILE_KEYS = {
    "lm": "model",
    **{name: name for name in AgentSettings.model_fields if name != "model"},
}
_KEY_OF = {name: key for key, name in _FILE_KEYS.items()}
# The Python type names the old hand-written check used; kept, since users know them.
_TYPE_ERRORS = {
    "string_type": "str",
    "int_type": "int",
    "float_type": "int or float",
    "bool_type": "bool",
}


def _shown(value: Any) -> str:
    """A value as an error message quotes it: its repr, with URL credentials masked."""
    return redact(repr(value))


def _settings_error(exc: ValidationError, section: Mapping[str, Any], where: str) -> str:
    """One line for the first problem pydantic found: the file and table, the key, what it
    must be and what it is."""
    error = exc.errors(include_url=False)[0]
    name = str(error["loc"][0])
    key = _KEY_OF.get(name, name)
    value = section.get(key)
    expected = _TYPE_ERRORS.get(error["type"])
    if expected is None:
        field_info = AgentSettings.model_fields.get(name)
        expected = (field_info.description if field_info else None) or error["msg"]
    return f"{where}: {key} must be {expected}, got {_shown(value)}"


def _spec_fields(section: Mapping[str, Any], where: str) -> dict[str, Any]:
    """Validate one TOML table into LMSpec field values (`lm` is the model string)."""
    for key in section:
        if "key" in key.lower():
            raise LMConfigError(
                f"{where}: {key!r} is not allowed: API keys are read only from environment "
                "variables (OPENAI_API_KEY, ANTHROPIC_API_KEY, HOSTED_VLLM_API_KEY, …)."
            )
        if key not in _FILE_KEYS:
            raise LMConfigError(
                f"{where}: unknown setting {key!r}; allowed: " + ", ".join(sorted(_FILE_KEYS))
            )
    values = {_FILE_KEYS[key]: value for key, value in section.items()}
    try:
        settings = AgentSettings.model_validate(values)
    except ValidationError as exc:
        raise LMConfigError(_settings_error(exc, section, where)) from None
    return settings.model_dump(include=set(values))


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
    except IsADirectoryError:
        raise LMConfigError(f"Agent model file {path} is a folder: name a TOML file") from None
    except OSError as exc:  # permission denied, an I/O error: the reason, with the file
        raise LMConfigError(f"cannot read agent model file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise LMConfigError(
            f"{path} is not valid TOML: not UTF-8 text (byte {exc.start})"
        ) from None
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


__all__ = ["AgentSettings", "apply_agent_lms", "load_agent_overrides", "parse_agent_overrides"]
