"""Load test: concurrent searches on one grid while an ingest writes to it.

    uv run python benchmarks/store_load.py --store postgresql://…/grid --clients 8 --seconds 60

Each client is a process of its own (as several ``research ask`` processes would be) with its
own store connection(s) and searcher; clients take FinanceBench questions in turn, half of
them locked to the evidence document's cell and half over the whole grid, until the time
or the query budget is spent. Meanwhile the main process ingests documents from
``--ingest`` (a pages.jsonl.gz) under a made-up ticker, then removes them again, so the grid
ends as it began. Reports queries per second, latency percentiles and errors (target: 0).
Keep it on loopback: the figures describe the machine it runs on.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from retrieval.open_store import is_postgres, open_store, store_location
from retrieval.pages import Page
from retrieval.store import GridFilter

SHARED = Path(__file__).resolve().parents[2] / "shared" / "financebench"
LOAD_TICKER = "ZZLOAD"


def _queries(questions: Path, limit: int = 400) -> list[tuple[str, tuple | None]]:
    """(question, cell or None) pairs: locked and shared alternately."""
    out = []
    for n, line in enumerate(questions.read_text().splitlines()[:limit]):
        q = json.loads(line)
        out.append((q["question"], None if n % 2 else (q.get("doc_name") or "",)))
    return out


def _client(location: str, queries, seconds: float, budget: int, start, results) -> None:
    """Warm up (store, embedder, one search), say so, wait for the start, then search
    until ``seconds`` after it: loading never falls inside the timed window."""
    from retrieval.search.hybrid import HybridSearcher

    store = open_store(location, seed_if_empty=False)
    searcher = HybridSearcher(store)
    cells: dict[str, GridFilter | None] = {}
    latencies, errors, first_error = [], 0, ""
    searcher.search("warm up", GridFilter(), k=1)
    results.put({"ready": True})
    start.wait()
    began = time.time()
    deadline = began + seconds
    for n in range(budget):
        if time.time() >= deadline:
            break
        question, locked = queries[n % len(queries)]
        where = None
        if locked:
            if locked[0] not in cells:
                cells[locked[0]] = _cell_of(store, locked[0])
            where = cells[locked[0]]
        start = time.perf_counter()
        try:
            searcher.search(question, where, k=10)
            latencies.append((time.perf_counter() - start) * 1000)
        except Exception as exc:  # counted: the load test reports errors, it does not stop
            errors += 1
            first_error = first_error or f"{type(exc).__name__}: {exc}"[:300]
    results.put(
        {
            "latencies": latencies,
            "errors": errors,
            "first_error": first_error,
            "began": began,
            "ended": time.time(),
        }
    )


def _cell_of(store, doc_name: str) -> GridFilter | None:
    pages = store.document_pages(doc_name)[:1]
    if not pages:
        return None
    p = pages[0]
    return GridFilter(ticker=p.ticker, fy=p.fy, fq=p.fq)


def _ingest_documents(store, pages_file: Path, deadline: float, max_docs: int) -> dict:
    """Write documents (renamed under :data:`LOAD_TICKER`) until the deadline; then remove."""
    from retrieval.ingest.pages_file import jsonl_documents
    from retrieval.ingest.report import IngestReport

    written, pages, names, seconds = 0, 0, [], 0.0
    for doc in jsonl_documents(pages_file, IngestReport()):
        if time.time() >= deadline or written >= max_docs:
            break
        name = "LOADTEST_" + doc.pages[0].doc_name
        renamed = [
            Page(**{**p.model_dump(exclude={"page_id"}), "doc_name": name, "ticker": LOAD_TICKER})
            for p in doc.pages
        ]
        start = time.perf_counter()
        store.upsert_document(renamed)
        seconds += time.perf_counter() - start
        written, pages = written + 1, pages + len(renamed)
        names.append(name)
    _remove(store, names)
    return {"documents": written, "pages": pages, "pages_per_s": round(pages / max(seconds, 1e-9))}


def _remove(store, names: list[str]) -> None:
    if hasattr(store, "pool"):
        with store.pool.connection() as conn:
            conn.execute("DELETE FROM wissen.pages WHERE doc_name = ANY(%s)", [names])
    else:
        with store.db:
            store.db.execute(f"DELETE FROM pages WHERE ticker = '{LOAD_TICKER}'")


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * q))], 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", required=True, help="a SQLite file or postgresql://…")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--max-queries", type=int, default=5000, help="per client, a bound")
    parser.add_argument("--questions", type=Path, default=SHARED / "questions.jsonl")
    parser.add_argument("--ingest", type=Path, default=SHARED / "pages.jsonl.gz")
    parser.add_argument("--ingest-docs", type=int, default=60, help="documents to write, at most")
    args = parser.parse_args()
    if not 1 <= args.clients <= 64 or not 1 <= args.seconds <= 600:
        parser.error("--clients must be 1..64 and --seconds 1..600")
    location = store_location(args.store)
    queries = _queries(args.questions)
    context = multiprocessing.get_context("spawn")
    results, start = context.Queue(), context.Event()
    clients = [
        context.Process(
            target=_client,
            args=(str(location), queries, args.seconds, args.max_queries, start, results),
        )
        for _ in range(args.clients)
    ]
    for client in clients:
        client.start()
    store = open_store(location, seed_if_empty=False)
    for _ in clients:  # every client warmed up: the clock starts for all at once
        results.get(timeout=600)
    start.set()
    deadline = time.time() + args.seconds
    ingest = {"documents": 0}
    if args.ingest and args.ingest.exists():
        ingest = _ingest_documents(store, args.ingest, deadline, args.ingest_docs)
    rows = [results.get(timeout=args.seconds + 300) for _ in clients]
    for client in clients:
        client.join(timeout=60)
    latencies = [v for r in rows for v in r["latencies"]]
    window = max(r["ended"] for r in rows) - min(r["began"] for r in rows)
    report = {
        "backend": "postgresql" if is_postgres(location) else "sqlite",
        "clients": args.clients,
        "seconds": args.seconds,
        "queries": len(latencies),
        "qps": round(len(latencies) / max(window, 1e-9), 1),
        "window_s": round(window, 1),
        "p50_ms": _percentile(latencies, 0.50),
        "p95_ms": _percentile(latencies, 0.95),
        "p99_ms": _percentile(latencies, 0.99),
        "mean_ms": round(statistics.fmean(latencies), 1) if latencies else 0.0,
        "errors": sum(r["errors"] for r in rows),
        "first_error": next((r["first_error"] for r in rows if r["first_error"]), ""),
        "ingest": ingest,
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
