"""Rebuild the bundled sample corpus (``retrieval/ingest/sample/``) from FinanceBench pages.

    uv run python scripts/build_sample.py --pages ../shared/financebench/pages.jsonl.gz \
        [--vectors-from STORE]

Vectors already in ``--vectors-from`` (same text, same model) are reused; the rest are
embedded here.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from retrieval.ingest.embedding_job import embed_missing
from retrieval.ingest.pipeline import ingest
from retrieval.ingest.sample import SAMPLE_PAGES, SAMPLE_VECTORS, load_vectors, save_vectors
from retrieval.search.embeddings import MiniLMEmbedder
from retrieval.sqlite.store import SQLiteStore

SAMPLE_DOCS = [
    *(f"3M_{y}_10K" for y in range(2018, 2023)),
    *(f"PEPSICO_{y}_10K" for y in range(2018, 2023)),
    "PEPSICO_2023Q1_EARNINGS",
    "PEPSICO_2023Q2_EARNINGS",
    "COCACOLA_2019_10K",
    "COCACOLA_2020_10K",
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=Path, required=True)
    parser.add_argument("--vectors-from", type=Path, default=None)
    args = parser.parse_args()
    SAMPLE_PAGES.parent.mkdir(parents=True, exist_ok=True)
    wanted = set(SAMPLE_DOCS)
    with gzip.open(args.pages, "rt") as src, gzip.open(SAMPLE_PAGES, "wt") as dst:
        for line in src:
            if json.loads(line)["doc_name"] in wanted:
                dst.write(line)
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteStore(Path(tmp) / "sample.sqlite")
        ingest(SAMPLE_PAGES, store)
        if args.vectors_from:
            source = SQLiteStore(args.vectors_from)
            save_vectors(source, SAMPLE_DOCS, Path(tmp) / "reuse.npz")
            print("reused", load_vectors(store, Path(tmp) / "reuse.npz"))
        print("embedded", embed_missing(store, MiniLMEmbedder()))
        print("saved", save_vectors(store, SAMPLE_DOCS, SAMPLE_VECTORS), store.stats())


if __name__ == "__main__":
    main()
