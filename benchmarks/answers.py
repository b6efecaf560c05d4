"""Answer accuracy, side by side: the full program, a single-call baseline, facts alone.

    uv run python benchmarks/answers.py --questions ../shared/financebench/questions.jsonl \
        --store /work/fullgrid/grid.sqlite --split holdout --methods baseline,facts \
        --lm local/qwen2.5-coder-1.5b-instruct --limit 5 --out answers-run

FinanceBench questions whose evidence document is in the store go through each method on
the same model in one run (``benchmarks.answer_methods``): the research program as
``research ask`` runs it, one search plus one LM call with the same citation protocol, and
(metric questions only) facts + calculator with no LM. Each answer is judged with the
project's answer metric; per method the table gives accuracy, wrong-answer and refusal
rates, the rate of refusals on answerable questions (``refused, page seen``: a gold evidence
page reached the agents, so the refusal was a misreading, not a missing page), median and
p90 seconds per question, LM calls and tokens per question, and citation coverage and
numeric grounding (means over the answers that are not refusals).

A run lives in ``--out``: ``results.jsonl`` gets one line per (model, method, question) as
soon as it is answered, and the next run with the same ``--out`` skips those (a row that
ended in an error is retried); LM calls are cached in ``--out/lm-cache`` (DSPy's disk
cache), so an interrupted question replays its finished calls for free; the program's run
directories go to ``--out/home``. Every wrong or refused answer is labelled with the first
stage that failed (``benchmarks.attribution``: planner, retrieval, citation, judgement,
reading; the row's ``stage``), and the program's rows carry ``round_labels``, the judgement
of its answer had the loop stopped after each round; both are tabulated after the main
table. FinanceBench is by Patronus AI (arXiv 2311.11944).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import statistics
import sys
from collections.abc import Iterator, Sequence
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.answer_cases import HALVES, load_answer_cases, select_cases
from benchmarks.answer_methods import (
    METHODS,
    BaselineRunner,
    ModelOptions,
    run_facts,
    run_program,
    score,
)
from benchmarks.attribution import attribution_table
from benchmarks.retrieval import SHARED
from evaluation.evalsets import SPLITS

RESULTS = "results.jsonl"
#: Stages before any gold page reached the agents: a refusal there is no misreading.
UNANSWERABLE_STAGES = ("planner", "retrieval")
COLUMNS = (
    "method", "n", "accuracy", "wrong", "refusal", "refused, page seen", "median s", "p90 s",
    "LM calls/q", "tokens/q", "citation coverage", "numeric grounding", "errors",
)  # fmt: skip


class ResultLog:
    """``results.jsonl``: every finished (model, method, question), appended as it finishes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.rows: dict[tuple[str, str, str], dict[str, Any]] = {}
        # A killed run may have left a last line without its newline: start a fresh line.
        self._newline = path.exists() and not path.read_bytes().endswith(b"\n")
        if path.exists():
            for line in path.read_text().splitlines():
                try:
                    row = json.loads(line)
                    self.rows[(row["model"], row["method"], row["qid"])] = row
                except (json.JSONDecodeError, KeyError, TypeError):
                    continue  # blank, or the half-written last line of a killed run

    def done(self, model: str, method: str, qid: str) -> bool:
        row = self.rows.get((model, method, qid))
        return row is not None and "error" not in row

    def add(self, row: dict[str, Any]) -> None:
        self.rows[(row["model"], row["method"], row["qid"])] = row
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(
                ("\n" if self._newline else "") + json.dumps(row, ensure_ascii=False) + "\n"
            )
            self._newline = False
            handle.flush()
            os.fsync(handle.fileno())


def _quantile(values: Sequence[float], q: float) -> float:
    """Nearest-rank quantile (the median of two values is the lower: nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)] if ordered else 0.0


def summarise(method: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """One table row: rates over all questions, citation metrics over the answers given."""
    n = len(rows)
    labels = [r["label"] for r in rows]
    answered = [r for r in rows if r["label"] != "refusal"]
    seconds = [r["seconds"] for r in rows]
    # A refusal whose first failed stage comes after retrieval had a gold page in hand.
    answerable_refusals = sum(
        r["label"] == "refusal" and r.get("stage") not in UNANSWERABLE_STAGES for r in rows
    )

    def mean(values: list[float]) -> float | None:
        return round(statistics.fmean(values), 3) if values else None

    return {
        "method": method,
        "n": n,
        "accuracy": round(labels.count("correct") / n, 3) if n else None,
        "wrong": round(labels.count("incorrect") / n, 3) if n else None,
        "refusal": round(labels.count("refusal") / n, 3) if n else None,
        "refused, page seen": round(answerable_refusals / n, 3) if n else None,
        "median s": round(statistics.median(seconds), 2) if seconds else None,
        "p90 s": round(_quantile(seconds, 0.9), 2) if seconds else None,
        "LM calls/q": mean([r["lm_calls"] for r in rows]),
        "tokens/q": round(statistics.fmean(r["tokens"] for r in rows)) if rows else None,
        "citation coverage": mean([r["citation_coverage"] for r in answered]),
        "numeric grounding": mean([r["numeric_grounding"] for r in answered]),
        "errors": sum("error" in r for r in rows),
    }


def round_accuracy(rows: list[dict[str, Any]]) -> str:
    """``after round 1: 0.40 · after round 2: 0.45``: the program's answers had the loop
    stopped after each round, so a round that makes answers worse shows."""
    labelled = [r["round_labels"] for r in rows if r.get("round_labels")]
    if not labelled:
        return ""
    rounds = max(len(labels) for labels in labelled)
    parts = []
    for number in range(rounds):
        correct = sum(labels[min(number, len(labels) - 1)] == "correct" for labels in labelled)
        parts.append(f"after round {number + 1}: {correct / len(labelled):.3f}")
    return f"program accuracy by round ({len(labelled)} questions): " + " · ".join(parts)


def markdown_table(summary: list[dict[str, Any]]) -> str:
    def cell(value: Any) -> str:
        return "–" if value is None else str(value)

    lines = [
        "| " + " | ".join(COLUMNS) + " |",
        "| --- | " + " | ".join("---:" for _ in COLUMNS[1:]) + " |",
    ]
    lines += ["| " + " | ".join(cell(row[c]) for c in COLUMNS) + " |" for row in summary]
    return "\n".join(lines)


@contextlib.contextmanager
def _environment(name: str, value: str) -> Iterator[None]:
    """``$name`` set for the benchmark, restored afterwards (the program reads it per run)."""
    before = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, default=SHARED / "questions.jsonl")
    parser.add_argument("--store", type=Path, default=None, help="grid store (default: user's)")
    parser.add_argument("--split", choices=[*SPLITS, *HALVES], default=None)
    parser.add_argument("--limit", type=int, default=None, help="the first N selected questions")
    parser.add_argument(
        "--question-type",
        choices=["domain-relevant", "novel-generated", "metrics-generated"],
        default=None,
        help="only questions of this FinanceBench type",
    )
    parser.add_argument("--lm", default=None, help="model for every method (default: bundled)")
    parser.add_argument("--api-base", default=None, help="an OpenAI-compatible server")
    parser.add_argument("--methods", default=",".join(METHODS), help="comma list of methods")
    parser.add_argument("--max-tokens", type=int, default=None, help="output tokens per call")
    parser.add_argument("--max-probes", type=int, default=5, help="program: probes per slice")
    parser.add_argument("--max-rounds", type=int, default=5, help="program: review rounds")
    parser.add_argument("--run-timeout", type=float, default=None, help="program: seconds/run")
    parser.add_argument(
        "--no-company-context",
        dest="company_context",
        action="store_false",
        help="program: do not tell a question that names no company its document's company",
    )
    parser.add_argument(
        "--no-period-context",
        dest="period_context",
        action="store_false",
        help="program: do not tell a question that names no period its document's period",
    )
    parser.add_argument("--out", type=Path, default=Path("answers-benchmark"), help="run folder")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    unknown = sorted(set(methods) - set(METHODS))
    if unknown or not methods:
        parser.error(f"unknown method(s) {unknown}; choose from {', '.join(METHODS)}")
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be at least 1")
    args.methods = methods
    return args


def run_benchmark(args: argparse.Namespace) -> dict[str, Any]:
    """Answer, score and log every selected question by every method; the summary."""
    import dspy

    from lm.language_models import LMSpec
    from retrieval.open_store import open_store
    from retrieval.search.hybrid import HybridSearcher
    from runs.redaction import redact

    args.out.mkdir(parents=True, exist_ok=True)
    dspy.configure_cache(
        enable_disk_cache=True, enable_memory_cache=True, disk_cache_dir=str(args.out / "lm-cache")
    )
    store = open_store(args.store)
    cases, skipped = load_answer_cases(args.questions, store)
    if args.question_type:
        cases = [c for c in cases if c.question_type == args.question_type]
    cases = select_cases(cases, args.split, args.limit)
    model = redact(LMSpec(model=args.lm, api_base=args.api_base).describe())
    options = ModelOptions(
        args.lm,
        args.api_base,
        args.max_tokens,
        args.max_probes,
        args.max_rounds,
        args.run_timeout,
        args.company_context,
        args.period_context,
    )
    log = ResultLog(args.out / RESULTS)
    baseline = None
    for method in args.methods:
        for case in cases:
            if log.done(model, method, case.qid):
                continue
            if method == "program":
                outcome = run_program(case, args.store, options)
            elif method == "baseline":
                baseline = baseline or BaselineRunner(HybridSearcher(store), _models(options))
                outcome = baseline(case)
            else:
                outcome = run_facts(case, store)
            if outcome is None:
                continue
            row = {
                "model": model,
                "method": method,
                "qid": case.qid,
                "question_type": case.question_type,
                "split": case.split,
                "half": case.half,
                "slice": case.slice_label,
                "gold": case.gold,
                **score(case, outcome),
            }
            log.add(row)
            print(
                f"{method:>8} {case.qid} {row['label']:>9} {row['seconds']:7.1f}s", file=sys.stderr
            )
    qids = {c.qid for c in cases}
    summary = []
    for method in args.methods:
        rows = [
            r for (m, meth, q), r in log.rows.items() if (m, meth) == (model, method) and q in qids
        ]
        summary.append(summarise(method, rows))
    return {
        "model": model,
        "split": args.split or "all",
        "date": date.today().isoformat(),
        "questions": len(cases),
        "questions_skipped": skipped,
        "summary": summary,
        "rows": [r for (m, _, q), r in log.rows.items() if m == model and q in qids],
    }


def _models(options: ModelOptions) -> Any:
    """The baseline's models, built and checked like a run's (a bad --lm is one line)."""
    from lm.run_models import ModelSetupError, build_models

    try:
        return build_models(options.lm, options.api_base, max_tokens=options.max_tokens)
    except ModelSetupError as exc:
        raise SystemExit(f"error: {exc}") from None


def main(argv: Sequence[str] | None = None) -> None:
    args = _parse(argv)
    if not args.questions.exists():
        raise SystemExit(f"error: no questions file at {args.questions}")
    if args.store is not None and not args.store.exists():
        raise SystemExit(f"error: no grid store at {args.store}")
    with _environment("WISSEN_HOME", str((args.out / "home").resolve())):
        try:
            result = run_benchmark(args)
        except ValueError as exc:
            raise SystemExit(f"error: {exc}") from None
        except KeyboardInterrupt:
            print(
                f"interrupted: finished answers are kept in {args.out / RESULTS}; run again "
                "with the same --out to resume",
                file=sys.stderr,
            )
            raise SystemExit(130) from None
    table = markdown_table(result["summary"])
    by_stage = attribution_table(result["rows"])
    rounds = round_accuracy([r for r in result["rows"] if r["method"] == "program"])
    (args.out / "summary.md").write_text(
        "\n\n".join(filter(None, [table, by_stage, rounds])) + "\n"
    )
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return
    print(
        f"model {result['model']} · split {result['split']} · {result['questions']} questions "
        f"({result['questions_skipped']} of the file's questions skipped: document not in "
        f"the store) · {result['date']}"
    )
    print(table)
    print("\nWrong or refused answers by the first stage that failed:\n")
    print(by_stage)
    if rounds:
        print("\n" + rounds)


if __name__ == "__main__":
    main()
