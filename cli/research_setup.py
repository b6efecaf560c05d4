"""Run options derived from :class:`~runs.settings.RunSettings` (``--program`` among them),
and the research program a command runs (``runs.research_setup``), with a program that
cannot be loaded shown as a one-line error (exit 2).

A setting's flag takes its help text and bounds from the model and defaults to None, "not
given": the config file, the environment or the model's default decides then
(:func:`settings_from_flags`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from cli.errors import fail
from runs.settings import RunSettings, field_bounds


def setting_option(name: str, *param_decls: str, **extra: Any) -> Any:
    """A ``typer.Option`` for the setting ``name``: the model's description as help, its
    default shown (the flag's own default is None: not given), its bounds as min/max."""
    field = RunSettings.model_fields[name]
    low, high = field_bounds(name)
    bounds = {k: v for k, v in (("min", low), ("max", high)) if v is not None}
    default = field.default
    help_text = field.description or ""
    if default not in (None, ()):
        shown = ("on" if default else "off") if isinstance(default, bool) else default
        help_text += f" (default: {shown})"
    return typer.Option(*param_decls, help=help_text, show_default=False, **bounds, **extra)


def settings_from_flags(**flags: Any) -> RunSettings:
    """The run's settings: ``flags`` given (not None) over the environment, the config file
    and the defaults; a bad value anywhere is a one-line error (exit 2)."""
    from runs.errors import BadRunRequest
    from runs.settings import load_settings

    given = {k: v for k, v in flags.items() if k in RunSettings.model_fields}
    if isinstance(given.get("fallback_lm"), list):
        given["fallback_lm"] = tuple(given["fallback_lm"]) or None
    try:
        return load_settings(**given)
    except BadRunRequest as exc:
        raise fail(str(exc)) from None


ProgramOption = Annotated[Path | None, setting_option("program")]


def prepare_research(store: Any, program: Path | str | None, **settings: Any) -> tuple[Any, Any]:
    """``(grid, research)``; see :func:`runs.research_setup.prepare_research`."""
    from runs.errors import BadRunRequest
    from runs.research_setup import prepare_research as prepare

    try:
        return prepare(store, program, **settings)
    except BadRunRequest as exc:
        raise fail(str(exc)) from None
