"""The ``research`` command line in a real process, with the scripted LM: for tests that must
kill a run (``kill -9`` cannot be aimed at a CliRunner) yet cannot monkeypatch a subprocess.

``python tests/run_scripted_ask.py ask QUESTION ...`` runs ``cli.app.main`` after pointing
``lm.language_models`` at :func:`scripted_lm`. Environment:

- ``SCRIPTED_LM_DELAY``: seconds each LM call takes (a run long enough to be killed);
- ``SCRIPTED_LM_CALLS``: a file that gets one line per LM call as the call starts, so the
  count of a killed process survives it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]  # scripted_lm, then the repository's packages

from scripted_lm import ScriptedLM  # noqa: E402

QUESTION = "How did 3M's capital expenditure compare with PepsiCo's in FY2022, and what drove it?"


class CountingLM(ScriptedLM):
    """A ScriptedLM that appends a line to ``calls_file`` for every call it answers."""

    def __init__(self, calls_file: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.calls_file = calls_file

    def respond(self, system: str, user: str) -> str:
        if self.calls_file:
            with open(self.calls_file, "a", encoding="utf-8") as handle:
                handle.write("call\n")
        return super().respond(system, user)


def scripted_lm(delay: float = 0.0, calls_file: str | None = None, **behaviour: Any) -> CountingLM:
    """The LM of the resume tests, in and out of process: one PEP probe needs two rounds."""
    return CountingLM(
        calls_file,
        insufficient=lambda s, p: s == "PEP FY2022 Q4" and p.startswith("Drivers"),
        delay=delay,
        **behaviour,
    )


def install_scripted_lm(monkeypatch: Any, **behaviour: Any) -> CountingLM:
    """Point every ``research ask`` in this process at a new scripted LM, returned for counting."""
    import lm.language_models as language_models

    lm = scripted_lm(**behaviour)
    monkeypatch.setattr(language_models, "build_lm", lambda *args, **kwargs: lm)
    monkeypatch.setattr(language_models, "check_lm_reachable", lambda *args, **kwargs: None)
    return lm


def main() -> None:
    import lm.language_models as language_models
    from cli.app import main as research

    lm = scripted_lm(
        float(os.environ.get("SCRIPTED_LM_DELAY", "0")), os.environ.get("SCRIPTED_LM_CALLS")
    )
    language_models.build_lm = lambda *args, **kwargs: lm
    language_models.check_lm_reachable = lambda *args, **kwargs: None
    sys.argv[0] = "research"
    research()


if __name__ == "__main__":
    main()
