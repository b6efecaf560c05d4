"""Filling in missing page vectors, in batches, resumable at any point.

Only pages without a current vector (none, another model's, or made from older text)
are embedded, so re-running after an interruption or a re-ingest redoes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from retrieval.embeddings import Embedder
from retrieval.sqlite_store import SQLiteStore
from retrieval.text import embedding_text


def embed_missing(
    store: SQLiteStore,
    embedder: Embedder,
    batch_size: int = 16,
    chunk: int = 512,
    on_batch: Callable[[int], None] | None = None,
    limit: int | None = None,
) -> int:
    """Embed pages lacking a current vector; returns how many were embedded."""
    done = 0
    while limit is None or done < limit:
        todo = store.missing_vectors(embedder.model_id, chunk)
        if not todo:
            break
        # Similar lengths in one batch waste less padding.
        todo.sort(key=lambda row: len(row[1]))
        for start in range(0, len(todo), batch_size):
            batch = todo[start : start + batch_size]
            vectors = embedder.embed([embedding_text(text) for _, text in batch])
            store.put_vectors(
                embedder.model_id, list(zip([pid for pid, _ in batch], vectors, strict=True))
            )
            done += len(batch)
            if on_batch:
                on_batch(len(batch))
    return done
