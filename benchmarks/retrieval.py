"""Retrieval benchmark: page-level recall@k and MRR on FinanceBench-format questions.

    uv run python benchmarks/retrieval.py --questions ../shared/financebench/questions.jsonl
    uv run python benchmarks/retrieval.py --store grid.sqlite --store postgresql://…/grid

Several ``--store`` options are measured side by side in one run (the same questions,
modes and halves against each store: SQLite files and PostgreSQL addresses alike).

Two regimes: **slice-locked** (filters = the evidence document's ticker, FY, FQ; one
search per question and evidence cell) and **shared** (no filters). Questions are split
in two fixed halves by a hash of their id: rules and weights are tuned on ``tune`` and
must hold on ``holdout``. Only questions whose evidence documents are in the store count.
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
from retrieval.search import HybridSearcher, SearchSettings
from retrieval.sqlite_store import SQLiteStore
from retrieval.store import GridFilter, PageStore

SHARED = Path(__file__).resolve().parents[2] / "shared" / "financebench"
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


@dataclass
class Case:
    qid: str
    half: str
    question: str
    where: GridFilter | None
    relevant: set[str]


def load_cases(path: Path, store: PageStore) -> tuple[list[Case], list[Case], int]:
    """(slice-locked cases, shared cases, questions skipped for missing documents)."""
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
        half = half_of(qid)
        for doc, uids in by_doc.items():
            locked.append(Case(qid, half, q["question"], cells[doc], uids))
        shared.append(Case(qid, half, q["question"], None, set().union(*by_doc.values())))
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
        per_case.append({"qid": case.qid, "half": case.half, "first_relevant_rank": first})
    lat = sorted(latencies)
    return {
        "n": len(cases),
        **{f"R@{k}": round(statistics.fmean(v), 3) if v else 0.0 for k, v in recalls.items()},
        "MRR": round(statistics.fmean(rr), 3) if rr else 0.0,
        "p50_ms": round(lat[len(lat) // 2], 1) if lat else 0.0,
        "p95_ms": round(lat[min(len(lat) - 1, int(len(lat) * 0.95))], 1) if lat else 0.0,
        "cases": per_case,
    }


def build_time(pages_file: Path, postgres: str | None = None) -> dict:
    """Seconds to build the text index from scratch: SQLite + FTS5 in a temporary file, or
    (``postgres``: a server address) PostgreSQL in a temporary database on that server."""
    import tempfile

    from retrieval.ingest import ingest

    if postgres:
        from benchmarks.postgres_databases import temporary_database
        from retrieval.postgres_store import PostgresStore

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
    parser.add_argument(
        "--half",
        choices=["tune", "holdout", "all"],
        default=None,
        help="only this half (default: report tune, holdout and all)",
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
    locked, shared, skipped = load_cases(args.questions, stores[0])
    halves = [args.half] if args.half else ["tune", "holdout", "all"]
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
                for half in halves:
                    chosen = [c for c in cases if half == "all" or c.half == half]
                    row = evaluate(searcher, chosen)
                    row.pop("cases")
                    results["rows"].append(
                        {"store": backend_of(location), "mode": mode, "regime": regime,
                         "half": half, **row}
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
        "half",
        "n",
        *[f"R@{k}" for k in KS],
        "MRR",
        "p50_ms",
        "p95_ms",
    ]
    print(" | ".join(f"{h:>13}" for h in header))
    for row in results["rows"]:
        print(" | ".join(f"{row[h]!s:>13}" for h in header))
    if "build" in results:
        print(f"index build: {results['build']}")


if __name__ == "__main__":
    main()
