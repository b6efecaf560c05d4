"""``research ask``: a question in, a cited report out, with a live trace and a run record.

The run itself is ``runs.service``'s; this command reads the options, follows the run's
events as a trace on stderr and prints the report with a footer.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.text import Text

from cli.errors import EXIT_FAILED, fail, interrupted, say, stderr
from cli.grid_commands import StoreOption
from cli.lm_options import ApiBaseOption, LMOption
from cli.output_files import OutputError, check_destinations, not_saved, write_output
from cli.research_setup import ProgramOption
from cli.terminal_text import plain

console = Console(soft_wrap=True)


def print_report(markdown: str, target: Console | None = None) -> None:
    """Print a report's Markdown, every block wrapped at the terminal's width.

    Wrapped by Rich, not soft-wrapped: with ``soft_wrap`` Rich leaves a long paragraph to
    the terminal to fold but crops a list item at the width, so the **Scope** notes (and
    the formulas and Sources) lost their ends on a narrow terminal. Here each block wraps
    at word boundaries, list items under their bullet, and nothing is cut.
    """
    (target or console).print(Markdown(markdown), soft_wrap=False)


def _trace_printer(start: float):
    """An observer that prints each research event as one line with elapsed time."""

    def show(event: Any) -> None:
        # Slices, probes and details quote the question, documents and tool queries: plain
        # text beside the styled time and kind, never read as markup.
        where = " · ".join(x for x in (event.slice, event.probe) if x)
        detail = f" {event.detail}" if event.detail else ""
        stderr.print(
            Text.assemble(
                (f"{time.perf_counter() - start:6.1f}s", "dim"),
                " ",
                (f"{event.kind:<11}", "cyan"),
                " ",
                plain(f"{where}{detail}"),
            ),
            highlight=False,
        )

    return show


def ask_command(
    question: Annotated[
        str | None,
        typer.Argument(help="a research question about listed companies (none with --resume)"),
    ] = None,
    lm: LMOption = None,
    api_base: ApiBaseOption = None,
    agents: Annotated[
        Path | None, typer.Option(help="TOML of per-agent LM overrides, e.g. [reviewer]")
    ] = None,
    program: ProgramOption = None,
    max_probes: Annotated[int, typer.Option(min=1, max=5)] = 5,
    max_rounds: Annotated[int, typer.Option(min=1, max=5)] = 5,
    figures: Annotated[
        bool,
        typer.Option(
            help="answer figure questions from statement facts and the calculator "
            "(--no-figures: the agents alone)"
        ),
    ] = True,
    concurrency: Annotated[int, typer.Option(min=1, max=64)] = 8,
    out: Annotated[Path | None, typer.Option(help="write the report Markdown here")] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="write the run record here")
    ] = None,
    store: StoreOption = None,
    track: Annotated[bool, typer.Option(help="log the run to MLflow")] = True,
    quiet: Annotated[bool, typer.Option(help="no live trace")] = False,
    resume: Annotated[
        str | None,
        typer.Option(
            metavar="RUN_ID",
            help="continue a stopped run (see `research runs`): its question, model, program, "
            "store and bounds; finished work is not redone",
        ),
    ] = None,
    fallback_lm: Annotated[
        list[str] | None,
        typer.Option(
            metavar="MODEL",
            help="a model to use when --lm keeps failing (repeatable, tried in order; "
            "same --api-base), e.g. a cheaper model of the same provider",
        ),
    ] = None,
    max_calls: Annotated[
        int | None, typer.Option(min=1, help="LM requests for the whole run, retries included")
    ] = None,
    timeout: Annotated[
        float | None,
        typer.Option(min=0.01, help="seconds of run time; later LM calls fail fast (daggers)"),
    ] = None,
    lm_timeout: Annotated[
        float, typer.Option(min=0.01, help="seconds one LM request may take")
    ] = 120.0,
    retries: Annotated[
        int,
        typer.Option(
            min=0, max=10, help="retries per model on 429/5xx/timeouts (--agents may override)"
        ),
    ] = 3,
    backoff: Annotated[
        float, typer.Option(min=0.0, help="first retry's wait in seconds; doubles, with jitter")
    ] = 0.5,
    max_tokens: Annotated[
        int | None,
        typer.Option(
            min=16, help="output tokens per LM call (default: the provider's limit; 768 bundled)"
        ),
    ] = None,
) -> None:
    """Research a question over the grid and print a cited report."""
    from retrieval.sqlite_store import NotAGridStore
    from runs.errors import BadRunRequest, RunAlreadyComplete, RunFailed
    from runs.record import describe_usage
    from runs.service import ResearchRequest, prepare_run

    try:
        check_destinations(out, json_out)  # before any LM call: a bad --out wastes none
    except OutputError as exc:
        raise fail(str(exc)) from None
    request = ResearchRequest(
        question=question,
        lm=lm,
        api_base=api_base,
        agents=agents,
        program=program,
        store=store,
        max_probes=max_probes,
        max_rounds=max_rounds,
        figures=figures,
        concurrency=concurrency,
        track=track,
        fallback_lm=tuple(fallback_lm or ()),
        max_calls=max_calls,
        timeout=timeout,
        lm_timeout=lm_timeout,
        retries=retries,
        backoff=backoff,
        max_tokens=max_tokens,
        resume=resume,
    )
    run = None
    try:
        run = prepare_run(request)
        if not quiet:
            run.events.subscribe(_trace_printer(time.perf_counter()))
        result = run.execute()
    except KeyboardInterrupt:  # the run directory is marked interrupted by now
        raise interrupted(run.run_id if run else None) from None
    except RunAlreadyComplete as done:
        say(f"run {done.run.run_id} is already complete; its report:")
        print_report(done.run.report() or "(no report)")
        raise typer.Exit(0) from None
    except RunFailed as exc:
        raise fail(str(exc), EXIT_FAILED) from None
    except (BadRunRequest, NotAGridStore) as exc:  # --store mlflow.db: as `grid` says it
        raise fail(str(exc)) from None

    footer = (
        f"\n---\n*Model {result.model} · prompts {result.program} · "
        f"{describe_usage(result.usage)} · "
        f"{result.record['wall_seconds']:.1f} s · run {result.run_id}*\n"
    )
    report = result.report.rstrip() + "\n" + footer
    problems = [
        problem
        for problem in (
            write_output(out, report, "--out") if out else None,
            write_output(json_out, result.record_json, "--json") if json_out else None,
            result.saved_error,
        )
        if problem
    ]
    print_report(report)
    if problems:
        raise fail(not_saved(result, problems), EXIT_FAILED)
    if result.failure:
        raise fail(result.failure, EXIT_FAILED)
    if not result.report.strip():
        raise typer.Exit(EXIT_FAILED)


def register(app: typer.Typer) -> None:
    app.command("ask")(ask_command)
