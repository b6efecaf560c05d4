"""The page store's interface: what search and ingestion need, and nothing more.

Callers depend on :class:`PageStore`, so a PostgreSQL + pgvector backend can replace
the embedded SQLite one without touching them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
import platformdirs

from retrieval.facts.model import Fact
from retrieval.pages import Page

#: Reads a document's statement facts from its stored pages (``page_id`` set).
FactExtractor = Callable[[Sequence[Page]], list[Fact]]


@dataclass(frozen=True)
class GridFilter:
    """The grid cell (or wider region) a search is locked to; ``None`` means any."""

    ticker: str | None = None
    fy: int | None = None
    fq: int | None = None
    doc_type: str | None = None

    def is_empty(self) -> bool:
        return all(v is None for v in (self.ticker, self.fy, self.fq, self.doc_type))


def filter_clause(where: GridFilter, placeholder: str, alias: str = "p") -> tuple[str, list]:
    """SQL ``AND``-joined equality tests for the filter's set coordinates, and their values.

    ``placeholder`` is the driver's parameter mark (``?`` for SQLite, ``%s`` for psycopg);
    an empty filter is ``1=1``, which both backends read as true.
    """
    clauses, args = [], []
    for column, value in (
        ("ticker", where.ticker),
        ("fy", where.fy),
        ("fq", where.fq),
        ("doc_type", where.doc_type),
    ):
        if value is not None:
            clauses.append(f"{alias}.{column} = {placeholder}")
            args.append(value)
    return (" AND ".join(clauses) or "1=1"), args


@dataclass(frozen=True)
class GridCell:
    """One populated ``{ticker, fy, fq}`` cell and what it holds."""

    ticker: str
    company: str
    fy: int
    fq: int
    doc_types: tuple[str, ...]
    pages: int


class PageStore(Protocol):
    def upsert_document(self, pages: Sequence[Page], facts: FactExtractor | None = None) -> int:
        """Replace one document's pages (same ``doc_name``); returns pages written.

        With ``facts``, the document's facts are replaced by ``facts(stored pages)`` in the
        same transaction, so a document never has pages without its facts or the reverse.
        """

    def facts(self, where: GridFilter, concepts: Sequence[str] | None = None) -> list[Fact]:
        """Facts read from the pages of the documents in ``where`` (the slice's documents:
        an FY2018 10-K's facts include its 2017 and 2016 columns), optionally only these
        concepts. Ordered by page_id, then row order on the page."""

    def replace_facts(self, doc_name: str, facts: Sequence[Fact]) -> None:
        """Replace every fact of ``doc_name`` (all of ``facts`` must be of that document)."""

    def pages_by_uid(self, uids: Iterable[str]) -> list[Page]: ...

    def pages_by_id(self, page_ids: Iterable[int]) -> list[Page]: ...

    def bm25(self, terms: Sequence[str], where: GridFilter, k: int) -> list[tuple[int, float]]:
        """Best ``k`` (page_id, score) by BM25 over pages in ``where``; higher is better."""

    def candidate_ids(self, where: GridFilter) -> np.ndarray:
        """page_ids of the pages in ``where`` that have vectors for the active model."""

    def vectors(self, page_ids: np.ndarray) -> np.ndarray: ...

    def missing_vectors(self, model_id: str, limit: int) -> list[tuple[int, str]]:
        """(page_id, text) of pages whose vector is missing or stale for ``model_id``."""

    def put_vectors(self, model_id: str, rows: Sequence[tuple[int, np.ndarray]]) -> None: ...

    def cells(self) -> list[GridCell]: ...

    def stats(self) -> dict[str, int]: ...


def default_store_path() -> Path:
    """``$WISSEN_STORE`` or ``<user data dir>/wissen-research/grid.sqlite``."""
    env = os.environ.get("WISSEN_STORE")
    if env:
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("wissen-research")) / "grid.sqlite"


class StoreFault(BaseException):
    """The grid's store failed under an agent's tool: its server stopped, went away, or
    refuses the grid. The run cannot go on until the store is back.

    A ``BaseException``, as ``asyncio.CancelledError`` and ``KeyboardInterrupt`` are: the
    ``except Exception`` backstops between the tool and the run (the researcher's, which
    turns a tool error into text for the model; the probe loop's, which closes a failed
    probe as insufficient evidence; the scheduler's, which keeps a worker's failure to its
    probe) must let it through. Caught there, a stopped server cost a probe five rounds
    and thirty LM calls on failing searches, and the run was marked completed. The run
    service ends the run ``failed``, and resumable (``runs.service``).
    """
