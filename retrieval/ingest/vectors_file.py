"""Page vectors shipped in a file beside the pages, so an ingest need not embed them again.

Two layouts are read, both ``.npz`` with ``vectors`` (float16, one row per page),
``model_id`` and the store's text hash of each page's text:

- the corpus layout: ``doc_name``, ``page_index``, ``text_hash`` (``vectors-minilm.npz``
  beside FinanceBench's ``pages.jsonl.gz``);
- the bundled sample's layout: ``uids``, ``text_hashes`` (written by
  :func:`retrieval.ingest.sample.save_vectors`).

A vector is used only when its model is the store's and its text hash is the hash of the
page text being ingested; every other page is left for the embedder, and counted.

A file whose vectors no search could use is refused whole, naming the file: vectors of
another width than its model makes (every search would fail comparing them with the
query's), or any NaN, infinite or all-zero vector (it would score NaN against every query).
"""

from __future__ import annotations

import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from retrieval.pages import Page, page_uid
from retrieval.search.embeddings import model_dim, unusable_rows
from retrieval.sqlite.store import text_hash
from retrieval.store import PageStore

#: Names a vectors file beside a pages file may have, in the order they are tried.
BESIDE_PATTERNS = ("vectors.npz", "vectors-*.npz")


@dataclass(frozen=True)
class VectorsFile:
    """The rows of one vectors file, indexed by page uid."""

    path: Path
    model_id: str
    row_of: dict[str, int]  # page uid -> row
    hashes: list[str]
    vectors: np.ndarray  # (rows, dim) float16

    def __len__(self) -> int:
        return len(self.hashes)


@dataclass
class VectorMatch:
    """How many ingested pages took a shipped vector, and how many must still be embedded."""

    used: int = 0
    mismatched: int = 0


def read_vectors_file(path: Path) -> VectorsFile:
    """Read either layout; a file that is not one raises ValueError naming what is wrong."""
    try:
        # Each key access of an npz decompresses that array again: read every array once.
        with np.load(path, allow_pickle=False) as npz:
            data = {key: npz[key] for key in npz.files}
    except (OSError, EOFError, ValueError, zipfile.BadZipFile) as exc:
        raise ValueError(f"{path}: cannot read vectors file: {exc}") from None
    keys = set(data)
    if {"doc_name", "page_index", "text_hash"} <= keys:
        uids = [
            page_uid(str(d), int(i))
            for d, i in zip(data["doc_name"].tolist(), data["page_index"].tolist(), strict=True)
        ]
        hashes = [str(h) for h in data["text_hash"].tolist()]
    elif {"uids", "text_hashes"} <= keys:
        uids = [str(u) for u in data["uids"].tolist()]
        hashes = [str(h) for h in data["text_hashes"].tolist()]
    else:
        raise ValueError(
            f"{path}: not a vectors file (arrays {sorted(keys)}; expected doc_name, "
            "page_index, text_hash, vectors, model_id)"
        )
    if not {"vectors", "model_id"} <= keys:
        raise ValueError(f"{path}: a vectors file needs 'vectors' and 'model_id' arrays")
    try:
        with np.errstate(over="ignore"):  # out of float16's range: found as infinite below
            vectors = np.asarray(data["vectors"], dtype=np.float16)
    except (TypeError, ValueError):
        raise ValueError(
            f"{path}: 'vectors' holds {data['vectors'].dtype} values, not numbers"
        ) from None
    if vectors.ndim != 2 or len(vectors) != len(uids) or len(hashes) != len(uids):
        raise ValueError(f"{path}: {len(uids)} pages but vectors of shape {tuple(vectors.shape)}")
    model_id = str(data["model_id"])
    _check_usable(path, model_id, vectors, uids)
    return VectorsFile(
        path=path,
        model_id=model_id,
        row_of={uid: row for row, uid in enumerate(uids)},
        hashes=hashes,
        vectors=vectors,
    )


def _check_usable(path: Path, model_id: str, vectors: np.ndarray, uids: list[str]) -> None:
    """Refuse (ValueError naming ``path``) vectors no search could use, before any is stored:
    taken in, they made every search fail or score NaN, while the grid counted the pages
    as embedded and ``research embed`` saw nothing to do."""
    dim = model_dim(model_id)
    if dim is not None and vectors.shape[1] != dim:
        raise ValueError(
            f"{path}: its vectors are {vectors.shape[1]} wide but {model_id} makes {dim}-wide "
            "vectors; the file was made by another model or is damaged"
        )
    bad = np.flatnonzero(unusable_rows(vectors))
    if len(bad):
        raise ValueError(
            f"{path}: {len(bad)} of {len(vectors)} vectors are NaN, infinite or all zero "
            f"(the first is row {bad[0]}, page {uids[bad[0]]}); the file is damaged"
        )


def vectors_beside(pages_path: Path) -> Path | None:
    """A ``vectors.npz`` or ``vectors-*.npz`` in the folder of a pages file, if there is one."""
    if pages_path.is_dir():
        return None
    for pattern in BESIDE_PATTERNS:
        found = sorted(pages_path.parent.glob(pattern))
        if found:
            return found[0]
    return None


def attach_vectors(
    store: PageStore, model_id: str, pages: Sequence[Page], shipped: VectorsFile
) -> VectorMatch:
    """Give each stored page its shipped vector where the model and the text hash match.

    ``pages`` are pages as ingested (their text is what the store holds); the store's page
    ids are looked up by uid. Pages the store does not hold are ignored.
    """
    match = VectorMatch()
    stored: dict[str, int | None] = {}
    for start in range(0, len(pages), 5000):
        chunk = [p.uid for p in pages[start : start + 5000]]
        stored.update((p.uid, p.page_id) for p in store.pages_by_uid(chunk))
    rows: list[tuple[int, np.ndarray]] = []
    for page in pages:
        page_id = stored.get(page.uid)
        if page_id is None:
            continue
        row = shipped.row_of.get(page.uid)
        if (
            row is not None
            and shipped.model_id == model_id
            and shipped.hashes[row] == text_hash(page.text)
        ):
            rows.append((page_id, shipped.vectors[row]))
        else:
            match.mismatched += 1
    for start in range(0, len(rows), 500):
        store.put_vectors(model_id, rows[start : start + 500])
    match.used = len(rows)
    return match
