"""Filling in missing page vectors, in batches, resumable at any point.

Only pages without a current vector (none, another model's, or made from older text)
are embedded, so re-running after an interruption or a re-ingest redoes nothing. A
stored vector that no search can use (another width than the embedder's, NaN, infinite
or all zero: a damaged vectors file ingested before such files were refused) counts as
missing, so a run makes it again; what the embedder returns is checked the same way
before it is stored, so a bad vector is never kept (and never re-embedded forever).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from retrieval.search.embeddings import Embedder, unusable_rows
from retrieval.search.text import embedding_text
from retrieval.sqlite.store import SQLiteStore
from retrieval.store import GridFilter, PageStore

#: Pages read at a time when looking for unusable vectors through the store's protocol.
_SCAN_CHUNK = 1000


def embed_missing(
    store: SQLiteStore,
    embedder: Embedder,
    batch_size: int = 16,
    chunk: int = 512,
    on_batch: Callable[[int], None] | None = None,
    limit: int | None = None,
) -> int:
    """Embed pages lacking a usable current vector; returns how many were embedded."""
    done = 0
    unusable = invalid_vectors(store, embedder.model_id, embedder.dim)
    for start in range(0, len(unusable), chunk):
        if limit is not None and done >= limit:
            return done
        pages = store.pages_by_id(unusable[start : start + chunk])
        todo = [(page.page_id or 0, page.text) for page in pages]
        done += _embed(store, embedder, todo, batch_size, on_batch)
    while limit is None or done < limit:
        todo = store.missing_vectors(embedder.model_id, chunk)
        if not todo:
            break
        done += _embed(store, embedder, todo, batch_size, on_batch)
    return done


def _embed(
    store: PageStore,
    embedder: Embedder,
    todo: list[tuple[int, str]],
    batch_size: int,
    on_batch: Callable[[int], None] | None,
) -> int:
    """Embed and store ``todo`` (page id, text) in batches; how many were stored."""
    # Similar lengths in one batch waste less padding.
    todo.sort(key=lambda row: len(row[1]))
    for start in range(0, len(todo), batch_size):
        batch = todo[start : start + batch_size]
        vectors = embedder.embed([embedding_text(text) for _, text in batch])
        _check_embedded(embedder, [pid for pid, _ in batch], vectors)
        store.put_vectors(
            embedder.model_id, list(zip([pid for pid, _ in batch], vectors, strict=True))
        )
        if on_batch:
            on_batch(len(batch))
    return len(todo)


def _check_embedded(embedder: Embedder, page_ids: Sequence[int], vectors: np.ndarray) -> None:
    """Refuse what the embedder returned if no search could use it: stored, it would be
    found unusable and embedded again on every run, or break every search."""
    vectors = np.asarray(vectors)
    if vectors.ndim != 2 or vectors.shape != (len(page_ids), embedder.dim):
        raise ValueError(
            f"the embedder {embedder.model_id} returned vectors of shape {vectors.shape} "
            f"for {len(page_ids)} pages; expected ({len(page_ids)}, {embedder.dim})"
        )
    bad = np.flatnonzero(unusable_rows(vectors))
    if len(bad):
        raise ValueError(
            f"the embedder {embedder.model_id} returned a NaN, infinite or all-zero vector "
            f"for page {page_ids[bad[0]]}; nothing of that batch was stored"
        )


def invalid_vectors(store: PageStore, model_id: str, dim: int) -> list[int]:
    """Page ids whose current ``model_id`` vector no search can use: not ``dim`` wide,
    NaN, infinite or all zero.

    A store that can check its own vectors does (:meth:`SQLiteStore.invalid_vectors`);
    any other is read through the store protocol, a chunk at a time, one page at a time
    where a chunk holds vectors of several widths.
    """
    own = getattr(store, "invalid_vectors", None)
    if own is not None:
        return own(model_id, dim)
    if getattr(store, "model_id", None) != model_id:
        return []  # the store reads its own model's vectors; another model's count as missing
    ids = [int(i) for i in store.candidate_ids(GridFilter())]
    bad: list[int] = []
    for start in range(0, len(ids), _SCAN_CHUNK):
        chunk = ids[start : start + _SCAN_CHUNK]
        try:
            groups = [(chunk, store.vectors(np.array(chunk)))]
        except ValueError:  # several widths cannot stack: one at a time
            groups = [([pid], _one_vector(store, pid)) for pid in chunk]
        for pids, matrix in groups:
            bad.extend(_bad_rows(pids, matrix, dim))
    return bad


def _one_vector(store: PageStore, page_id: int) -> np.ndarray | None:
    try:
        return store.vectors(np.array([page_id]))
    except ValueError:  # not even one vector (odd bytes): unusable
        return None


def _bad_rows(page_ids: list[int], matrix: np.ndarray | None, dim: int) -> list[int]:
    if matrix is None or matrix.ndim != 2 or matrix.shape != (len(page_ids), dim):
        return list(page_ids)
    return [pid for pid, bad in zip(page_ids, unusable_rows(matrix), strict=True) if bad]
