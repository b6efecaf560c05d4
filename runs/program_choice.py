"""Which prompts a run uses: the shipped ones, ``optimised/default/`` when it won, or a path.

Why a rule rather than "load it if it exists": a compiled program is used by default only
when its manifest says it beat the shipped prompts on the test split no optimiser saw
(``beats_shipped_on_test``), so a compile that merely tied, or lost, never changes what
``research ask`` answers. ``--program shipped`` opts out; ``--program PATH`` chooses any
other folder (or its ``program.json``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from atomicfiles import read_json

SHIPPED = "shipped"
#: Compiled programs live beside the code, so every command finds the same ones.
OPTIMISED_DIR = Path(__file__).resolve().parents[1] / "optimised"
DEFAULT_NAME = "default"


@dataclass(frozen=True)
class ProgramChoice:
    """The compiled program to load (``None``: the shipped prompts) and how to name it."""

    path: Path | None
    label: str


def default_program_wins(folder: Path) -> bool:
    """Whether ``folder`` holds a program whose manifest says it beat the shipped prompts."""
    manifest = read_json(folder / "manifest.json")
    return (
        isinstance(manifest, dict)
        and manifest.get("beats_shipped_on_test") is True
        and manifest.get("selected") == "compiled"
        and (folder / "program.json").is_file()
    )


def choose_program(program: Path | str | None, root: Path | None = None) -> ProgramChoice:
    """``None``: ``root/default`` (``optimised/default``) if it won on test, else shipped;
    ``"shipped"``: shipped; anything else: that path."""
    if program is None:
        default = (root or OPTIMISED_DIR) / DEFAULT_NAME
        if default_program_wins(default):
            return ProgramChoice(default, f"optimised/{DEFAULT_NAME}")
        return ProgramChoice(None, SHIPPED)
    if str(program) == SHIPPED:
        return ProgramChoice(None, SHIPPED)
    return ProgramChoice(Path(program), str(program))
