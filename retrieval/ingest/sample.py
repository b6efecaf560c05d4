"""The bundled sample corpus: real filings shipped with the package, with their vectors.

An empty store is seeded from it so ``research search`` works on a fresh machine
with nothing to download. Its pages are FinanceBench's (Patronus AI) extraction of
public SEC filings; the vectors were made by the default embedder and are only used
where the page text hash still matches.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from retrieval.ingest.pages_file import jsonl_documents
from retrieval.ingest.pipeline import ingest
from retrieval.ingest.report import IngestReport
from retrieval.ingest.vectors_file import attach_vectors, read_vectors_file
from retrieval.sqlite.store import SQLiteStore, text_hash
from retrieval.store import GridCell

SAMPLE_DIR = Path(__file__).parent / "sample"
SAMPLE_PAGES = SAMPLE_DIR / "pages.jsonl.gz"
SAMPLE_VECTORS = SAMPLE_DIR / "vectors.npz"


def seed_from_sample(store: SQLiteStore) -> IngestReport:
    """Ingest the sample pages (facts included) with their shipped vectors."""
    shipped = read_vectors_file(SAMPLE_VECTORS) if SAMPLE_VECTORS.exists() else None
    return ingest(SAMPLE_PAGES, store, vectors=shipped)


def load_vectors(store: SQLiteStore, path: Path) -> int:
    """Attach the vectors of a vectors file to every stored page whose text is unchanged."""
    shipped = read_vectors_file(path)
    uids = list(shipped.row_of)
    pages = [p for i in range(0, len(uids), 5000) for p in store.pages_by_uid(uids[i : i + 5000])]
    return attach_vectors(store, store.model_id, pages, shipped).used


def save_vectors(store: SQLiteStore, doc_names: list[str], path: Path) -> int:
    """Save the current vectors of ``doc_names`` (uid, text hash, float16 vector)."""
    uids, hashes, vectors = [], [], []
    ids, matrix = store.all_vectors()
    row_of = {int(pid): i for i, pid in enumerate(ids)}
    for doc in doc_names:
        for page in store.document_pages(doc):
            if page.page_id in row_of:
                uids.append(page.uid)
                hashes.append(text_hash(page.text))
                vectors.append(matrix[row_of[page.page_id]].astype(np.float16))
    np.savez_compressed(
        path,
        uids=np.array(uids),
        text_hashes=np.array(hashes),
        vectors=np.stack(vectors),
        model_id=np.array(store.model_id),
    )
    return len(uids)


@cache
def sample_cells() -> tuple[GridCell, ...]:
    """The grid cells the bundled sample holds, read from its pages without building a store.

    Golden sets written against the sample grid (the planner's) plan over exactly these
    cells, whatever else a user's grid holds. Read once per process: the pages file does
    not change under a running program.
    """
    counts: dict[tuple[str, int, int], list] = {}
    for doc in jsonl_documents(SAMPLE_PAGES, IngestReport()):
        for page in doc.pages:
            entry = counts.setdefault((page.ticker, page.fy, page.fq), [page.company, set(), 0])
            entry[1].add(page.doc_type)
            entry[2] += 1
    return tuple(
        GridCell(ticker=t, company=c, fy=fy, fq=fq, doc_types=tuple(sorted(types)), pages=n)
        for (t, fy, fq), (c, types, n) in sorted(counts.items())
    )
