"""What the grid holds, and clear errors for filters that point outside it."""

from __future__ import annotations

from collections import defaultdict

from retrieval.store import GridCell, GridFilter


class OutsideGridError(ValueError):
    """A filter names a ticker, year or quarter the grid does not hold."""


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
        raise OutsideGridError(
            f"{where.ticker} is not in the grid; it holds {', '.join(sorted(coverage))}"
        )
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
        held = ", ".join(f"FY{c.fy} Q{c.fq}" for c in chosen)
        raise OutsideGridError(f"Q{where.fq} is not in the grid for that selection; held: {held}")
    chosen = [c for c in chosen if where.fq is None or c.fq == where.fq]
    if where.doc_type and not any(where.doc_type in c.doc_types for c in chosen):
        held = sorted({d for c in chosen for d in c.doc_types})
        raise OutsideGridError(
            f"no {where.doc_type} in that selection; document types held: {', '.join(held)}"
        )
