"""Compiling prompts on a golden set and keeping the result as a version (`research optimise`).

Compiles on train, selects on dev, and reports the shipped (baseline) and the compiled
program on test, which no optimiser ever sees. One parent MLflow run holds the scores
(``baseline_dev``, ``baseline_test``, ``dev``, ``test``, all 0-1), the program and each
predictor's instructions and demos as Markdown; autologging adds a child run per candidate
the optimiser evaluated, and the four evaluations here are child runs of their own. The
program lands in ``optimised/NAME/`` (``program.json`` + ``manifest.json``) only when
everything succeeded, by renaming a finished folder into place, so Ctrl-C never leaves
half a program; the MLflow run is then marked KILLED.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runs.errors import BadRunRequest
from runs.tracking import log_outcome, program_version, tracked_run

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


@dataclass
class OptimisationOutcome:
    """The four evaluations, which prompts were kept, and where the program was saved."""

    base_dev: Any
    base_test: Any
    dev: Any
    test: Any
    selected: str
    folder: Path


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


def _evaluate_child(
    program: Any, task: Any, examples: list, split: str, label: str, track: bool, say: Say
):
    """Evaluate and, when tracking, log it as a child run named ``label``."""
    from evaluation.runner import evaluate

    say(f"{label}: {len(examples)} example(s)")
    outcome = evaluate(program, task, examples, split)
    if track:
        import mlflow

        with mlflow.start_run(run_name=label, nested=True):
            mlflow.log_params({"set": task.name, "split": split, "stage": label})
            log_outcome(outcome)
    return outcome


def _write_output(folder: Path, research: Any, manifest: dict[str, Any], pages: dict[str, str]):
    """Write program, manifest and prompt pages to a temporary folder, then rename it."""
    from atomicfiles import write_json_atomic
    from evaluation.program_state import save_program

    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}."))
    try:
        save_program(research, staging / "program.json")
        for name, text in pages.items():
            (staging / "prompts").mkdir(exist_ok=True)
            (staging / "prompts" / f"{name}.md").write_text(text)
        write_json_atomic(staging / "manifest.json", manifest)
        staging.chmod(0o755)  # mkdtemp makes it private
        os.replace(staging, folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def optimise_program(job: Optimisation, say: Say) -> OptimisationOutcome:
    """Evaluate the baseline, compile, evaluate the result, keep the better on dev, save it.

    ``say`` gets one line per stage; a target with nothing to optimise is a
    :class:`BadRunRequest` before anything is evaluated.
    """
    import dspy

    from evaluation.evalsets import evalset_hash
    from evaluation.optimisers import compile_program
    from evaluation.program_state import copy_state, freeze_except, instructions_markdown, thaw
    from evaluation.prompt_registry import register_prompts
    from lm.run_models import describe_model

    task, spec, research, splits, model = job.task, job.spec, job.research, job.splits, job.model
    set_name, target, name, folder, track = (
        job.set_name, job.target, job.name, job.folder, job.track,
    )  # fmt: skip
    optimiser, budget, seed = spec.name, spec.budget, spec.seed
    proposer, reflection_lm = job.proposer, job.reflection_lm
    student = task.program(research)
    baseline_version = program_version(research.dump_state())  # before freezing hides agents
    try:
        # Frozen until the compile ends: it changes what optimisers see, not what runs.
        names = freeze_except(student, target)
    except ValueError as exc:
        raise BadRunRequest(str(exc)) from None
    params = {
        "set": set_name,
        "split": "test",
        "optimiser": optimiser,
        "target": target,
        "budget": budget,
        "seed": seed,
        "model": model.description,
        "reflection_model": describe_model(reflection_lm) if reflection_lm else "(task model)",
        "evalset_hash": evalset_hash(set_name),
        "git_commit": _git_commit(),
        "dspy_version": dspy.__version__,
        "baseline_version": baseline_version,
        "train": len(splits["train"]),
        "dev": len(splits["dev"]),
        "test": len(splits["test"]),
        "name": name,
    }
    tracking = (
        tracked_run("wissen-optimise", name, params, optimising=True)
        if track
        else contextlib.nullcontext()
    )
    with tracking as run:
        with dspy.context(lm=model.lm, adapter=model.adapter):
            base_dev = _evaluate_child(
                student, task, splits["dev"], "dev", "baseline-dev", track, say
            )
            base_test = _evaluate_child(
                student, task, splits["test"], "test", "baseline-test", track, say
            )
            say(
                f"compiling {', '.join(names)} with {optimiser} ({budget}) on "
                f"{len(splits['train'])} train example(s)"
            )
            compiled = compile_program(
                spec,
                student,
                splits["train"],
                splits["dev"],
                task.metric,
                task.feedback_metric,
                proposer,
            )
            thaw(student)
            thaw(compiled)
            baseline = research.deepcopy()
            copy_state(compiled, research, names)
            candidate = task.program(research)
            dev = _evaluate_child(candidate, task, splits["dev"], "dev", "compiled-dev", track, say)
            test = _evaluate_child(
                candidate, task, splits["test"], "test", "compiled-test", track, say
            )
        pages = instructions_markdown(research, names)
        # Selection on dev: a compiled program that scores below the shipped one is not kept.
        selected = "compiled" if dev.score >= base_dev.score else "baseline"
        if selected == "baseline":
            copy_state(baseline, research, names)
            say(
                f"the compiled program scored below the baseline on dev ({dev.score:.3f} < "
                f"{base_dev.score:.3f}): keeping the baseline prompts; the compiled ones are in "
                "prompts/*.md"
            )
        version = program_version(research.dump_state())
        scores = {
            "baseline_dev": base_dev.score,
            "baseline_test": base_test.score,
            "dev": dev.score,
            "test": test.score,
        }
        chosen = base_dev if selected == "baseline" else dev
        manifest: dict[str, Any] = {
            "name": name,
            "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "program_version": version,
            "selected": selected,
            "scores": scores,
            "predictors": names,
            **{k: v for k, v in params.items() if k not in {"name", "split"}},
        }
        if track:
            import mlflow

            mlflow.log_metrics(scores)
            mlflow.log_params({"program_version": version, "selected": selected})
            for predictor, text in pages.items():
                mlflow.log_text(text, f"prompts/{predictor}.md")
            mlflow.log_dict(research.dump_state(), "program.json")
            tags = {
                "run_id": run.info.run_id,
                "set": set_name,
                "optimiser": optimiser,
                "program_version": version,
                "selected": selected,
                "test": f"{(base_test if selected == 'baseline' else test).score:.6f}",
            }
            manifest["mlflow_run_id"] = run.info.run_id
            manifest["prompts"] = register_prompts(research, names, tags, chosen.score)
            mlflow.log_dict(manifest, "manifest.json")
        _write_output(folder, research, manifest, pages)
    return OptimisationOutcome(base_dev, base_test, dev, test, selected, folder)
