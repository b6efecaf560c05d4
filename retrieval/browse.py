"""Browsing the grid: what it holds (the ticker × fiscal-period matrix) and searching it.

``research grid`` / ``research search`` and the web app's ``/grid`` and ``/api/search``
show the same things and must give the same answers and the same errors, so the logic
lives here once: the matrix of cells and periods the grid holds, and a search whose
filters (ticker, FY, FQ, document type) are read from what a user typed and checked
against what the grid holds before anything is searched. A filter off the grid is a
:class:`BrowseError` whose message lists what the grid does hold; the callers only say
it (a one-line CLI error, an HTTP 400).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.periods import Period, parse_fq, parse_fy
from retrieval.coverage import OutsideGridError, check_filter, describe_coverage
from retrieval.pages import normalise_doc_type
from retrieval.search.hybrid import Hit, HybridSearcher, with_snippets
from retrieval.store import GridCell, GridFilter


class BrowseError(ValueError):
    """A search the grid cannot answer; the message says why (and what the grid holds)."""


@dataclass
class Matrix:
    """Rows = tickers, columns = fiscal periods the grid holds, cells where it holds pages."""

    tickers: list[str]
    companies: dict[str, str]
    periods: list[Period]
    cells: dict[tuple[str, int, int], GridCell] = field(default_factory=dict)
    pages: int = 0
    documents: int = 0
    vectors: int = 0

    def cell(self, ticker: str, period: Period) -> GridCell | None:
        return self.cells.get((ticker, period.fy, period.fq))

    def coverage(self) -> dict[str, list[str]]:
        """ticker → its period labels (``FY2018``, ``FY2023 Q2``), as ``research grid`` shows."""
        return describe_coverage(list(self.cells.values()))

    def ticker_pages(self, ticker: str) -> int:
        """Pages the grid holds for ``ticker``, over all its periods."""
        return sum(c.pages for c in self.cells.values() if c.ticker == ticker)


def grid_matrix(store) -> Matrix:
    """The matrix of what ``store`` holds, with its page, document and vector counts."""
    cells, stats = store.cells(), store.stats()
    periods = sorted({Period(c.fy, c.fq) for c in cells}, key=lambda p: (p.fy, p.fq))
    return Matrix(
        tickers=sorted({c.ticker for c in cells}),
        companies={c.ticker: c.company for c in cells},
        periods=periods,
        cells={(c.ticker, c.fy, c.fq): c for c in cells},
        pages=stats["pages"],
        documents=stats["documents"],
        vectors=stats["vectors"],
    )


def check_query(query: str) -> str:
    """``query`` stripped; :class:`BrowseError` when nothing is left to look for."""
    query = query.strip()
    if not query:
        raise BrowseError("the query is empty: say what to look for")
    return query


def grid_filter(
    ticker: str | None = None,
    fy: str | None = None,
    fq: str | None = None,
    doc_type: str | None = None,
) -> GridFilter:
    """The filter a user typed (``mmm``, ``FY18``, ``Q2``, ``10k``), read into a
    :class:`GridFilter`; :class:`BrowseError` for a year, quarter or type it cannot read."""
    try:
        return GridFilter(
            ticker=ticker.strip().upper() if ticker else None,
            fy=parse_fy(fy) if fy else None,
            fq=parse_fq(fq) if fq else None,
            doc_type=normalise_doc_type(doc_type) if doc_type else None,
        )
    except ValueError as exc:
        raise BrowseError(str(exc)) from None


def check_in_grid(store, where: GridFilter) -> None:
    """:class:`BrowseError` naming what the grid holds when ``where`` points outside it."""
    try:
        check_filter(store.cells(), where)
    except OutsideGridError as exc:
        raise BrowseError(str(exc)) from None


def search_grid(
    store,
    query: str,
    where: GridFilter | None = None,
    *,
    k: int = 10,
    searcher: HybridSearcher | None = None,
) -> list[Hit]:
    """The top ``k`` pages for ``query`` inside ``where`` (from :func:`grid_filter`), each
    with its snippet.

    The query and the filter are checked first (:class:`BrowseError`, nothing searched);
    ``searcher`` is the caller's own when it keeps one (the web app), else a default
    :class:`HybridSearcher` over ``store``.
    """
    query = check_query(query)
    where = GridFilter() if where is None else where
    check_in_grid(store, where)
    searcher = searcher or HybridSearcher(store)
    return with_snippets(searcher.search(query, where, k=k), query)
