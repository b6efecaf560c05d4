"""Retrieval benchmark: page-level recall@k and MRR on FinanceBench-format questions.

    uv run python benchmarks/retrieval.py --questions ../shared/financebench/questions.jsonl
    uv run python benchmarks/retrieval.py --store grid.sqlite --store postgresql://…/grid
    uv run python benchmarks/retrieval.py --split dev --modes hybrid+rerank --misses

Several ``--store`` options are measured side by side in one run (the same questions,
modes and splits against each store: SQLite files and PostgreSQL addresses alike).

Two regimes: **slice-locked** (filters = the evidence document's ticker, FY, FQ; one
search per question and evidence cell) and **shared** (no filters). Only questions whose
evidence documents are in the store count.

Questions are reported by the evalsets' **company-grouped splits** (train / dev / test,
read by question id from ``evalsets/financebench.jsonl``, where
``evaluation.evalsets.assign_group_splits`` put every question of one company in one
split): rules and weights are designed on train and dev, and test measures them on
companies they never saw. A question the evalset does not hold is reported as ``unknown``.
The older halves by a hash of the id (``--half tune|holdout|all``) mix companies across
halves, so a rule written from one company's misses also lifts its other questions in
the other half; they are kept for comparison with earlier reports.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from retrieval.open_store import is_postgres, open_store, store_location
from retrieval.pages import page_uid
from retrieval.search.hybrid import HybridSearcher, SearchSettings
from retrieval.sqlite.store import SQLiteStore
from retrieval.store import GridFilter, PageStore

SHARED = Path(__file__).resolve().parents[2] / "shared" / "financebench"
EVALSET = Path(__file__).resolve().parents[1] / "evalsets" / "financebench.jsonl"
SPLITS = ("train", "dev", "test")
KS = (1, 5, 10, 20)
MODES = {
    "bm25": SearchSettings(dense_weight=0.0, rerank=False),
    "dense": SearchSettings(bm25_weight=0.0, rerank=False),
    "hybrid": SearchSettings(rerank=False),
    "hybrid+rerank": SearchSettings(rerank=True),
}


def half_of(question_id: str) -> str:
    """Fixed split: the first hex digit of sha1(id) decides, so it never changes."""
    return "tune" if int(hashlib.sha1(question_id.encode()).hexdigest()[0], 16) < 8 else "holdout"


def load_splits(path: Path = EVALSET) -> dict[str, str]:
    """Each FinanceBench question id's company-grouped split, as the evalset stores it
    (``{}`` when the file is missing: every question is then ``unknown``)."""
    if not path.exists():
        return {}
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {str(row["id"]): str(row["split"]) for row in rows if row.get("split")}


@dataclass
class Case:
    qid: str
    half: str
    question: str
    where: GridFilter | None
    relevant: set[str]
    split: str = "unknown"  # company-grouped: train / dev / test (see the module docstring)

    def group(self, by: str) -> str:
        """The case's group under ``by``: ``"split"`` (company-grouped) or ``"half"``."""
        return self.split if by == "split" else self.half


def load_cases(
    path: Path, store: PageStore, splits: dict[str, str] | None = None
) -> tuple[list[Case], list[Case], int]:
    """(slice-locked cases, shared cases, questions skipped for missing documents);
    ``splits`` maps question ids to their company-grouped split (default: the evalset's)."""
    splits = load_splits() if splits is None else splits
    locked, shared, skipped = [], [], 0
    cells: dict[str, GridFilter] = {}
    for n, line in enumerate(path.read_text().splitlines()):
        if not line.strip():
            continue
        q = json.loads(line)
        qid = q.get("financebench_id") or f"q{n}"
        by_doc: dict[str, set[str]] = {}
        for ev in q["evidence"]:
            doc = ev.get("doc_name") or ev.get("evidence_doc_name") or q["doc_name"]
            by_doc.setdefault(doc, set()).add(page_uid(doc, int(ev["evidence_page_num"])))
        missing = False
        for doc in by_doc:
            if doc not in cells:
                pages = store.pages_by_uid([next(iter(by_doc[doc]))])
                if not pages:
                    missing = True
                    break
                p = pages[0]
                cells[doc] = GridFilter(ticker=p.ticker, fy=p.fy, fq=p.fq)
        if missing:
            skipped += 1
            continue
        half, split = half_of(qid), splits.get(qid, "unknown")
        for doc, uids in by_doc.items():
            locked.append(Case(qid, half, q["question"], cells[doc], uids, split))
        everything = set().union(*by_doc.values())
        shared.append(Case(qid, half, q["question"], None, everything, split))
    return locked, shared, skipped


def evaluate(searcher: HybridSearcher, cases: list[Case]) -> dict:
    recalls = {k: [] for k in KS}
    rr, latencies = [], []
    per_case = []
    for case in cases:
        start = time.perf_counter()
        hits = searcher.search(case.question, case.where, k=max(KS))
        latencies.append((time.perf_counter() - start) * 1000)
        uids = [h.uid for h in hits]
        for k in KS:
            recalls[k].append(len(case.relevant & set(uids[:k])) / len(case.relevant))
        first = next((i for i, u in enumerate(uids, 1) if u in case.relevant), None)
        rr.append(1 / first if first else 0.0)
        per_case.append(
            {
                "qid": case.qid,
                "split": case.split,
                "half": case.half,
                "question": case.question,
                "first_relevant_rank": first,
                "top5": uids[:5],
                "relevant": sorted(case.relevant),
            }
        )
    lat = sorted(latencies)
    return {
        "n": len(cases),
        **{f"R@{k}": round(statistics.fmean(v), 3) if v else 0.0 for k, v in recalls.items()},
        "MRR": round(statistics.fmean(rr), 3) if rr else 0.0,
        "p50_ms": round(lat[len(lat) // 2], 1) if lat else 0.0,
        "p95_ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.95))], 1) if lat else 0.0,
        "cases": per_case,
    }


def design_misses(cases_seen: list[dict]) -> list[dict]:
    """The cases whose first relevant page is outside the top 5, of the train and dev splits
    only: test's questions are measured, never read (a miss listed is a miss read)."""
    return [
        c
        for c in cases_seen
        if c["split"] in ("train", "dev")
        and (not c["first_relevant_rank"] or c["first_relevant_rank"] > 5)
    ]


def build_time(pages_file: Path, postgres: str | None = None) -> dict:
    """Seconds to build the text index from scratch: SQLite + FTS5 in a temporary file, or
    (``postgres``: a server address) PostgreSQL in a temporary database on that server."""
    import tempfile

    from retrieval.ingest.pipeline import ingest

    if postgres:
        from benchmarks.postgres_databases import temporary_database
        from retrieval.postgres.store import PostgresStore

        with temporary_database(postgres) as uri:
            store = PostgresStore(uri)
            start = time.perf_counter()
            report = ingest(pages_file, store)
            seconds = time.perf_counter() - start
            store.close()
    else:
        with tempfile.TemporaryDirectory() as tmp:
            store = SQLiteStore(Path(tmp) / "grid.sqlite")
            start = time.perf_counter()
            report = ingest(pages_file, store)
            seconds = time.perf_counter() - start
            store.close()
    return {
        "pages": report.pages,
        "text_index_s": round(seconds, 1),
        "pages_per_s": round(report.pages / max(seconds, 1e-9)),
    }


def backend_of(location: str | Path) -> str:
    return "postgresql" if is_postgres(location) else "sqlite"


def add_group_arguments(parser: argparse.ArgumentParser) -> None:
    """``--split``, ``--half`` and ``--evalset``: how a recall benchmark groups questions."""
    parser.add_argument(
        "--split",
        choices=[*SPLITS, "all"],
        default=None,
        help="only this company-grouped split (default: train, dev, test and all)",
    )
    parser.add_argument(
        "--half",
        choices=["tune", "holdout", "all"],
        default=None,
        help="report the old hash halves instead of the company-grouped splits",
    )
    parser.add_argument(
        "--evalset",
        type=Path,
        default=EVALSET,
        help="JSONL with each question's company-grouped split (by id)",
    )


def groups_of(args: argparse.Namespace) -> tuple[str, list[str]]:
    """What the rows are grouped by (``"split"`` or ``"half"``) and the groups reported."""
    if args.half:
        return "half", [args.half]
    return "split", [args.split] if args.split else [*SPLITS, "all"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, default=SHARED / "questions.jsonl")
    parser.add_argument(
        "--store",
        action="append",
        default=None,
        help="grid store, a SQLite file or postgresql://… (repeat to compare; default: user's)",
    )
    parser.add_argument("--modes", default=",".join(MODES), help="comma list of " + ",".join(MODES))
    add_group_arguments(parser)
    parser.add_argument(
        "--misses",
        action="store_true",
        help="also list the train and dev cases whose first relevant page is not in the top 5",
    )
    parser.add_argument(
        "--build-from",
        type=Path,
        default=None,
        help="also time building the text index from this pages file",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()

    locations = [store_location(s) for s in (args.store or [None])]
    stores = [open_store(location, seed_if_empty=False) for location in locations]
    locked, shared, skipped = load_cases(args.questions, stores[0], load_splits(args.evalset))
    by, groups = groups_of(args)
    results: dict = {
        "store": {backend_of(loc): s.stats() for loc, s in zip(locations, stores, strict=True)},
        "questions_skipped": skipped,
        "rows": [],
    }
    for mode in args.modes.split(","):
        for location, store in zip(locations, stores, strict=True):
            searcher = HybridSearcher(store, settings=MODES[mode])
            searcher.search("warm up", GridFilter(), k=1)
            for regime, cases in (("slice-locked", locked), ("shared", shared)):
                for group in groups:
                    chosen = [c for c in cases if group == "all" or c.group(by) == group]
                    row = evaluate(searcher, chosen)
                    cases_seen = row.pop("cases")
                    if args.misses:
                        row["misses"] = design_misses(cases_seen)
                    results["rows"].append(
                        {"store": backend_of(location), "mode": mode, "regime": regime,
                         by: group, **row}
                    )  # fmt: skip
    if args.build_from:
        results["build"] = {
            backend_of(loc): build_time(args.build_from, str(loc) if is_postgres(loc) else None)
            for loc in dict.fromkeys(locations)
        }

    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"store: {results['store']}  questions skipped (documents not in store): {skipped}")
    header = [
        "store",
        "mode",
        "regime",
        by,
        "n",
        *[f"R@{k}" for k in KS],
        "MRR",
        "p50_ms",
        "p95_ms",
    ]
    print(" | ".join(f"{h:>13}" for h in header))
    for row in results["rows"]:
        print(" | ".join(f"{row[h]!s:>13}" for h in header))
    for row in results["rows"]:
        for miss in row.get("misses", []):
            print(
                f"miss {row['mode']} {row['regime']} {miss['split']} {miss['qid']} "
                f"rank={miss['first_relevant_rank']} relevant={miss['relevant']} "
                f"top5={miss['top5']}: {miss['question']}"
            )
    if "build" in results:
        print(f"index build: {results['build']}")


if __name__ == "__main__":
    main()
