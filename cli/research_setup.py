"""The ``--program`` option and the research program a command runs (``runs.research_setup``),
with a program that cannot be loaded shown as a one-line error (exit 2)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from cli.errors import fail

ProgramOption = Annotated[
    Path | None,
    typer.Option(
        help="prompts: 'shipped', or a compiled program (optimised/NAME or its program.json); "
        "default: optimised/default when its manifest says it beat the shipped prompts on test"
    ),
]


def prepare_research(
    store: Path | None, program: Path | str | None, **settings: Any
) -> tuple[Any, Any]:
    """``(grid, research)``; see :func:`runs.research_setup.prepare_research`."""
    from runs.errors import BadRunRequest
    from runs.research_setup import prepare_research as prepare

    try:
        return prepare(store, program, **settings)
    except BadRunRequest as exc:
        raise fail(str(exc)) from None
