"""``research optimise``: compile prompts on a golden set and keep the result as a version.

The compile, selection on dev, MLflow logging and the saved folder are
``runs.optimisation``'s; this command checks the options, picks the examples the grid can
answer, and prints the score table.
"""

from __future__ import annotations

import re
import signal
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from cli.errors import fail, say
from cli.evaluation_views import SetOption, answerable_examples, metric_table
from cli.grid_commands import StoreOption
from cli.lm_options import ApiBaseOption, LMOption, build_models
from cli.research_setup import ProgramOption, prepare_research
from runs.program_choice import SHIPPED

console = Console(soft_wrap=True)


def _stop_as_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def optimise_command(
    optimiser: Annotated[
        str, typer.Option(help="labelled, traced, pick, bootstrap, mipro, gepa or simba")
    ] = "bootstrap",
    set_name: SetOption = "financebench",
    target: Annotated[
        str,
        typer.Option(
            help="answer (planner, researcher, reviewer, synthesiser, composer), all, or one "
            "agent: planner, probes, researcher, reviewer, synthesiser, composer"
        ),
    ] = "answer",
    budget: Annotated[
        str, typer.Option(help="light, medium or heavy (bootstrap: 2, 3 or 4 demos per agent)")
    ] = "light",
    demos: Annotated[
        int | None,
        typer.Option(
            min=1,
            max=8,
            help="demos per agent (bootstrap, labelled, traced, pick); default: the budget's",
        ),
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(help="folder under --out-dir; default: 'default' for financebench"),
    ] = None,
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
    max_probes: Annotated[int, typer.Option(min=1, max=5)] = 1,
    max_rounds: Annotated[int, typer.Option(min=1, max=5)] = 2,
    threads: Annotated[int, typer.Option(min=1, max=32)] = 4,
    seed: Annotated[int, typer.Option()] = 7,
    track: Annotated[bool, typer.Option(help="log to MLflow and register prompts")] = True,
) -> None:
    """Compile the agents' prompts on a golden set; save and register the new version.

    Run the same command again after a kill and it continues: finished train runs and
    evaluations are kept in OUT_DIR/.work/NAME.
    """
    from evaluation.optimisers import OptimiserSpec
    from evaluation.tasks import task_for
    from runs.errors import BadRunRequest
    from runs.optimisation import optimise_program
    from runs.optimisation_job import Optimisation

    try:
        task = task_for(set_name)
        spec = OptimiserSpec(optimiser, budget, seed=seed, num_threads=threads, max_demos=demos)
    except ValueError as exc:
        raise fail(str(exc)) from None
    default_name = f"{set_name}-{target}-{optimiser}-" + time.strftime("%Y%m%d-%H%M%S")
    name = name or ("default" if set_name == "financebench" else default_name)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}", name):
        raise fail(f"--name {name!r}: use letters, digits, '.', '_' and '-' (a folder name)")
    folder = out_dir / name
    if folder.exists():
        raise fail(f"{folder} exists: choose another --name or remove it")
    # A compile starts from the shipped prompts unless --program names others.
    start = program or SHIPPED
    grid, research = prepare_research(store, start, max_probes=max_probes, max_rounds=max_rounds)
    splits = {
        s: answerable_examples(task, set_name, s, grid, limit) for s in ("train", "dev", "test")
    }
    model = build_models(lm, api_base)
    proposer = build_models(reflection_lm, api_base).lm if reflection_lm else None
    job = Optimisation(
        task=task,
        spec=spec,
        set_name=set_name,
        target=target,
        name=name,
        folder=folder,
        research=research,
        splits=splits,
        model=model,
        proposer=proposer,
        reflection_lm=reflection_lm,
        track=track,
    )
    # `kill` ends a compile as Ctrl-C does: its MLflow run KILLED, finished examples kept.
    stops = (signal.SIGTERM, signal.SIGHUP)
    previous = {s: signal.signal(s, _stop_as_interrupt) for s in stops}
    try:
        outcome = optimise_program(job, say)
    except BadRunRequest as exc:
        raise fail(str(exc)) from None
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    console.print(
        metric_table(
            f"{set_name}: {optimiser} ({budget}) on {target}, model {model.description}",
            {
                "shipped dev": outcome.base_dev.means,
                "shipped test": outcome.base_test.means,
                "compiled dev": outcome.dev.means,
                "compiled test": outcome.test.means,
            },
        )
    )
    if not outcome.beats_shipped_on_test:
        verdict = "does not beat the shipped prompts on test: nothing uses it unless asked"
    elif folder.name == "default":
        verdict = "beats the shipped prompts on test: research ask uses it by default"
    else:
        verdict = "beats the shipped prompts on test"
    console.print(
        f"saved {folder}/program.json ({outcome.selected} prompts; {verdict}); "
        f"use it with: research ask --program {folder}",
        highlight=False,
        markup=False,  # --out-dir and --name are the user's: brackets are text
    )


def register(app: typer.Typer) -> None:
    app.command("optimise")(optimise_command)
