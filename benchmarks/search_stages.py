"""Where a search's time goes: each stage of the default pipeline timed on its own.

    uv run python benchmarks/search_stages.py --store grid.sqlite --store postgresql://…/grid

A search runs its rankings side by side (``retrieval.search.hybrid``), so its wall time is not
the sum of its stages. Here the same stages run one after another on the retrieval
benchmark's questions (both regimes), and each one's median is reported beside the median
of the real, concurrent search: which stage is the store's (BM25, nearest pages, page
reads) and which is the client's (query preparation, embedding, rerank).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.retrieval import SHARED, Case, backend_of, load_cases
from retrieval.open_store import open_store, store_location
from retrieval.search.fusion import reciprocal_rank_fusion
from retrieval.search.hybrid import HybridSearcher
from retrieval.search.rerank import rerank
from retrieval.store import GridFilter

STAGES = ("prepare", "bm25", "bm25 scope", "embed", "dense", "dense scope", "pages", "rerank")


def stage_times(
    searcher: HybridSearcher, case: Case, k: int = 20
) -> tuple[dict[str, float], list[str], list[str]]:
    """Milliseconds of each stage of one search, run in sequence, and of the search itself;
    then the top ``k`` uids of both (the same pages, or this times another pipeline)."""
    times: dict[str, float] = {}

    def timed(name: str, work: Callable, *args):
        start = time.perf_counter()
        result = work(*args)
        times[name] = (time.perf_counter() - start) * 1000
        return result

    settings, store = searcher.settings, searcher.store
    where = case.where or GridFilter()
    prepared = timed("prepare", searcher.prepared, case.question, where)
    scope = searcher._scope(case.question) if where.is_empty() else GridFilter()
    wheres = [where] if scope.is_empty() else [where, scope]
    names = ("", " scope")
    lexical = [
        timed("bm25" + n, store.bm25, prepared.terms, w, settings.pool)
        for n, w in zip(names, wheres, strict=False)
    ]
    vector = timed("embed", searcher.embedder.embed, [prepared.dense_text])[0]
    dense = [
        timed("dense" + n, searcher._dense, vector, w, settings.pool)
        for n, w in zip(names, wheres, strict=False)
    ]
    rankings, weights = [], []
    for scale, bm25, nearest in zip((1.0, settings.scope_weight), lexical, dense, strict=False):
        rankings += [[pid for pid, _ in bm25], nearest]
        weights += [scale * settings.bm25_weight, scale * settings.dense_weight]
    head = reciprocal_rank_fusion(rankings, k=settings.rrf_k, weights=weights)
    head = head[: max(settings.rerank_depth, k)]
    pages = {p.page_id: p for p in timed("pages", store.pages_by_id, [pid for pid, _ in head])}
    ranked = [(pages[pid], score) for pid, score in head if pid in pages]
    if settings.rerank:
        ranked = timed("rerank", rerank, prepared, ranked)
    start = time.perf_counter()
    hits = searcher.search(case.question, case.where, k=k)
    times["search"] = (time.perf_counter() - start) * 1000
    return times, [p.uid for p, _ in ranked[:k]], [h.uid for h in hits]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, default=SHARED / "questions.jsonl")
    parser.add_argument("--store", action="append", default=None, help="repeat to compare")
    args = parser.parse_args()
    locations = [store_location(s) for s in (args.store or [None])]
    header = ["store", "regime", *STAGES, "search"]
    print(" | ".join(header))
    for location in locations:
        store = open_store(location, seed_if_empty=False)
        searcher = HybridSearcher(store)
        searcher.search("warm up", GridFilter(), k=1)
        locked, shared, _ = load_cases(args.questions, store)
        for regime, cases in (("slice-locked", locked), ("shared", shared)):
            runs = [stage_times(searcher, case)[0] for case in cases]
            medians = [
                f"{statistics.median(v):.1f}" if (v := [r[s] for r in runs if s in r]) else "-"
                for s in (*STAGES, "search")
            ]
            print(" | ".join([backend_of(location), regime, *medians]))


if __name__ == "__main__":
    main()
