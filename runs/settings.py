"""A run's settings: one model that ``research ask``, the web app, the run record and resume
all derive from.

:class:`RunSettings` holds every option that shapes a run except its question (and the run
it resumes). Its values come, each one winning over the one before, from

1. the defaults below,
2. the ``[run]`` table of the config file, ``$WISSEN_HOME/config.toml``
   (:func:`config_path`),
3. the environment: ``WISSEN_`` and the field's name in capitals (``WISSEN_MAX_PROBES=3``,
   ``WISSEN_STORE``; a list as JSON: ``WISSEN_FALLBACK_LM='["openai/gpt-4.1-mini"]'``),
4. values given explicitly: the command line's flags, the web form's fields.

:func:`load_settings` builds them and turns a bad value, wherever it came from, into a
one-line :class:`~runs.errors.BadRunRequest` naming its source. ``RunSettings.model_validate``
rebuilds recorded settings as they were, reading no file and no environment.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from domain.periods import one_fiscal_period
from retrieval.store_location import StoreLocation
from runs.errors import BadRunRequest
from runs.paths import data_dir
from runs.redaction import redact

ENV_PREFIX = "WISSEN_"
CONFIG_TABLE = "run"


def config_path() -> Path:
    """The config file: ``config.toml`` in ``$WISSEN_HOME`` (or the user data dir)."""
    return data_dir() / "config.toml"


class ConfigFileError(ValueError):
    """The config file cannot be read, or its ``[run]`` table names no setting."""


class RunSettings(BaseSettings):
    """Every option that shapes a run: the model and its resilience, the compiled program,
    the grid, the research bounds, and tracking."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, frozen=True, extra="forbid", validate_default=True
    )

    lm: str | None = Field(
        None, description="DSPy model string, e.g. openai/gpt-4.1 (default: bundled)"
    )
    api_base: str | None = Field(
        None, description="an OpenAI-compatible server (vLLM, llama.cpp, Ollama)"
    )
    agents: Path | None = Field(None, description="TOML of per-agent LM overrides, e.g. [reviewer]")
    program: Path | None = Field(
        None,
        description="prompts: 'shipped', or a compiled program (optimised/NAME or its "
        "program.json); default: optimised/default when its manifest says it beat the "
        "shipped prompts on test",
    )
    store: StoreLocation | None = Field(
        None,
        description="grid store: a SQLite file, or postgresql://USER:PASSWORD@HOST:PORT/DATABASE",
    )
    company: str | None = Field(
        None,
        description="the company (ticker or name) a question that names none is about, as "
        "when asking of one company's filings",
    )
    period: str | None = Field(
        None,
        description="the period (FY2023 Q2, FY2022) a question that names none is about, as "
        "when asking of one filing",
    )
    max_probes: int = Field(5, ge=1, le=5, description="probes per slice of the question")
    max_rounds: int = Field(5, ge=1, le=5, description="research rounds per probe")
    figures: bool = Field(
        True,
        description="answer figure questions from statement facts and the calculator "
        "(--no-figures: the agents alone)",
    )
    web_sources: bool = Field(
        False,
        description="let the researcher read web pages and search news (wissen_read_url; "
        "news only with WISSEN_SEARXNG_URL or WISSEN_NEWS_FEEDS) and cite them",
    )
    concurrency: int = Field(8, ge=1, le=64, description="workers for the slices and probes")
    track: bool = Field(True, description="log the run to MLflow")
    fallback_lm: tuple[str, ...] = Field(
        (),
        description="a model to use when --lm keeps failing (repeatable, tried in order; "
        "same --api-base), e.g. a cheaper model of the same provider",
    )
    max_calls: int | None = Field(
        None, ge=1, description="LM requests for the whole run, retries included"
    )
    timeout: float | None = Field(
        None, ge=0.01, description="seconds of run time; later LM calls fail fast (daggers)"
    )
    lm_timeout: float = Field(120.0, ge=0.01, description="seconds one LM request may take")
    retries: int = Field(
        3, ge=0, le=10, description="retries per model on 429/5xx/timeouts (--agents may override)"
    )
    backoff: float = Field(
        0.5, ge=0.0, description="first retry's wait in seconds; doubles, with jitter"
    )
    max_tokens: int | None = Field(
        None,
        ge=16,
        description="output tokens per LM call (default: the provider's limit; 768 bundled)",
    )

    @field_validator("period")
    @classmethod
    def _one_period(cls, value: str | None) -> str | None:
        return one_period(value)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Explicit values win, then the environment, then the config file (then defaults)."""
        return init_settings, env_settings, ConfigFileSource(settings_cls)

    def changed(self, **changes: Any) -> RunSettings:
        """These settings with ``changes``, validated (no file or environment read)."""
        return type(self).model_validate({**self.model_dump(), **changes})


class ConfigFileSource(PydanticBaseSettingsSource):
    """The ``[run]`` table of :func:`config_path`; no file is no settings."""

    def __init__(self, settings_cls: type[BaseSettings], path: Path | None = None) -> None:
        super().__init__(settings_cls)
        self.path = path or config_path()

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return self().get(field_name), field_name, False

    def __call__(self) -> dict[str, Any]:
        return read_config(self.path)


def read_config(path: Path) -> dict[str, Any]:
    """The run settings of the config file at ``path`` ({} when there is none)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ConfigFileError(f"{path} cannot be read: {exc.strerror or exc}") from None
    try:
        table = tomllib.loads(text).get(CONFIG_TABLE, {})
    except tomllib.TOMLDecodeError as exc:
        raise ConfigFileError(f"{path} is not valid TOML: {exc}") from None
    if not isinstance(table, dict):
        raise ConfigFileError(f"{path}: [{CONFIG_TABLE}] must be a table of settings")
    unknown = sorted(set(table) - set(RunSettings.model_fields))
    if unknown:
        raise ConfigFileError(
            f"{path}: [{CONFIG_TABLE}] has no setting {unknown[0]!r} "
            f"(settings: {', '.join(RunSettings.model_fields)})"
        )
    return table


def env_name(field: str) -> str:
    return f"{ENV_PREFIX}{field.upper()}"


def flag_name(field: str) -> str:
    return "--" + field.replace("_", "-")


def _source(field: str, given: dict[str, Any]) -> str:
    """Where the value of ``field`` came from, as the user would look for it."""
    if field in given:
        return flag_name(field)
    if any(name.upper() == env_name(field) for name in os.environ):
        return f"${env_name(field)}"
    return f"{config_path()} [{CONFIG_TABLE}]"


def load_settings(**given: Any) -> RunSettings:
    """The settings with ``given`` (None: not given) over the environment over the config
    file over the defaults; :class:`BadRunRequest` names a bad value and where it is."""
    given = {k: v for k, v in given.items() if v is not None}
    try:
        return RunSettings(**given)
    except ConfigFileError as exc:
        raise BadRunRequest(str(exc)) from None
    except ValidationError as exc:
        error = exc.errors()[0]
        field = str(error["loc"][0]) if error["loc"] else "?"
        got = error.get("input")
        raise BadRunRequest(
            redact(f"{field} from {_source(field, given)}: {error['msg']} (got {got!r})")
        ) from None


def one_period(text: str | None) -> str | None:
    """``text`` (stripped) if it reads as one fiscal year and at most one quarter ("FY2023
    Q2", "FY2022"); None for nothing; ``ValueError`` saying what a period looks like."""
    text = (text or "").strip()
    if not text:
        return None
    one_fiscal_period(text[:40])
    return text


def field_default(name: str) -> Any:
    """The default of the setting ``name`` (before any file, environment or flag)."""
    return RunSettings.model_fields[name].default


def field_bounds(name: str) -> tuple[Any, Any]:
    """``(ge, le)`` of the setting ``name``, None where unbounded."""
    low = high = None
    for rule in RunSettings.model_fields[name].metadata:
        low = getattr(rule, "ge", low)
        high = getattr(rule, "le", high)
    return low, high
