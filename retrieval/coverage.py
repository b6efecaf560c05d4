"""What the grid holds, and clear errors for filters that point outside it.

An error stays a line long however large the grid: it names at most
:data:`SHOWN_IN_ERRORS` tickers or cells (a ticker spelled like the one asked first, so a
typo's fix leads) and counts the rest; ``research grid`` lists everything.
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from collections.abc import Iterable

from retrieval.store import GridCell, GridFilter

#: Tickers or cells an error names before "and N more".
SHOWN_IN_ERRORS = 8


class OutsideGridError(ValueError):
    """A filter names a ticker, year or quarter the grid does not hold."""


def one_line_sample(items: list[str], limit: int = SHOWN_IN_ERRORS) -> str:
    """``a, b, c and 24 more (`research grid` lists them)``: the first ``limit`` items."""
    shown = ", ".join(items[:limit])
    more = len(items) - limit
    return shown + (f" and {more} more (`research grid` lists them)" if more > 0 else "")


def held_tickers_text(held: Iterable[str], asked: str = "") -> str:
    """``KO, MMM, PEP``: the grid's tickers for a one-line error, those spelled most like
    ``asked`` first, at most :data:`SHOWN_IN_ERRORS` and a count of the rest."""
    tickers = sorted(set(held))
    near = difflib.get_close_matches(asked.strip().upper(), tickers, n=3, cutoff=0.6)
    return one_line_sample(near + [t for t in tickers if t not in near])


def describe_coverage(cells: list[GridCell]) -> dict[str, list[str]]:
    """ticker → sorted ``FY2018`` / ``FY2023 Q2`` labels (Q4 of an annual filing is ``FY``)."""
    out: dict[str, list[str]] = defaultdict(list)
    for cell in cells:
        annual = {"10-K", "ANNUAL REPORT"} & set(cell.doc_types)
        label = f"FY{cell.fy}" if annual and cell.fq == 4 else f"FY{cell.fy} Q{cell.fq}"
        out[cell.ticker].append(label)
    return dict(out)


def check_filter(cells: list[GridCell], where: GridFilter) -> None:
    """Raise :class:`OutsideGridError` naming what the grid does hold instead."""
    if not cells:
        raise OutsideGridError("the grid is empty: run `research ingest PATH` first")
    coverage = describe_coverage(cells)
    if where.ticker and where.ticker not in coverage:
        held = held_tickers_text(coverage, where.ticker)
        raise OutsideGridError(f"{where.ticker} is not in the grid; it holds {held}")
    chosen = [c for c in cells if not where.ticker or c.ticker == where.ticker]
    if where.fy is not None and not any(c.fy == where.fy for c in chosen):
        years = sorted({c.fy for c in chosen})
        who = where.ticker or "the grid"
        raise OutsideGridError(
            f"FY{where.fy} is not in the grid for {who}; years held: "
            + ", ".join(f"FY{y}" for y in years)
        )
    chosen = [c for c in chosen if where.fy is None or c.fy == where.fy]
    if where.fq is not None and not any(c.fq == where.fq for c in chosen):
        cells_held = sorted({f"FY{c.fy} Q{c.fq}" for c in chosen}, reverse=True)
        held = one_line_sample(cells_held)
        raise OutsideGridError(f"Q{where.fq} is not in the grid for that selection; held: {held}")
    chosen = [c for c in chosen if where.fq is None or c.fq == where.fq]
    if where.doc_type and not any(where.doc_type in c.doc_types for c in chosen):
        held = sorted({d for c in chosen for d in c.doc_types})
        raise OutsideGridError(
            f"no {where.doc_type} in that selection; document types held: {', '.join(held)}"
        )
