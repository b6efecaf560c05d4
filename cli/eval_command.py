"""``research eval``: score a program (the shipped one or a compiled one) on a golden set."""

from __future__ import annotations

import contextlib
import time
import uuid
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from cli.errors import fail, say
from cli.evaluation_views import SetOption, answerable_examples, metric_table
from cli.grid_commands import StoreOption
from cli.lm_options import ApiBaseOption, LMOption, build_models
from cli.research_setup import (
    ProgramOption,
    prepare_research,
    setting_option,
    settings_from_flags,
)
from cli.terminal_text import plain
from runs.program_choice import choose_program
from runs.tracking import log_outcome, program_version, tracked_run

console = Console(soft_wrap=True)


def example_table(outcome: Any) -> Table:
    """One row per example (ids point into the evalset file); a failed run is marked."""
    table = Table(title="per example", title_justify="left")
    table.add_column("id", no_wrap=True)
    for metric in outcome.metrics:
        table.add_column(metric, justify="right", overflow="fold")
    for row in outcome.rows:
        cells = [
            f"{row['metrics'][m]:.2f}" if m in row["metrics"] else "-" for m in outcome.metrics
        ]
        table.add_row(plain(row["id"] + (" (failed)" if row["error"] else "")), *cells)
    return table


def eval_command(
    set_name: SetOption = "financebench",
    split: Annotated[str, typer.Option(help="train, dev or test")] = "test",
    program: ProgramOption = None,
    limit: Annotated[int | None, typer.Option(min=1, help="first N examples only")] = None,
    lm: LMOption = None,
    api_base: ApiBaseOption = None,
    store: StoreOption = None,
    max_probes: Annotated[int | None, setting_option("max_probes")] = None,
    max_rounds: Annotated[int | None, setting_option("max_rounds")] = None,
    threads: Annotated[int, typer.Option(min=1, max=32, help="examples run at once")] = 1,
    examples: Annotated[bool, typer.Option("--examples", help="also print each example")] = False,
    track: Annotated[bool, typer.Option(help="log the evaluation to MLflow")] = True,
) -> None:
    """Score a program on a golden set with every metric; one MLflow run per evaluation."""
    import dspy

    from evaluation.evalsets import evalset_hash
    from evaluation.runner import evaluate
    from evaluation.tasks import task_for

    try:
        task = task_for(set_name)
    except ValueError as exc:
        raise fail(str(exc)) from None
    # The run settings these options share with `research ask` (config file and environment
    # included); tracking and concurrency are the evaluation's own.
    settings = settings_from_flags(
        lm=lm,
        api_base=api_base,
        store=store,
        program=program,
        max_probes=max_probes,
        max_rounds=max_rounds,
    )
    program, max_probes, max_rounds = settings.program, settings.max_probes, settings.max_rounds
    grid, research = prepare_research(
        settings.store, program, max_probes=max_probes, max_rounds=max_rounds
    )
    chosen = answerable_examples(task, set_name, split, grid, limit)
    model = build_models(settings.lm, settings.api_base)
    run_name = f"eval-{set_name}-{split}-" + time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:4]
    params = {
        "set": set_name,
        "split": split,
        "model": model.description,
        "program": choose_program(program).label,
        "program_version": program_version(research.dump_state()),
        "evalset_hash": evalset_hash(set_name),
        "examples": len(chosen),
        "max_probes": max_probes,
        "max_rounds": max_rounds,
    }
    say(f"evaluating on {len(chosen)} {set_name} {split} example(s) with {model.description}")
    tracking = tracked_run("wissen-eval", run_name, params) if track else contextlib.nullcontext()
    with tracking:
        with dspy.context(lm=model.lm, adapter=model.adapter):
            outcome = evaluate(task.program(research), task, chosen, split, num_threads=threads)
        if track:
            log_outcome(outcome)
    console.print(
        metric_table(f"{set_name} / {split} ({len(chosen)} examples)", {"mean": outcome.means})
    )
    if examples:
        console.print(example_table(outcome))
    if outcome.errors:
        say(f"{outcome.errors} example(s) failed to run and scored 0")


def register(app: typer.Typer) -> None:
    app.command("eval")(eval_command)
