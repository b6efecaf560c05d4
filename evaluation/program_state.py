"""A program's optimisable state: which predictors a target names, freezing, copying, saving.

What an optimiser changes is each predictor's instructions and demos. Compiled state moves
between programs by predictor name (``planner.extract_facets``…), which the research
program and the planner-only program share, and is saved with DSPy's JSON format (no
pickle, no API keys) through a temporary file, so an interrupted save never leaves half
a program behind.
"""

from __future__ import annotations

import json
from pathlib import Path

import dspy

from atomicfiles import write_atomic
from lm.dspy_internals import set_frozen

AGENTS = ("planner", "probes", "researcher", "reviewer", "synthesiser", "composer")
#: Named groups of agents: ``answer`` is every agent that writes or checks the answer.
GROUPS = {
    "answer": ("planner", "researcher", "reviewer", "synthesiser", "composer"),
    "all": AGENTS,
}
TARGETS = (*AGENTS, *GROUPS)


def target_agents(target: str) -> tuple[str, ...]:
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r}: choose one of {', '.join(TARGETS)}")
    return GROUPS.get(target, (target,))


def freeze_except(program: dspy.Module, target: str) -> list[str]:
    """Hide every agent but ``target`` from optimisers; return the predictor names left.

    DSPy's ``named_parameters`` skips sub-modules marked ``_compiled``
    (``lm.dspy_internals.set_frozen``), so optimisers
    neither propose instructions for them nor attach demos to them.
    """
    wanted = target_agents(target)
    for name in AGENTS:
        module = getattr(program, name, None)
        if isinstance(module, dspy.Module):
            set_frozen(module, name not in wanted)
    names = [name for name, _ in program.named_predictors()]
    if not names:
        raise ValueError(f"this evalset's program has no {target} predictors to optimise")
    return names


def thaw(program: dspy.Module) -> dspy.Module:
    """Undo :func:`freeze_except` so every predictor is saved and loaded again."""
    for name in AGENTS:
        module = getattr(program, name, None)
        if isinstance(module, dspy.Module):
            set_frozen(module, False)
    return program


def copy_state(source: dspy.Module, dest: dspy.Module, names: list[str] | None = None) -> list[str]:
    """Load ``source``'s predictor state into ``dest``'s predictors of the same name."""
    state = dict(source.named_predictors())
    copied = []
    for name, predictor in dest.named_predictors():
        if name in state and (names is None or name in names):
            predictor.load_state(state[name].dump_state())
            copied.append(name)
    return copied


def save_program(program: dspy.Module, path: Path) -> None:
    """DSPy's JSON save, written to a temporary file and renamed into place."""

    def save(tmp: Path) -> None:
        program.save(str(tmp))
        tmp.chmod(0o644)  # mkstemp makes it private; a saved program is an ordinary file

    write_atomic(path, save, suffix=".json")


def load_program(program: dspy.Module, path: Path) -> dspy.Module:
    """Load compiled state from ``optimised/NAME`` or its ``program.json`` into ``program``.

    A predictor added to the program after the file was saved keeps its shipped state (a
    program compiled before ``researcher.pick`` existed still loads, and that step stays
    as shipped). Raises ``ValueError`` with a readable reason when the file is missing or
    holds a predictor the program does not have (one renamed or removed), naming them.
    """
    file = path / "program.json" if path.is_dir() else path
    if not file.exists():
        raise ValueError(f"no compiled program at {file}")
    try:
        state = json.loads(file.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"{file} is not a saved program: {exc}") from None
    predictors = dict(program.named_predictors())
    saved = {k for k in state if k != "metadata"}
    if extra := sorted(saved - set(predictors)):
        missing = sorted(set(predictors) - saved)
        raise ValueError(
            f"{file} does not fit this version of the program"
            + (f"; missing predictors: {', '.join(missing)}" if missing else "")
            + f"; unknown predictors: {', '.join(extra)}"
        )
    added = set(predictors) - saved
    for name in added:  # added since: as shipped
        state[name] = predictors[name].dump_state()
    try:
        if added:  # the file lacks them, so its state is loaded as filled in here
            program.load_state(state)
        else:  # DSPy's own load, which warns when the file's dependency versions differ
            program.load(str(file))
    except Exception as exc:  # DSPy raises several types for state that does not fit
        raise ValueError(f"{file} does not fit this version of the program: {exc}") from None
    return program


def instructions_markdown(program: dspy.Module, names: list[str] | None = None) -> dict[str, str]:
    """Each predictor's instructions and demos as readable Markdown, by predictor name."""
    pages = {}
    for name, predictor in program.named_predictors():
        if names is not None and name not in names:
            continue
        lines = [f"# {name}", "", "## Instructions", "", predictor.signature.instructions, ""]
        lines += [f"## Demos ({len(predictor.demos)})", ""]
        for i, demo in enumerate(predictor.demos, 1):
            lines.append(f"### Demo {i}")
            for key, value in dict(demo).items():
                text = str(value)
                lines.append(f"- **{key}**: {text[:1500]}{'…' if len(text) > 1500 else ''}")
            lines.append("")
        pages[name] = "\n".join(lines)
    return pages
