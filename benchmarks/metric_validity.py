"""Does ``answer_correctness`` agree with people? Validity benchmark on labelled answers.

Runs on any JSONL file in the format of FinanceBench's labelled answers (Patronus AI,
arXiv 2311.11944): ``financebench_id, question, model_answer, label`` (``Correct Answer`` /
``Incorrect Answer`` / ``Refusal``) and ``gold_answer`` (else joined from ``--questions``,
which also gives each answer its ``question_type`` and company).

Reports the agreement of the metric's label with the human label (accuracy and a confusion
matrix), refusal detection precision/recall, ROC AUC of the score separating Correct from
Incorrect answers, and agreement by question type. The answers are split into a ``tune``
and a ``holdout`` part by company (the ``doc_name`` prefix, as ``evaluation.evalsets`` splits
FinanceBench): every answer about one company lands in one part, so rules written from the
tune part's answers are measured on companies, filings and questions they never saw. The
split is seeded and a pure function of the rows' companies.

    uv run python benchmarks/metric_validity.py --half all [--json] [--judge-lm MODEL]

``--judge-lm`` (off by default; needs the provider's key and the network) lets a capable LM
decide the Correct-vs-Incorrect cases the rules leave open (``metrics.lm_judge``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from metrics.answer_correctness import AnswerJudge, judge_answer  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared" / "financebench"
LABELS = {"Correct Answer": "correct", "Incorrect Answer": "incorrect", "Refusal": "refusal"}
CLASSES = ("correct", "incorrect", "refusal")
PARTS = ("tune", "holdout")
#: Seed of the company split (the evalsets' seed): changing it reshuffles the parts.
SEED = 2311
#: Share of the answers (by rows) dealt to the tune part.
TUNE_SHARE = 0.5


def company_of(row: dict[str, Any]) -> str:
    """The company an answer is about: the ``doc_name`` prefix, case-folded.

    FinanceBench spells one company's prefix both ways (``PFIZER_…`` and ``Pfizer_…``); a
    row without a known document is its own group (its question id).
    """
    doc_name = str(row.get("doc_name") or "")
    return doc_name.split("_")[0].upper() if doc_name else str(row["financebench_id"])


def assign_parts(
    rows: Sequence[dict[str, Any]], seed: int = SEED, tune_share: float = TUNE_SHARE
) -> list[str]:
    """The part (``tune``/``holdout``) of each row, with no company in both parts.

    Companies are shuffled with ``seed`` and dealt one at a time to the part furthest below
    its share of rows (tune on ties), as ``evaluation.evalsets.assign_group_splits`` does.
    """
    counts: dict[str, int] = {}
    for row in rows:
        counts[company_of(row)] = counts.get(company_of(row), 0) + 1
    companies = sorted(counts)
    random.Random(seed).shuffle(companies)
    shares = {"tune": tune_share, "holdout": 1 - tune_share}
    filled = dict.fromkeys(PARTS, 0)
    part_of: dict[str, str] = {}
    total = max(1, len(rows))
    for company in companies:
        part = min(PARTS, key=lambda p: (filled[p] / total - shares[p], PARTS.index(p)))
        part_of[company] = part
        filled[part] += counts[company]
    return [part_of[company_of(row)] for row in rows]


def load_rows(labelled: Path, questions: Path | None) -> list[dict]:
    """Labelled answers with gold answer, question type and document joined by question id."""
    meta: dict[str, dict[str, Any]] = {}
    if questions is not None and questions.exists():
        for line in questions.read_text().splitlines():
            if line.strip():
                q = json.loads(line)
                meta[q["financebench_id"]] = q
    rows = []
    for line in labelled.read_text().splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        q = meta.get(row["financebench_id"], {})
        if row.get("gold_answer") is None:
            row["gold_answer"] = q.get("answer")
        row.setdefault("question_type", q.get("question_type") or "unknown")
        row.setdefault("doc_name", q.get("doc_name"))
        if row.get("label") in LABELS and row.get("gold_answer") is not None:
            rows.append(row)
    return rows


def roc_auc(pos: list[float], neg: list[float]) -> float | None:
    """Probability a random positive scores above a random negative (ties count half)."""
    if not pos or not neg:
        return None
    ranked = sorted([(s, 1) for s in pos] + [(s, 0) for s in neg])
    rank_sum, i = 0.0, 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and ranked[j][0] == ranked[i][0]:
            j += 1
        avg_rank = (i + j + 1) / 2  # 1-based average rank of the tie block
        rank_sum += avg_rank * sum(1 for k in range(i, j) if ranked[k][1])
        i = j
    n_pos, n_neg = len(pos), len(neg)
    return (rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def _summary(judged: list[tuple[str, str, float]]) -> dict:
    """Agreement, confusion, refusal P/R and AUC of (human, metric, score) triples."""
    confusion = {h: dict.fromkeys(CLASSES, 0) for h in CLASSES}
    scores: dict[str, list[float]] = {c: [] for c in CLASSES}
    for human, label, score in judged:
        confusion[human][label] += 1
        scores[human].append(score)
    n = len(judged)
    agree = sum(confusion[c][c] for c in CLASSES)
    pred_ref = sum(confusion[h]["refusal"] for h in CLASSES)
    true_ref = sum(confusion["refusal"].values())
    return {
        "n": n,
        "accuracy": agree / n if n else None,
        "confusion": confusion,
        "refusal_precision": confusion["refusal"]["refusal"] / pred_ref if pred_ref else None,
        "refusal_recall": confusion["refusal"]["refusal"] / true_ref if true_ref else None,
        "auc_correct_vs_incorrect": roc_auc(scores["correct"], scores["incorrect"]),
    }


def evaluate(rows: list[dict], judge: AnswerJudge | None = None) -> dict:
    """The summary of ``rows`` as a whole and by question type."""
    judged: list[tuple[str, str, float]] = []
    types: list[str] = []
    for row in rows:
        verdict = judge_answer(
            row["model_answer"] or "", row["gold_answer"], row.get("question"), lm_judge=judge
        )
        judged.append((LABELS[row["label"]], verdict.label, verdict.score))
        types.append(str(row.get("question_type") or "unknown"))
    result = _summary(judged)
    result["by_question_type"] = {
        t: {
            k: v
            for k, v in _summary(
                [j for j, tt in zip(judged, types, strict=True) if tt == t]
            ).items()
            if k != "confusion"
        }
        for t in sorted(set(types))
    }
    return result


def _fmt(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.3f}"


def print_table(results: dict[str, dict]) -> None:
    print("| part | n | agreement | refusal P | refusal R | AUC (C vs I) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for part, r in results.items():
        print(
            f"| {part} | {r['n']} | {_fmt(r['accuracy'])} | {_fmt(r['refusal_precision'])} | "
            f"{_fmt(r['refusal_recall'])} | {_fmt(r['auc_correct_vs_incorrect'])} |"
        )
    print("\nBy question type")
    print("| part | question type | n | agreement | AUC (C vs I) |")
    print("| --- | --- | ---: | ---: | ---: |")
    for part, r in results.items():
        for qtype, t in r["by_question_type"].items():
            print(
                f"| {part} | {qtype} | {t['n']} | {_fmt(t['accuracy'])} | "
                f"{_fmt(t['auc_correct_vs_incorrect'])} |"
            )
    for part, r in results.items():
        print(f"\nConfusion matrix, {part} (rows: human label, columns: metric label)")
        print("| human \\ metric | " + " | ".join(CLASSES) + " |")
        print("| --- |" + " ---: |" * len(CLASSES))
        for h in CLASSES:
            cells = " | ".join(str(r["confusion"][h][c]) for c in CLASSES)
            print(f"| {h} | {cells} |")


def _lm_judge(model: str) -> AnswerJudge:
    """The LM judge for ``--judge-lm``: built like the project's agents' models."""
    from lm.language_models import LMSpec, build_lm, require_api_key
    from metrics.lm_judge import LMAnswerJudge

    spec = LMSpec(model=model)
    require_api_key(spec)
    return LMAnswerJudge(build_lm(spec))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labelled", type=Path, default=SHARED / "labelled_answers.jsonl")
    parser.add_argument("--questions", type=Path, default=SHARED / "questions.jsonl")
    parser.add_argument(
        "--half",
        choices=("tune", "holdout", "all", "each"),
        default="each",
        help="which part to score (company-grouped); 'each' prints tune, holdout and all",
    )
    parser.add_argument("--seed", type=int, default=SEED, help="seed of the company split")
    parser.add_argument(
        "--judge-lm",
        metavar="MODEL",
        help="let this LM (a DSPy model string) decide the cases the rules leave open",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    rows = load_rows(args.labelled, args.questions)
    parts = assign_parts(rows, args.seed)
    judge = _lm_judge(args.judge_lm) if args.judge_lm else None
    names = ("tune", "holdout", "all") if args.half == "each" else (args.half,)
    results = {
        h: evaluate([r for r, p in zip(rows, parts, strict=True) if h in ("all", p)], judge=judge)
        for h in names
    }
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_table(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
