"""Does ``answer_correctness`` agree with people? Validity benchmark on labelled answers.

Runs on any JSONL file in the format of FinanceBench's labelled answers (Patronus AI,
arXiv 2311.11944): ``financebench_id, question, model_answer, label`` (``Correct Answer`` /
``Incorrect Answer`` / ``Refusal``) and ``gold_answer`` (else joined from ``--questions``).

Reports the agreement of the metric's label with the human label (accuracy and a confusion
matrix), refusal detection precision/recall, and ROC AUC of the score separating Correct
from Incorrect answers. Rules were tuned on the ``tune`` half only; the halves split by a
hash of ``financebench_id`` so every answer to one question falls in the same half.

    uv run python benchmarks/metric_validity.py --half all [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from metrics.answer_correctness import judge_answer  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared" / "financebench"
LABELS = {"Correct Answer": "correct", "Incorrect Answer": "incorrect", "Refusal": "refusal"}
CLASSES = ("correct", "incorrect", "refusal")


def half_of(financebench_id: str) -> str:
    """Stable split: sha256 of the question id, even -> tune, odd -> holdout."""
    return "tune" if hashlib.sha256(financebench_id.encode()).digest()[0] % 2 == 0 else "holdout"


def load_rows(labelled: Path, questions: Path | None) -> list[dict]:
    gold: dict[str, object] = {}
    if questions is not None and questions.exists():
        for line in questions.read_text().splitlines():
            if line.strip():
                q = json.loads(line)
                gold[q["financebench_id"]] = q["answer"]
    rows = []
    for line in labelled.read_text().splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if row.get("gold_answer") is None:
            row["gold_answer"] = gold.get(row["financebench_id"])
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


def evaluate(rows: list[dict]) -> dict:
    confusion = {h: dict.fromkeys(CLASSES, 0) for h in CLASSES}
    scores: dict[str, list[float]] = {c: [] for c in CLASSES}
    for row in rows:
        human = LABELS[row["label"]]
        verdict = judge_answer(row["model_answer"] or "", row["gold_answer"], row.get("question"))
        confusion[human][verdict.label] += 1
        scores[human].append(verdict.score)
    n = len(rows)
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


def _fmt(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.3f}"


def print_table(results: dict[str, dict]) -> None:
    print("| half | n | accuracy | refusal P | refusal R | AUC (C vs I) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for half, r in results.items():
        print(
            f"| {half} | {r['n']} | {_fmt(r['accuracy'])} | {_fmt(r['refusal_precision'])} | "
            f"{_fmt(r['refusal_recall'])} | {_fmt(r['auc_correct_vs_incorrect'])} |"
        )
    for half, r in results.items():
        print(f"\nConfusion matrix, {half} (rows: human label, columns: metric label)")
        print("| human \\ metric | " + " | ".join(CLASSES) + " |")
        print("| --- |" + " ---: |" * len(CLASSES))
        for h in CLASSES:
            cells = " | ".join(str(r["confusion"][h][c]) for c in CLASSES)
            print(f"| {h} | {cells} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labelled", type=Path, default=SHARED / "labelled_answers.jsonl")
    parser.add_argument("--questions", type=Path, default=SHARED / "questions.jsonl")
    parser.add_argument("--half", choices=("tune", "holdout", "all", "each"), default="each")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    rows = load_rows(args.labelled, args.questions)
    halves = ("tune", "holdout", "all") if args.half == "each" else (args.half,)
    results = {
        h: evaluate([r for r in rows if h == "all" or half_of(r["financebench_id"]) == h])
        for h in halves
    }
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_table(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
