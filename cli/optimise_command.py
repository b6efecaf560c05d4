"""``research optimise``: compile prompts on a golden set and keep the result as a version.

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
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from cli.errors import fail, stderr
from cli.eval_command import SetOption, answerable_examples, metric_table
from cli.grid_commands import StoreOption
from cli.lm_options import ApiBaseOption, LMOption, build_models
from cli.research_setup import ProgramOption, prepare_research
from cli.tracking import log_outcome, program_version, tracked_run

console = Console(soft_wrap=True)


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


def _evaluate_child(program: Any, task: Any, examples: list, split: str, label: str, track: bool):
    """Evaluate and, when tracking, log it as a child run named ``label``."""
    from evaluation.runner import evaluate

    stderr.print(f"{label}: {len(examples)} example(s)", highlight=False)
    outcome = evaluate(program, task, examples, split)
    if track:
        import mlflow

        with mlflow.start_run(run_name=label, nested=True):
            mlflow.log_params({"set": task.name, "split": split, "stage": label})
            log_outcome(outcome)
    return outcome


def _write_output(folder: Path, research: Any, manifest: dict[str, Any], pages: dict[str, str]):
    """Write program, manifest and prompt pages to a temporary folder, then rename it."""
    from evaluation.program_state import save_program
    from programs.jsonfiles import write_json_atomic

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


def optimise_command(
    optimiser: Annotated[str, typer.Option(help="bootstrap, mipro, gepa or simba")] = "bootstrap",
    set_name: SetOption = "planner",
    target: Annotated[
        str,
        typer.Option(help="planner, probes, researcher, reviewer, synthesiser, composer or all"),
    ] = "all",
    budget: Annotated[str, typer.Option(help="light, medium or heavy")] = "light",
    name: Annotated[str | None, typer.Option(help="folder under --out-dir")] = None,
    out_dir: Annotated[Path, typer.Option(help="where compiled programs go")] = Path("optimised"),
    program: ProgramOption = None,
    lm: LMOption = None,
    api_base: ApiBaseOption = None,
    reflection_lm: Annotated[
        str | None,
        typer.Option(help="proposer/reflection model for mipro, gepa, simba (same --api-base)"),
    ] = None,
    store: StoreOption = None,
    limit: Annotated[int | None, typer.Option(min=1, help="first N examples per split")] = None,
    max_probes: Annotated[int, typer.Option(min=1, max=5)] = 2,
    max_rounds: Annotated[int, typer.Option(min=1, max=5)] = 2,
    threads: Annotated[int, typer.Option(min=1, max=32)] = 4,
    seed: Annotated[int, typer.Option()] = 7,
    track: Annotated[bool, typer.Option(help="log to MLflow and register prompts")] = True,
) -> None:
    """Compile the agents' prompts on a golden set; save and register the new version."""
    import dspy

    from evaluation.evalsets import evalset_hash
    from evaluation.optimisers import OptimiserSpec, compile_program
    from evaluation.program_state import (
        copy_state,
        freeze_except,
        instructions_markdown,
        thaw,
    )
    from evaluation.prompt_registry import register_prompts
    from evaluation.tasks import task_for
    from programs import language_models as lms

    try:
        task = task_for(set_name)
        spec = OptimiserSpec(optimiser, budget, seed=seed, num_threads=threads)
    except ValueError as exc:
        raise fail(str(exc)) from None
    name = name or f"{set_name}-{target}-{optimiser}-" + time.strftime("%Y%m%d-%H%M%S")
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}", name):
        raise fail(f"--name {name!r}: use letters, digits, '.', '_' and '-' (a folder name)")
    folder = out_dir / name
    if folder.exists():
        raise fail(f"{folder} exists: choose another --name or remove it")
    grid, research = prepare_research(store, program, max_probes=max_probes, max_rounds=max_rounds)
    splits = {
        s: answerable_examples(task, set_name, s, grid, limit) for s in ("train", "dev", "test")
    }
    model = build_models(lm, api_base)
    proposer = build_models(reflection_lm, api_base).lm if reflection_lm else None
    student = task.program(research)
    baseline_version = program_version(research.dump_state())  # before freezing hides agents
    try:
        # Frozen until the compile ends: it changes what optimisers see, not what runs.
        names = freeze_except(student, target)
    except ValueError as exc:
        raise fail(str(exc)) from None
    params = {
        "set": set_name,
        "split": "test",
        "optimiser": optimiser,
        "target": target,
        "budget": budget,
        "seed": seed,
        "model": model.description,
        "reflection_model": lms.LMSpec(model=reflection_lm).describe()
        if reflection_lm
        else "(task model)",
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
            base_dev = _evaluate_child(student, task, splits["dev"], "dev", "baseline-dev", track)
            base_test = _evaluate_child(
                student, task, splits["test"], "test", "baseline-test", track
            )
            stderr.print(
                f"compiling {', '.join(names)} with {optimiser} ({budget}) on "
                f"{len(splits['train'])} train example(s)",
                highlight=False,
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
            dev = _evaluate_child(candidate, task, splits["dev"], "dev", "compiled-dev", track)
            test = _evaluate_child(candidate, task, splits["test"], "test", "compiled-test", track)
        pages = instructions_markdown(research, names)
        # Selection on dev: a compiled program that scores below the shipped one is not kept.
        selected = "compiled" if dev.score >= base_dev.score else "baseline"
        if selected == "baseline":
            copy_state(baseline, research, names)
            stderr.print(
                f"the compiled program scored below the baseline on dev ({dev.score:.3f} < "
                f"{base_dev.score:.3f}): keeping the baseline prompts; the compiled ones are in "
                "prompts/*.md",
                highlight=False,
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
    console.print(
        metric_table(
            f"{set_name}: {optimiser} ({budget}) on {target}, model {model.description}",
            {
                "baseline dev": base_dev.means,
                "baseline test": base_test.means,
                "compiled dev": dev.means,
                "compiled test": test.means,
            },
        )
    )
    console.print(
        f"saved {folder}/program.json ({selected} prompts); "
        f"use it with: research ask --program {folder}"
    )


def register(app: typer.Typer) -> None:
    app.command("optimise")(optimise_command)
