"""Planner cell accuracy on FinanceBench: does the plan research the evidence document's cell?

    uv run python benchmarks/planner.py --questions ../shared/financebench/questions.jsonl \
        --store grid.sqlite [--split test] [--lm rules|MODEL] [--json]

Every question whose evidence document is in the store is planned by ``SlicePlanner`` over
the store's cells, as ``research ask`` plans it. The gold cell is the evidence document's
``{ticker, FY, FQ}`` as the store labels it (a 10-K is its FY's Q4). Three rates:

- **exact**: the plan's latest cell of the gold company is the gold cell, and it plans no
  other company (a trend or range question also plans earlier years, which the gold
  document reports as comparatives; that is the rule, not an error);
- **among**: the gold cell is one of the cells planned;
- **failed**: the planner refused (a ``PlanningError``): no run should end here.

By question type and by the form the question writes its period in (``none``, ``fy``,
``year``, ``quarter``, ``half-year``, ``range``, ``relative``, ``as-of``, ``date``).
``--lm rules`` (the default) plans with the pre-pass and rules alone, no model: the
deterministic floor, seconds for the whole set; ``--lm MODEL`` (``local/…`` for the
embedded one) adds the model's facet extraction, as a run does. ``--split`` selects the
golden set's company-grouped split (``evalsets/financebench.jsonl``). FinanceBench is by
Patronus AI (arXiv 2311.11944).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import sys
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.answer_cases import AnswerCase, load_answer_cases, select_cases
from benchmarks.retrieval import SHARED
from domain.periods import read_periods
from evaluation.evalsets import SPLITS, evalset_hash

RULES_ONLY = "rules"
_AS_OF = re.compile(r"\bas\s+of\b", re.IGNORECASE)
_HALF = re.compile(r"\b(?:h[12]|[12]h|first half|second half|six months|nine months)", re.I)
_FY_WORD = re.compile(r"\b(?:fy|fiscal)", re.IGNORECASE)


def period_form(question: str) -> str:
    """How ``question`` writes its period (the first that applies, most specific first)."""
    found = read_periods(question)
    if _AS_OF.search(question) and (found.fiscal_years or found.fiscal_quarters):
        return "as-of"
    if _HALF.search(question):
        return "half-year"
    if found.fiscal_quarters:
        return "quarter"
    if found.date_quarters:
        return "date"
    if found.last_n_years or found.last_n_quarters or found.since_fy or found.years_back:
        return "relative"
    if len(found.fiscal_years) > 1:
        return "range"
    if found.fiscal_years:
        return "fy" if _FY_WORD.search(question) else "year"
    return "none"


@dataclass
class PlanRow:
    """One question's plan against its gold cell (the JSON row of ``--json``)."""

    qid: str
    question_type: str
    split: str | None
    form: str
    trend: bool
    gold: str
    planned: list[str]
    exact: bool
    among: bool
    error: str | None = None


class _NoModel:
    """Stands where a model would: every call fails, so the planner uses its pre-pass."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("planning with the rules alone (--lm rules)")


def judge(case: AnswerCase, planned: Sequence[Any], error: str | None) -> PlanRow:
    """Score one plan: ``planned`` are ``SliceRef``s."""
    gold = case.where
    own = sorted(((s.fy, s.fq) for s in planned if s.ticker == gold.ticker), reverse=True)
    others = {s.ticker for s in planned} - {gold.ticker}
    return PlanRow(
        qid=case.qid,
        question_type=case.question_type,
        split=case.split,
        form=period_form(case.question),
        trend=read_periods(case.question).trend,
        gold=case.slice_label,
        planned=[s.label for s in planned],
        exact=bool(own) and own[0] == (gold.fy, gold.fq) and not others,
        among=(gold.fy, gold.fq) in own,
        error=error,
    )


@contextlib.contextmanager
def _model(lm: str) -> Iterator[None]:
    import dspy

    if lm == RULES_ONLY:
        with dspy.context(lm=_NoModel()):  # type: ignore[arg-type]
            yield
        return
    from lm.run_models import build_models

    models = build_models(lm, None)
    with dspy.context(lm=models.lm, adapter=models.adapter):
        yield


def plan_all(
    cases: Sequence[AnswerCase],
    cells: Sequence[Any],
    lm: str,
    company_context: bool = True,
    period_context: bool = True,
) -> list[PlanRow]:
    """Plan every case with one planner over ``cells``; with ``company_context``, a question
    that names no company is about its document's, and with ``period_context`` one that
    names no period is about its document's period (FinanceBench asks each of one filing)."""
    import logging

    from programs.errors import PlanningError
    from programs.planner import SlicePlanner

    logging.getLogger("programs.planner").setLevel(logging.ERROR)  # the rules-only warnings
    planner = SlicePlanner(cells)
    rows = []
    with _model(lm):
        for case in cases:
            try:
                company = case.where.ticker if company_context else None
                period = f"FY{case.where.fy} Q{case.where.fq}" if period_context else None
                plan = planner(question=case.question, company=company, period=period)
                rows.append(judge(case, plan.slices, None))
            except PlanningError as exc:
                rows.append(judge(case, [], exc.message))
    return rows


def summary(rows: Sequence[PlanRow], key: str) -> list[tuple[str, int, float, float, float]]:
    """(group, n, exact, among, failed) per value of ``key`` and for all rows."""
    groups: dict[str, list[PlanRow]] = defaultdict(list)
    for row in rows:
        groups[str(getattr(row, key))].append(row)
    out = []
    for name, members in [*sorted(groups.items()), ("all", list(rows))]:
        n = len(members)
        out.append(
            (
                name,
                n,
                sum(r.exact for r in members) / n,
                sum(r.among for r in members) / n,
                sum(r.error is not None for r in members) / n,
            )
        )
    return out


def markdown(rows: Sequence[PlanRow], lm: str, split: str | None) -> str:
    lines = [
        f"Planner cell accuracy, FinanceBench {split or 'all splits'} "
        f"(evalset {evalset_hash('financebench')}), planner: {lm}, {date.today().isoformat()}",
    ]
    for key, title in (("question_type", "question type"), ("form", "period form")):
        lines += [
            "",
            f"| {title} | n | exact | among | failed |",
            "| --- | ---: | ---: | ---: | ---: |",
        ]
        lines += [
            f"| {name} | {n} | {exact:.3f} | {among:.3f} | {failed:.3f} |"
            for name, n, exact, among, failed in summary(rows, key)
        ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, default=SHARED / "questions.jsonl")
    parser.add_argument("--store", help="grid store (default: the configured one)")
    parser.add_argument("--split", choices=SPLITS, help="golden-set split (default: all)")
    parser.add_argument("--lm", default=RULES_ONLY, help="'rules' (no model) or a model string")
    parser.add_argument("--json", action="store_true", help="one JSON row per question")
    parser.add_argument(
        "--no-company-context",
        dest="company_context",
        action="store_false",
        help="do not tell a question that names no company its document's company",
    )
    parser.add_argument(
        "--no-period-context",
        dest="period_context",
        action="store_false",
        help="do not tell a question that names no period its document's period",
    )
    args = parser.parse_args(argv)

    from retrieval.open_store import open_store

    store = open_store(args.store, seed_if_empty=False)
    try:
        try:
            cases, skipped = load_answer_cases(args.questions, store)
        except (OSError, ValueError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        cases = select_cases(cases, args.split, None)
        rows = plan_all(cases, store.cells(), args.lm, args.company_context, args.period_context)
    finally:
        store.close()
    if args.json:
        for row in rows:
            print(json.dumps(asdict(row)))
    else:
        print(markdown(rows, args.lm, args.split))
        if skipped:
            print(f"\n{skipped} question(s) skipped: their evidence document is not in the store")
        for row in rows:
            if not row.exact:
                print(
                    f"- {row.qid} ({row.form}): gold {row.gold}, planned {row.planned or row.error}"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
