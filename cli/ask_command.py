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
from cli.tracking import data_dir, program_version, tracked_run

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
    question: Annotated[str, typer.Argument(help="a research question about listed companies")],
    lm: Annotated[
        str | None, typer.Option(help="DSPy model string, e.g. openai/gpt-4.1 (default: bundled)")
    ] = None,
    api_base: Annotated[
        str | None, typer.Option(help="an OpenAI-compatible server (vLLM, llama.cpp, Ollama)")
    ] = None,
    agents: Annotated[
        Path | None, typer.Option(help="TOML of per-agent LM overrides, e.g. [reviewer]")
    ] = None,
    program: Annotated[
        Path | None, typer.Option(help="a compiled program (optimised/NAME or its program.json)")
    ] = None,
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
) -> None:
    """Research a question over the grid and print a cited report."""
    import dspy

    from programs.errors import PlanningError
    from programs.language_models import (
        LMSpec,
        apply_agent_lms,
        build_lm,
        check_lm_reachable,
        default_adapter,
        load_agent_overrides,
    )
    from programs.research_program import ResearchProgram, ResearchSettings
    from retrieval.open_store import open_store
    from retrieval.search import HybridSearcher

    question = " ".join(question.split())
    if not question:
        raise fail("the question is empty: ask something about a listed company")
    try:
        spec = LMSpec(model=lm, api_base=api_base) if lm or api_base else LMSpec()
        check_lm_reachable(spec)
        default_lm = build_lm(spec)
        overrides = load_agent_overrides(agents, base=spec) if agents else {}
        for override in overrides.values():
            check_lm_reachable(override)
    except (ValueError, RuntimeError, OSError) as exc:
        raise fail(str(exc)) from None

    grid = open_store(store)
    settings = ResearchSettings(
        max_probes=max_probes, max_rounds=max_rounds, concurrency=concurrency
    )
    research = ResearchProgram(HybridSearcher(grid), settings=settings)
    if program:
        research = _load_program(research, program)
    apply_agent_lms(research, overrides)
    start = time.perf_counter()
    if not quiet:
        research.observer = _trace_printer(start)
    lms = _distinct_lms(research, default_lm)
    marks = {id(x): len(x.history) for x in lms}
    run_id = time.strftime("%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
    version = program_version(research.dump_state())
    params = {
        "model": spec.describe(),
        "program_version": version,
        "question": question,
        "max_probes": max_probes,
        "max_rounds": max_rounds,
        "run_id": run_id,
    }

    tracking = tracked_run("wissen-ask", run_id, params) if track else contextlib.nullcontext()
    try:
        with tracking:
            with dspy.context(lm=default_lm, adapter=default_adapter(spec)):
                prediction = research(question=question)
            metrics = _report_metrics(prediction)
            usage = _lm_usage(lms, marks)
            record = _record(prediction, params, usage, metrics, start)
            if track:
                import mlflow

                mlflow.log_metrics({**metrics, **{k: float(v) for k, v in usage.items()}})
                mlflow.log_text(prediction.report, "report.md")
                mlflow.log_dict(record, "run.json")
    except PlanningError as exc:
        raise fail(str(exc)) from None

    record_json = json.dumps(record, indent=2, default=str)
    run_dir = data_dir() / "runs" / run_id
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "report.md").write_text(prediction.report)
    (run_dir / "run.json").write_text(record_json)
    footer = (
        f"\n---\n*Model {spec.describe()} · {usage['lm_calls']} LM calls · "
        f"{usage['prompt_tokens'] + usage['completion_tokens']} tokens · "
        f"{record['wall_seconds']:.1f} s · run {run_id}*\n"
    )
    report = prediction.report.rstrip() + "\n" + footer
    if out:
        out.write_text(report)
    if json_out:
        json_out.write_text(record_json)
    console.print(Markdown(report))
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


def _load_program(research: Any, path: Path) -> Any:
    """Load compiled prompts and demos into ``research``; a clear error if they don't fit."""
    file = path / "program.json" if path.is_dir() else path
    if not file.exists():
        raise fail(f"no compiled program at {file}")
    try:
        research.load(str(file))
    except Exception as exc:  # DSPy raises several types for state that does not fit
        raise fail(f"{file} does not fit this version of the program: {exc}") from None
    return research


def register(app: typer.Typer) -> None:
    app.command("ask")(ask_command)
