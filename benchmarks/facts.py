"""Facts + calculator benchmark on FinanceBench-format metric questions.

    uv run python benchmarks/facts.py --questions ../shared/financebench/questions.jsonl \
        --store /work/fullgrid/grid.sqlite

For each ``metrics-generated`` question whose document is in the store:

* **extraction**: every input the (deterministically chosen) formula needs is present as a
  fact, for its period, read from one of the question's evidence pages;
* **answered** by facts + calculator with the formula chosen (a) by deterministic parsing
  of the question and (b) by the formula module on a language model (``--lm``, default the
  bundled local model; ``--no-lm`` skips it): correct / wrong / refused, judged by the
  project's answer metric (``metrics.answer_correctness.judge_answer``: 1% relative or the
  rounding the question asks for). A refusal is better than a wrong number;
* **extraction time**: ``facts_from_page`` over every page in the store.

Questions are split in two fixed halves by a hash of their id (``benchmarks.retrieval``):
rules are tuned on ``tune`` and must hold on ``holdout``. FinanceBench is by Patronus AI
(arXiv 2311.11944).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.retrieval import SHARED, half_of
from calculator.answers import format_value
from calculator.choice import FormulaChoice, choose_formula, presentation_for
from calculator.concepts import SUBSTITUTES
from calculator.definitions import metric_formulas
from calculator.errors import CalculationError
from calculator.evaluation import calculate
from calculator.expressions import parse_formula, references
from calculator.resolution import FactResolver
from domain.periods import Period
from retrieval.facts.extract import document_facts, facts_from_page
from retrieval.facts.model import Fact
from retrieval.pages import page_uid
from retrieval.sqlite.store import SQLiteStore
from retrieval.store import GridFilter, default_store_path

QUESTION_TYPE = "metrics-generated"


@dataclass
class Case:
    qid: str
    half: str
    question: str
    gold: str
    doc_name: str
    period: Period
    evidence: set[str]
    facts: list[Fact] = field(default_factory=list)


def load_cases(path: Path, store: SQLiteStore, extract: bool) -> tuple[list[Case], int]:
    """(cases whose document is in the store, questions skipped for a missing document)."""
    cases, skipped = [], 0
    for n, line in enumerate(path.read_text().splitlines()):
        if not line.strip():
            continue
        q = json.loads(line)
        if q.get("question_type") != QUESTION_TYPE:
            continue
        qid = q.get("financebench_id") or f"q{n}"
        evidence = {
            page_uid(ev.get("doc_name") or q["doc_name"], int(ev["evidence_page_num"]))
            for ev in q["evidence"]
        }
        pages = store.pages_by_uid(sorted(evidence))
        if not pages:
            skipped += 1
            continue
        page = pages[0]
        where = GridFilter(ticker=page.ticker, fy=page.fy, fq=page.fq)
        if extract:
            facts = document_facts(store.document_pages(page.doc_name))
        else:
            facts = store.facts(where)
        period = Period(page.fy) if page.doc_type == "10-K" else Period(page.fy, page.fq)
        cases.append(
            Case(
                qid,
                half_of(qid),
                q["question"],
                str(q["answer"]),
                page.doc_name,
                period,
                evidence,
                facts,
            )
        )
    return cases, skipped


def extraction_ok(case: Case, choice: FormulaChoice | Any) -> bool:
    """Every reference of the chosen formula has a fact of its period on an evidence page."""
    if not isinstance(choice, FormulaChoice):
        return False
    try:
        tree = parse_formula(choice.formula, metrics=metric_formulas(choice.definitions))
    except CalculationError:
        return False
    resolver = FactResolver(case.facts, case.doc_name)
    for ref in references(tree):
        at = ref.period.resolve(choice.period)
        if not _on_evidence(resolver, ref.concept, at, case.evidence):
            return False
    return True


def _on_evidence(resolver: FactResolver, concept: str, at: Period, evidence: set[str]) -> bool:
    """A fact for ``concept`` at ``at`` on an evidence page (or for all of its substitute's)."""
    if any(f.uid in evidence for f in resolver.candidates(concept, at)):
        return True
    if concept not in SUBSTITUTES:
        return False
    stand_in = parse_formula(SUBSTITUTES[concept], metrics={})
    return all(_on_evidence(resolver, r.concept, at, evidence) for r in references(stand_in))


def judge(answer: str | None, case: Case) -> str:
    if answer is None:
        return "refusal"
    from metrics.answer_correctness import judge_answer

    return judge_answer(answer, case.gold, case.question).label


def deterministic(case: Case) -> dict:
    choice = choose_formula(case.question, case.period)
    row: dict[str, Any] = {"extraction": extraction_ok(case, choice)}
    if not isinstance(choice, FormulaChoice):
        return {**row, "formula": None, "answer": None, "why": choice.reason, "label": "refusal"}
    row["formula"] = choice.formula
    try:
        result = calculate(
            choice.formula,
            case.facts,
            choice.period,
            title=choice.title,
            definitions=choice.definitions,
            doc_name=case.doc_name,
        )
    except CalculationError as exc:
        return {**row, "answer": None, "why": str(exc), "label": "refusal"}
    answer = format_value(result, choice.presentation)
    return {**row, "answer": answer, "inputs": result.input_lines(), "label": judge(answer, case)}


def with_module(case: Case, chooser: Any) -> dict:
    concepts = sorted({f.concept for f in case.facts if f.concept})
    started = time.perf_counter()
    prediction = chooser(question=case.question, concepts=concepts)
    row: dict[str, Any] = {
        "seconds": round(time.perf_counter() - started, 1),
        "formula": prediction.formula,
        "raw": prediction.raw,
    }
    if prediction.formula is None:
        return {**row, "answer": None, "why": prediction.error, "label": "refusal"}
    try:
        result = calculate(prediction.formula, case.facts, case.period, doc_name=case.doc_name)
    except CalculationError as exc:
        return {**row, "answer": None, "why": str(exc), "label": "refusal"}
    answer = format_value(result, presentation_for(case.question, prediction.formula))
    return {**row, "answer": answer, "label": judge(answer, case)}


def extraction_time(store: SQLiteStore, batch: int = 2000) -> dict:
    """Seconds for ``facts_from_page`` over every page of the store (page loading excluded)."""
    total = store.stats().get("pages", 0)
    seconds, pages, facts = 0.0, 0, 0
    max_id = store.db.execute("SELECT MAX(page_id) FROM pages").fetchone()[0] or 0
    for start in range(1, max_id + 1, batch):
        loaded = store.pages_by_id(range(start, start + batch))
        began = time.perf_counter()
        for page in loaded:
            facts += len(facts_from_page(page, page.page_id or 0))
        seconds += time.perf_counter() - began
        pages += len(loaded)
    return {"pages": pages, "store_pages": total, "facts": facts, "seconds": round(seconds, 1)}


def summary(rows: list[dict], key: str) -> dict:
    labels = [r[key]["label"] for r in rows]
    n = len(labels) or 1
    return {
        "correct": round(labels.count("correct") / n, 3),
        "wrong": round(labels.count("incorrect") / n, 3),
        "refused": round(labels.count("refusal") / n, 3),
    }


def build_chooser(args: argparse.Namespace) -> tuple[Any, Any]:
    import dspy

    from lm import language_models as lms
    from programs.formula import FormulaChooser

    spec = lms.LMSpec(model=args.lm, api_base=args.api_base)
    lms.check_lm_reachable(spec)
    chooser = FormulaChooser()
    if args.program:
        chooser.load(str(args.program))
    lm, adapter = lms.build_lm(spec), lms.default_adapter(spec)
    return chooser, lambda: dspy.context(lm=lm, adapter=adapter)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, default=SHARED / "questions.jsonl")
    parser.add_argument("--store", type=Path, default=None, help="grid store (default: user's)")
    parser.add_argument("--half", choices=["tune", "holdout", "all"], default=None)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--lm", default=None, help="model for the formula module (default: bundled)"
    )
    parser.add_argument("--api-base", default=None, help="an OpenAI-compatible server")
    parser.add_argument("--program", type=Path, default=None, help="a saved FormulaChooser")
    parser.add_argument("--no-lm", action="store_true", help="skip the formula module")
    parser.add_argument("--no-timing", action="store_true", help="skip the extraction timing")
    parser.add_argument(
        "--extract",
        action="store_true",
        help="read facts from the documents' pages now instead of the store's facts table",
    )
    args = parser.parse_args()
    store_path = args.store or default_store_path()
    if not store_path.exists():
        sys.exit(f"error: no grid store at {store_path}")
    store = SQLiteStore(store_path)
    cases, skipped = load_cases(args.questions, store, args.extract)
    if args.half in ("tune", "holdout"):
        cases = [c for c in cases if c.half == args.half]
    rows = []
    chooser = context = None
    if not args.no_lm:
        try:
            chooser, context = build_chooser(args)
        except (ValueError, RuntimeError, OSError) as exc:
            sys.exit(f"error: {exc}")
    for case in cases:
        row = {
            "qid": case.qid,
            "half": case.half,
            "gold": case.gold,
            "deterministic": deterministic(case),
        }
        if chooser is not None:
            with context():
                row["module"] = with_module(case, chooser)
        rows.append(row)
    halves = [args.half] if args.half else ["tune", "holdout", "all"]
    table = []
    for half in halves:
        chosen = [r for r in rows if half == "all" or r["half"] == half]
        entry = {
            "half": half,
            "n": len(chosen),
            "extraction": round(
                statistics.fmean(r["deterministic"]["extraction"] for r in chosen), 3
            )
            if chosen
            else 0.0,
            "deterministic": summary(chosen, "deterministic"),
        }
        if chooser is not None:
            entry["module"] = summary(chosen, "module")
        table.append(entry)
    result: dict[str, Any] = {
        "questions_skipped": skipped,
        "facts_in_store": store.count_facts(),
        "summary": table,
        "rows": rows,
    }
    if not args.no_timing:
        result["extraction_time"] = extraction_time(store)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(
        f"questions skipped (documents not in store): {skipped}; "
        f"facts in store: {result['facts_in_store']}"
    )
    for entry in table:
        line = (
            f"{entry['half']:>8} n={entry['n']:>3} extraction={entry['extraction']:.3f} "
            f"deterministic {entry['deterministic']}"
        )
        if "module" in entry:
            line += f" module {entry['module']}"
        print(line)
    for row in rows:
        d = row["deterministic"]
        print(
            f"  {row['qid']} [{row['half']}] {d['label']:>9} gold={row['gold']} "
            f"answer={d.get('answer')} formula={d.get('formula')} {d.get('why', '')}"
        )
    if "extraction_time" in result:
        print(f"extraction time: {result['extraction_time']}")


if __name__ == "__main__":
    main()
