"""Build ``evalsets/financebench.jsonl`` and (re)assign the fixed splits of every golden set.

    uv run python scripts/build_evalsets.py [--source ../shared/financebench/questions.jsonl]

FinanceBench rows (Patronus AI, arXiv 2311.11944) are rebuilt from ``--source``: gold answer,
evidence pages with their grid ``uid``s and the ``{ticker, FY, FQ}`` slices of the evidence
documents, read from the document names by the ingest code's own parser; they are split by
company. ``planner.jsonl`` holds hand-written rows over the bundled sample grid (only their
``split`` is refreshed) followed by one row per FinanceBench question (``grid:
"financebench"``: the gold cells are its evidence documents' cells, the split its
FinanceBench row's). ``reports.jsonl`` is hand-written; only its ``split`` is refreshed.
Re-running writes byte-identical files.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evaluation.evalsets import (  # noqa: E402
    EVALSETS,
    SEED,
    SPLITS,
    STRATIFY,
    assign_splits,
    evalset_path,
    splits_for,
    with_splits,
)
from retrieval.companies import BUNDLED_COMPANIES, Company, load_companies  # noqa: E402
from retrieval.ingest.filenames import parse_doc_name  # noqa: E402
from retrieval.pages import page_uid  # noqa: E402

DEFAULT_SOURCE = ROOT.parent / "shared" / "financebench" / "questions.jsonl"


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def jsonl_text(rows: Iterable[dict[str, Any]]) -> str:
    """One compact JSON object per line, keys in row order: the files diff line by line."""
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def grid_slice(doc_name: str, companies: tuple[Company, ...]) -> dict[str, Any]:
    """The grid cell ingestion gives ``doc_name`` (a 10-K is its FY's Q4)."""
    meta = parse_doc_name(doc_name, companies)
    return {"ticker": meta.ticker, "fy": meta.fy, "fq": meta.fq}


def financebench_row(question: dict[str, Any], companies: tuple[Company, ...]) -> dict[str, Any]:
    """One FinanceBench question as an evalset row (evidence de-duplicated by page)."""
    evidence: list[dict[str, Any]] = []
    for ev in question["evidence"]:
        doc = ev.get("doc_name") or ev.get("evidence_doc_name") or question["doc_name"]
        page_index = int(ev["evidence_page_num"])  # zero-based, as the grid numbers pages
        uid = page_uid(doc, page_index)
        if all(e["uid"] != uid for e in evidence):
            evidence.append({"doc_name": doc, "page_index": page_index, "uid": uid})
    docs = dict.fromkeys([question["doc_name"], *(e["doc_name"] for e in evidence)])
    slices: list[dict[str, Any]] = []
    for doc in docs:
        cell = grid_slice(doc, companies)
        if cell not in slices:
            slices.append(cell)
    return {
        "id": question["financebench_id"],
        "question": question["question"],
        "answer": question["answer"],
        "question_type": question["question_type"],
        "doc_name": question["doc_name"],
        "slices": slices,
        "evidence": evidence,
        "evidence_uids": [e["uid"] for e in evidence],
    }


def financebench_rows(source: Path) -> list[dict[str, Any]]:
    """Rows in the source's order; the bundled company map, whatever the environment says."""
    companies = load_companies(str(BUNDLED_COMPANIES))
    return [financebench_row(q, companies) for q in read_jsonl(source)]


def split_rows(name: str, rows: list[dict[str, Any]], seed: int = SEED) -> list[dict[str, Any]]:
    """``rows`` with their fixed split for evalset ``name``."""
    return with_splits(rows, splits_for(name, rows, seed))


PLANNER_KEYS = (
    "id", "question", "rule", "grid", "question_type", "facets", "expected_slices",
    "expected_unknown", "expected_missing", "expected_scope", "split",
)  # fmt: skip


def planner_financebench_row(row: dict[str, Any]) -> dict[str, Any]:
    """A planner row from a FinanceBench row: its gold cells are the evidence documents'."""
    return {
        "id": "planner-fb-" + row["id"].rsplit("_", 1)[-1],
        "question": row["question"],
        "rule": "financebench",
        "grid": "financebench",
        "question_type": row["question_type"],
        "facets": None,
        "expected_slices": row["slices"],
        "expected_unknown": [],
        "expected_missing": [],
        "expected_scope": [],
        "split": row["split"],
    }


def planner_rows(financebench: list[dict[str, Any]], seed: int = SEED) -> list[dict[str, Any]]:
    """Hand-written rows (their splits refreshed, shuffled among themselves), then one row
    per FinanceBench question with that question's company-grouped split."""
    path = evalset_path("planner")
    hand = [r for r in read_jsonl(path) if r.get("grid", "sample") == "sample"]
    hand = with_splits(hand, assign_splits(hand, seed, STRATIFY["planner"]))
    rows = [{"grid": "sample", "question_type": None, **r} for r in hand]
    rows += [planner_financebench_row(r) for r in financebench]
    return [{key: row[key] for key in PLANNER_KEYS} for row in rows]  # one schema, one order


def evalset_rows(name: str, source: Path | None, seed: int = SEED) -> list[dict[str, Any]]:
    """What the build writes for ``name``, computed without writing (tests compare it).

    FinanceBench is rebuilt from ``source`` when it exists; otherwise, and for the
    hand-written sets, the committed rows are kept and only their splits refreshed.
    """
    path = evalset_path(name)
    if name == "planner":
        return planner_rows(evalset_rows("financebench", source, seed), seed)
    if name == "financebench" and source is not None and source.exists():
        rows = financebench_rows(source)
    elif path.exists():
        rows = read_jsonl(path)
    else:
        raise FileNotFoundError(f"{path} is missing (and no FinanceBench source to build it)")
    return split_rows(name, rows, seed)


def build(source: Path | None, seed: int = SEED) -> dict[str, dict[str, int]]:
    """Write every set with its splits; rows per split per set, for the summary."""
    counts: dict[str, dict[str, int]] = {}
    for name in EVALSETS:
        rows = evalset_rows(name, source, seed)
        evalset_path(name).write_text(jsonl_text(rows), encoding="utf-8")
        counts[name] = {s: sum(r["split"] == s for r in rows) for s in SPLITS}
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--source",
        type=Path,
        default=DEFAULT_SOURCE,
        help="FinanceBench questions.jsonl (default: ../shared/financebench/questions.jsonl)",
    )
    args = parser.parse_args(argv)
    if not args.source.exists():
        print(f"{args.source} not found: keeping financebench rows, refreshing splits only")
    for name, counts in build(args.source).items():
        total = sum(counts.values())
        print(f"{name}: {total} rows (" + ", ".join(f"{k} {v}" for k, v in counts.items()) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
