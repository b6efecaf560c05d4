"""``research ask``: a question in, a cited report out, with a live trace and a run record."""

from __future__ import annotations

import contextlib
import json
import time
import uuid
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markdown import Markdown

from cli.errors import EXIT_FAILED, fail, stderr
from cli.grid_commands import StoreOption
from cli.lm_options import ApiBaseOption, LMOption, build_models
from cli.research_setup import ProgramOption, prepare_research
from cli.runs_command import REDACTED, RunDir, redact, research_options, resumable
from cli.tracking import program_version, tracked_run

console = Console(soft_wrap=True)


def _trace_printer(start: float):
    """An observer that prints each research event as one line with elapsed time."""

    def show(event: Any) -> None:
        where = " · ".join(x for x in (event.slice, event.probe) if x)
        detail = f" {event.detail}" if event.detail else ""
        stderr.print(
            f"[dim]{time.perf_counter() - start:6.1f}s[/] [cyan]{event.kind:<11}[/] "
            f"{where}{detail}",
            highlight=False,
            markup=True,
        )

    return show


def _lm_usage(lms: list[Any], marks: dict[int, int]) -> dict[str, Any]:
    """Calls, tokens and cost the LMs logged since ``marks`` (history lengths before the run)."""
    calls = prompt = completion = 0
    cost = 0.0
    for lm in lms:
        for entry in lm.history[marks.get(id(lm), 0) :]:
            calls += 1
            usage = entry.get("usage") or {}
            prompt += int(usage.get("prompt_tokens") or 0)
            completion += int(usage.get("completion_tokens") or 0)
            cost += float(entry.get("cost") or 0.0)
    return {
        "lm_calls": calls,
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "cost_usd": round(cost, 6),
    }


def _distinct_lms(program: Any, default: Any) -> list[Any]:
    lms = {id(default): default}
    for _, predictor in program.named_predictors():
        if getattr(predictor, "lm", None) is not None:
            lms[id(predictor.lm)] = predictor.lm
    return list(lms.values())


def _report_metrics(prediction: Any) -> dict[str, float]:
    from metrics import score_citation_coverage, score_daggers, score_numeric_grounding

    report = prediction.report
    coverage = score_citation_coverage(report, getattr(prediction, "retrieved_uids", None))
    grounding = score_numeric_grounding(report, getattr(prediction, "page_texts", {}) or {})
    daggers = score_daggers(report, getattr(prediction, "flagged_slices", None))
    return {
        "citation_coverage": coverage.score,
        "numeric_grounding": grounding.score,
        "dagger_correctness": daggers.score,
    }


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
    import dspy

    from programs.errors import PlanningError
    from programs.language_models import apply_agent_lms
    from programs.planning_rules import clean_question, question_too_long

    previous = resumable(resume, question) if resume is not None else None
    if previous is not None:
        stored = previous.options
        question, lm = stored["question"], stored["lm"]
        agents, program, store = stored["agents"], stored["program"], stored["store"]
        max_probes, max_rounds = stored["max_probes"], stored["max_rounds"]
        api_base = api_base or stored["api_base"]  # the server may have moved
        if api_base and REDACTED in api_base:
            raise fail("the run's --api-base held credentials, never stored: give it again")
    question = clean_question(question or "")
    if not question:
        raise fail("the question is empty: ask something about a listed company")
    if too_long := question_too_long(question):
        raise fail(too_long)
    models = build_models(
        lm,
        api_base,
        agents=agents,
        fallbacks=fallback_lm,
        lm_timeout=lm_timeout,
        retries=retries,
        backoff=backoff,
        max_tokens=max_tokens,
        max_calls=max_calls,
        timeout=timeout,
    )
    spec, default_lm, resilience = models.spec, models.lm, models.resilience

    _, research = prepare_research(
        store, program, max_probes=max_probes, max_rounds=max_rounds, concurrency=concurrency
    )
    settings = research.settings
    apply_agent_lms(research, models.overrides)
    start = time.perf_counter()
    if not quiet:
        research.observer = _trace_printer(start)
    lms = _distinct_lms(research, default_lm)
    marks = {id(x): len(x.history) for x in lms}
    run_id = previous.run_id if previous else time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
    version = program_version(research.dump_state())
    params = {
        "model": redact(spec.describe()),
        "program_version": version,
        "question": question,
        "max_probes": max_probes,
        "max_rounds": max_rounds,
        "run_id": run_id,
    }

    options = research_options(
        question=question,
        lm=lm,
        api_base=api_base,
        agents=agents,
        program=program,
        store=store,
        max_probes=max_probes,
        max_rounds=max_rounds,
    )
    run = RunDir.start(run_id, {**params, "options": options, "settings": settings.model_dump()})
    research.checkpoint = run.checkpoint
    tracking = tracked_run("wissen-ask", run_id, params) if track else contextlib.nullcontext()
    tracking = run.guard(tracking)  # a run that fails or is interrupted says so in meta.json
    try:
        with tracking:
            with dspy.context(lm=default_lm, adapter=models.adapter):
                prediction = research(question=question)
            metrics = _report_metrics(prediction)
            usage = _lm_usage(lms, marks)
            record = _record(prediction, params, usage, metrics, start)
            faults = resilience.record()
            record["lm_faults"] = {
                k: redact(v) if isinstance(v, str) else v for k, v in faults.items()
            }
            if track:
                import mlflow

                mlflow.log_metrics({**metrics, **{k: float(v) for k, v in usage.items()}})
                mlflow.log_text(prediction.report, "report.md")
                mlflow.log_dict(record, "run.json")
    except PlanningError as exc:
        if failure := resilience.failure_message():  # the planner had no model to ask
            raise fail(redact(f"{exc} ({failure})"), EXIT_FAILED) from None
        raise fail(str(exc)) from None

    record_json = json.dumps(record, indent=2, default=str)
    (run.path / "report.md").write_text(prediction.report)
    (run.path / "run.json").write_text(record_json)
    run.finish(lm_calls=usage["lm_calls"])
    footer = (
        f"\n---\n*Model {params['model']} · {usage['lm_calls']} LM calls · "
        f"{usage['prompt_tokens'] + usage['completion_tokens']} tokens · "
        f"{record['wall_seconds']:.1f} s · run {run_id}*\n"
    )
    report = prediction.report.rstrip() + "\n" + footer
    if out:
        out.write_text(report)
    if json_out:
        json_out.write_text(record_json)
    console.print(Markdown(report))
    if failure := resilience.failure_message():
        raise fail(redact(failure), EXIT_FAILED)
    if not prediction.report.strip():
        raise typer.Exit(EXIT_FAILED)


def _record(prediction, params, usage, metrics, start) -> dict[str, Any]:
    return {
        **params,
        **(getattr(prediction, "record", None) or {}),
        "usage": usage,
        "metrics": metrics,
        "wall_seconds": round(time.perf_counter() - start, 3),
    }


def register(app: typer.Typer) -> None:
    app.command("ask")(ask_command)
