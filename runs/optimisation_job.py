"""What one ``research optimise`` compiles (:class:`Optimisation`): the task and its
splits, the program, the models and where the result goes; shared by the compile
(:mod:`runs.optimisation`) and the demo optimisers (:mod:`runs.demo_compiles`).
"""

from __future__ import annotations

import functools
import hashlib
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Say = Callable[[str], None]


@dataclass
class Optimisation:
    """What to compile: the task and its splits, the program, the models, where it goes."""

    task: Any
    spec: Any  # evaluation.optimisers.OptimiserSpec
    set_name: str
    target: str
    name: str
    folder: Path
    research: Any
    splits: dict[str, list]
    model: Any  # lm.run_models.RunModels
    proposer: Any = None
    reflection_lm: str | None = None
    track: bool = True

    @property
    def work(self) -> Path:
        """Where the ledgers of this compile live until (and after) it finishes."""
        return self.folder.parent / ".work" / self.name

    @functools.cached_property
    def commit(self) -> str:
        """The code's commit, asked of git once per compile."""
        return _git_commit()

    @functools.cached_property
    def fingerprint(self) -> str:
        """What else a ledger's rows depend on besides the prompts: the code, the model, the
        evalset and the run bounds. Rows from another commit or model are never reused."""
        settings = self.research.settings
        parts = [
            self.commit,
            self.model.description,
            self.set_name,
            settings.max_probes,
            settings.max_rounds,
        ]
        return hashlib.sha256(repr(parts).encode()).hexdigest()[:8]


def _git_commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            cwd=Path(__file__).resolve().parents[1],
        )
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"
