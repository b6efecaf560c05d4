"""``research ask``: a question in, a cited report out, with a live trace and a run record.

The run itself is ``runs.service``'s; this command reads the options (the settings' flags
are derived from :class:`~runs.settings.RunSettings`), follows the run's events as a trace
on stderr and prints the report with a footer.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from cli.errors import EXIT_FAILED, fail, interrupted, say, stderr
from cli.grid_commands import StoreOption, say_seeding
from cli.lm_options import ApiBaseOption, LMOption
from cli.output_files import OutputError, check_destinations, not_saved, write_output
from cli.research_setup import ProgramOption, setting_option, settings_from_flags
from cli.terminal_text import plain, print_markdown

console = Console(soft_wrap=True)


def print_report(markdown: str, target: Console | None = None) -> None:
    """Print a report's Markdown (:func:`cli.terminal_text.print_markdown`)."""
    print_markdown(markdown, target or console)


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


def _check_outputs(out: Path | None, json_out: Path | None) -> None:
    """Refuse a bad --out/--json before any LM call, so it wastes none."""
    try:
        check_destinations(out, json_out)
    except OutputError as exc:
        raise fail(str(exc)) from None


def _request(question: str | None, resume: str | None, flags: dict[str, Any]) -> Any:
    """The run asked for: the question (or run to resume) and the settings the flags give
    over the environment, the config file and the defaults."""
    from runs.service import ResearchRequest

    return ResearchRequest(question, settings_from_flags(**flags), resume)


def _research(request: Any, quiet: bool) -> Any:
    """Prepare and execute the run, its trace on stderr; every way it can stop is a one-line
    message and an exit code (a completed run asked to resume prints its report)."""
    from retrieval.sqlite.store import NotAGridStore
    from runs.errors import BadRunRequest, RunAlreadyComplete, RunFailed
    from runs.service import prepare_run

    run = None
    try:
        run = prepare_run(request, on_seed=say_seeding)
        if not quiet:
            run.events.subscribe(_trace_printer(time.perf_counter()))
        return run.execute()
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


def _with_footer(result: Any) -> str:
    """The report with a footer: model, prompts, usage, time and run id."""
    from runs.record import describe_usage

    footer = (
        f"\n---\n*Model {result.model} · prompts {result.program} · "
        f"{describe_usage(result.usage)} · "
        f"{result.record['wall_seconds']:.1f} s · run {result.run_id}*\n"
    )
    return result.report.rstrip() + "\n" + footer


def _deliver(result: Any, report: str, out: Path | None, json_out: Path | None) -> None:
    """Write --out/--json, print the report, and exit 1 when anything was not saved, the
    LM failed throughout, or there is no report."""
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


def ask_command(
    question: Annotated[
        str | None,
        typer.Argument(help="a research question about listed companies (none with --resume)"),
    ] = None,
    lm: LMOption = None,
    api_base: ApiBaseOption = None,
    agents: Annotated[Path | None, setting_option("agents")] = None,
    program: ProgramOption = None,
    company: Annotated[str | None, setting_option("company", metavar="TICKER")] = None,
    period: Annotated[str | None, setting_option("period", metavar="PERIOD")] = None,
    max_probes: Annotated[int | None, setting_option("max_probes")] = None,
    max_rounds: Annotated[int | None, setting_option("max_rounds")] = None,
    figures: Annotated[bool | None, setting_option("figures", "--figures/--no-figures")] = None,
    web_sources: Annotated[
        bool | None, setting_option("web_sources", "--web-sources/--no-web-sources")
    ] = None,
    concurrency: Annotated[int | None, setting_option("concurrency")] = None,
    out: Annotated[Path | None, typer.Option(help="write the report Markdown here")] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="write the run record here")
    ] = None,
    store: StoreOption = None,
    track: Annotated[bool | None, setting_option("track", "--track/--no-track")] = None,
    quiet: Annotated[bool, typer.Option(help="no live trace")] = False,
    resume: Annotated[
        str | None,
        typer.Option(
            metavar="RUN_ID",
            help="continue a stopped run (see `research runs`): its question, model, program, "
            "store and bounds; finished work is not redone",
        ),
    ] = None,
    fallback_lm: Annotated[list[str] | None, setting_option("fallback_lm", metavar="MODEL")] = None,
    max_calls: Annotated[int | None, setting_option("max_calls")] = None,
    timeout: Annotated[float | None, setting_option("timeout")] = None,
    lm_timeout: Annotated[float | None, setting_option("lm_timeout")] = None,
    retries: Annotated[int | None, setting_option("retries")] = None,
    backoff: Annotated[float | None, setting_option("backoff")] = None,
    max_tokens: Annotated[int | None, setting_option("max_tokens")] = None,
) -> None:
    """Research a question over the grid and print a cited report.

    Options not given come from $WISSEN_* variables, then the run table of
    $WISSEN_HOME/config.toml, then the defaults shown (docs/settings.md).
    """
    flags = dict(locals())  # every parameter; the settings among them make the request
    _check_outputs(out, json_out)
    request = _request(question, resume, flags)
    result = _research(request, quiet)
    _deliver(result, _with_footer(result), out, json_out)


def register(app: typer.Typer) -> None:
    app.command("ask")(ask_command)
