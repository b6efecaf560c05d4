"""The research program a run executes: the grid, the settings, and a compiled program's state.

``research ask``, ``eval``, ``optimise`` and the web app build it the same way, so a
compiled program loads (and fails, with the same clear message) identically everywhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from runs.errors import BadRunRequest

if TYPE_CHECKING:
    from retrieval.open_store import SeedNotice


def prepare_research(
    store: str | Path | None,
    program: Path | str | None,
    on_seed: SeedNotice | None = None,
    **settings: Any,
) -> tuple[Any, Any]:
    """``(grid, research)``: the program over the grid at ``store`` with ``settings`` and the
    prompts ``program`` chooses (:func:`runs.program_choice.choose_program`); ``on_seed`` is
    told when an empty store is made from the bundled sample (``open_store``).

    A compiled program that cannot be loaded is a :class:`BadRunRequest`.
    """
    from evaluation.program_state import load_program
    from programs.research_program import ResearchProgram, ResearchSettings
    from retrieval.open_store import open_store
    from retrieval.search.hybrid import HybridSearcher
    from runs.program_choice import choose_program

    grid = open_store(store, on_seed=on_seed)
    try:  # a bad bound, or a bad web source variable under --web-sources
        research = ResearchProgram(HybridSearcher(grid), settings=ResearchSettings(**settings))
    except ValueError as exc:
        raise BadRunRequest(str(exc)) from None
    chosen = choose_program(program).path
    if chosen is not None:
        try:
            load_program(research, chosen)
        except ValueError as exc:
            raise BadRunRequest(str(exc)) from None
        research.researcher.describe_tools()  # compiled instructions may predate web tools
    return grid, research
