"""Copying a grid from one store to another (SQLite → PostgreSQL and back), vectors included.

Nothing is re-embedded: each page's current vector travels with it, as do its document's
statement facts (their page ids renumbered to the destination's). A document is copied
whole or not at all, and one already present with the same pages, vectors and facts is
skipped, so an interrupted copy resumes where it stopped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from retrieval.facts.model import Fact
from retrieval.pages import Page
from retrieval.store import GridFilter


@dataclass
class CopyReport:
    documents: int = 0
    skipped: int = 0
    pages: int = 0
    vectors: int = 0
    facts: int = 0


def document_names(store: Any) -> list[str]:
    """Every document in ``store``, by name."""
    if hasattr(store, "document_names"):
        return store.document_names()
    rows = store.db.execute("SELECT DISTINCT doc_name FROM pages ORDER BY doc_name").fetchall()
    return [r[0] for r in rows]


def _cell(page: Page) -> GridFilter:
    return GridFilter(ticker=page.ticker, fy=page.fy, fq=page.fq, doc_type=page.doc_type)


def _document_facts(store: Any, pages: Sequence[Page]) -> list[Fact]:
    if not hasattr(store, "facts"):
        return []
    name = pages[0].doc_name
    return [f for f in store.facts(_cell(pages[0])) if f.doc_name == name]


def _document_vectors(store: Any, pages: Sequence[Page]) -> dict[str, np.ndarray]:
    """uid -> current vector (active model) of the document's pages that have one."""
    current = set(store.candidate_ids(_cell(pages[0])).tolist())
    with_vectors = [p for p in pages if p.page_id in current]
    if not with_vectors:
        return {}
    matrix = store.vectors(np.array([p.page_id for p in with_vectors], dtype=np.int64))
    return {p.uid: matrix[i] for i, p in enumerate(with_vectors)}


def _key(page: Page) -> tuple[str, str]:
    """What must match for a page to count as copied. PostgreSQL text cannot hold NUL
    characters (a few PDF pages have them): the store drops them, so the comparison does."""
    return page.uid, page.text.replace("\x00", "")


def _same(src_pages, src_vectors, src_facts, dst: Any) -> bool:
    """Whether ``dst`` already holds this document exactly (pages, current vectors, facts)."""
    dst_pages = dst.document_pages(src_pages[0].doc_name)
    if [_key(p) for p in dst_pages] != [_key(p) for p in src_pages]:
        return False
    if set(_document_vectors(dst, dst_pages)) != set(src_vectors):
        return False
    return len(_document_facts(dst, dst_pages)) == len(src_facts)


def copy_grid(
    src: Any,
    dst: Any,
    on_document: Callable[[str, int], None] | None = None,
    batch: int = 500,
    documents: Sequence[str] | None = None,
) -> CopyReport:
    """Copy every document of ``src`` (or only ``documents``) into ``dst``;
    ``on_document(name, pages)`` after each."""
    if src.model_id != dst.model_id:
        raise ValueError(
            f"the stores use different embedding models ({src.model_id} vs {dst.model_id})"
        )
    report = CopyReport()
    deferring = hasattr(dst, "defer_vector_index")
    if deferring:
        dst.defer_vector_index = True  # one index build after the load beats 50k inserts
    try:
        for name in document_names(src) if documents is None else documents:
            pages = src.document_pages(name)
            if not pages:
                continue
            vectors = _document_vectors(src, pages)
            facts = _document_facts(src, pages)
            if _same(pages, vectors, facts, dst):
                report.skipped += 1
            else:
                _copy_document(dst, pages, vectors, facts, batch)
                report.documents += 1
                report.pages += len(pages)
                report.vectors += len(vectors)
                report.facts += len(facts)
            if on_document:
                on_document(name, len(pages))
    finally:
        if deferring:
            dst.defer_vector_index = False
            dst.finish_bulk_load()
    return report


def _copy_document(dst: Any, pages, vectors: dict[str, np.ndarray], facts, batch: int) -> None:
    clean = [p.model_copy(update={"page_id": None}) for p in pages]

    def renumbered(stored: Sequence[Page]) -> list[Fact]:
        ids = {p.uid: p.page_id for p in stored}
        return [replace(f, page_id=ids[f.uid]) for f in facts if f.uid in ids]

    dst.upsert_document(clean, facts=renumbered)  # none: the destination's old ones go
    if not vectors:
        return
    ids = {p.uid: p.page_id for p in dst.document_pages(pages[0].doc_name)}
    rows = [(ids[uid], v) for uid, v in vectors.items() if uid in ids]
    for start in range(0, len(rows), batch):
        dst.put_vectors(dst.model_id, rows[start : start + batch])
