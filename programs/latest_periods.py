"""Periods counted from the latest a company has filed, as the planner resolves them.

"Last year", "the year before last", "the last four quarters", "TTM" and "YTD 2023" name no
cell by themselves: each is counted back from what the company's filings in the grid
report (its latest annual filing, its latest 10-Q or earnings release), never from the
calendar, which the grid may be years behind. Each function returns the cells and the
Scope lines that say how the words were read, so no period is chosen silently.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.cells import SliceRef
from retrieval.store import GridCell

ANNUAL_DOC_TYPES = frozenset({"10-K", "ANNUAL REPORT"})
#: Filings that report a whole period's statements; an earnings release or an 8-K reports
#: part of one, so it is never the period a question naming none is answered for.
PERIODIC_DOC_TYPES = ANNUAL_DOC_TYPES | {"10-Q"}
#: Filings that report a quarter's figures: "the last four quarters" researches these.
QUARTER_DOC_TYPES = frozenset({"10-Q", "EARNINGS"})


def latest_full_fy(ticker: str, cells: Sequence[GridCell]) -> int | None:
    """The latest FY with an annual filing (10-K) for ``ticker``; else its latest FY at all."""
    own = [c for c in cells if c.ticker == ticker]
    annual = [c.fy for c in own if c.fq == 4 and ANNUAL_DOC_TYPES & set(c.doc_types)]
    if annual:
        return max(annual)
    return max((c.fy for c in own), default=None)


def latest_periodic_cell(ticker: str, cells: Sequence[GridCell]) -> GridCell | None:
    """The latest cell of ``ticker`` holding a 10-K or 10-Q; else its latest full FY's."""
    own = [c for c in cells if c.ticker == ticker and PERIODIC_DOC_TYPES & set(c.doc_types)]
    if own:
        return max(own, key=lambda c: position(c.fy, c.fq))
    fy = latest_full_fy(ticker, cells)
    held = [c for c in cells if c.ticker == ticker and c.fy == fy]
    return max(held, key=lambda c: c.fq, default=None)


def full_fys(ticker: str, cells: Sequence[GridCell]) -> list[int]:
    """FYs with an annual filing for ``ticker``, newest first."""
    own = {c.fy for c in cells if c.ticker == ticker and c.fq == 4}
    own |= {c.fy for c in cells if c.ticker == ticker and ANNUAL_DOC_TYPES & set(c.doc_types)}
    return sorted(own, reverse=True)


def position(fy: int, fq: int) -> int:
    """A cell's place in time, counted in quarters: comparable across fiscal years."""
    return fy * 4 + fq


def counted_back(
    ticker: str, years_back: Sequence[int], cells: Sequence[GridCell], scope: list[str]
) -> list[int]:
    """The fiscal years "last year" (0 back), "the year before last" (1) … name, counted
    from ``ticker``'s latest fiscal year with an annual filing, which a Scope line names:
    the grid's latest year, not the calendar's, is "last year" to its filings."""
    latest = latest_full_fy(ticker, cells)
    if latest is None:
        return []
    years = sorted({latest - back for back in years_back})
    named = ", ".join(f"FY{y}" for y in years)
    scope.append(
        f"{ticker}: years counted back from FY{latest}, the latest fiscal year the grid "
        f"holds: {named}"
    )
    return years


def trailing_year(ticker: str, cells: Sequence[GridCell], scope: list[str]) -> list[int]:
    """The year "the trailing twelve months" is read as: the latest with an annual filing,
    whose twelve months a filing reports whole. The quarters filed since are named in the
    Scope line and not added to it: a sum of quarters across filings is no printed figure."""
    latest = latest_full_fy(ticker, cells)
    if latest is None:
        return []
    since = sorted(
        (c.fy, c.fq)
        for c in cells
        if c.ticker == ticker
        and position(c.fy, c.fq) > position(latest, 4)
        and QUARTER_DOC_TYPES & set(c.doc_types)
    )
    line = (
        f"{ticker}: the trailing twelve months are read as FY{latest}, the latest twelve "
        "months an annual filing reports"
    )
    if since:
        quarters = ", ".join(f"FY{fy} Q{fq}" for fy, fq in since)
        line += f"; the quarters filed since ({quarters}) are not added to it"
    scope.append(line)
    return [latest]


def year_to_date_quarter(ticker: str, fy: int, cells: Sequence[GridCell], scope: list[str]) -> int:
    """The quarter whose filing reports FY ``fy`` so far ("YTD 2023"): the latest 10-Q, 10-K
    or earnings release of that year the grid holds (the annual filing once the year has
    closed; a release prints year-to-date columns beside the quarter's), said in a
    Scope line; Q4 when it holds none, which the nearest-cell rule then stands in for. An
    earlier year asked beside it is read at the same quarter, as the 10-Q's prior-year
    year-to-date column prints it."""
    held = [
        c.fq
        for c in cells
        if c.ticker == ticker
        and c.fy == fy
        and (PERIODIC_DOC_TYPES | QUARTER_DOC_TYPES) & set(c.doc_types)
    ]
    if not held:
        return 4
    fq = max(held)
    so_far = "the whole year (the annual filing)" if fq == 4 else f"the year to Q{fq}"
    scope.append(f"{ticker}: year to date FY{fy} is read as {so_far}, its latest filing held")
    return fq


def recent_quarters(
    ticker: str, n: int, cells: Sequence[GridCell]
) -> tuple[list[tuple[int, int]], list[str], list[str]]:
    """The cells "the last ``n`` quarters" of ``ticker`` names, with their Scope lines and
    the quarters the grid lacks: ``n`` quarters back from the latest its filings report.

    A quarter held as a filing that reports it (a 10-Q, an earnings release; an 8-K reports
    an event) is researched. A fourth quarter is filed in the annual report, whose figures
    are the year's: beside the quarters' they would read as one quarter's, so it is said and
    not researched. With no quarter of the run held, the latest periodic filing (commonly
    the annual one, which states quarterly figures only sometimes) is researched instead,
    and a Scope line says so: a missing cell never fails a run."""
    own = {(c.fy, c.fq) for c in cells if c.ticker == ticker}
    if not own:
        return [], [], []
    reported = {
        (c.fy, c.fq) for c in cells if c.ticker == ticker and QUARTER_DOC_TYPES & set(c.doc_types)
    }
    end = max(position(fy, fq) for fy, fq in own)
    run = [((p - 1) // 4, (p - 1) % 4 + 1) for p in range(end - n + 1, end + 1)]
    quarters = [(fy, fq) for fy, fq in run if fq != 4 and (fy, fq) in reported]
    annual = [(fy, fq) for fy, fq in run if fq == 4 and (fy, fq) in own]
    if not quarters:
        latest = latest_periodic_cell(ticker, cells)
        assert latest is not None  # the ticker holds cells
        kind = "the latest annual filing" if latest.fq == 4 else "/".join(latest.doc_types)
        asked = "the latest quarter" if n == 1 else f"the last {n} quarters"
        line = (
            f"{ticker}: the grid holds no quarterly filing for {asked}; "
            f"researched FY{latest.fy} Q{latest.fq} ({kind}) instead"
        )
        if latest.fq == 4:
            line += ", which states quarterly figures only sometimes"
        return [(latest.fy, latest.fq)], [line], []
    scope = [
        f"{ticker} FY{fy} Q4: the fourth quarter is filed in the annual report, whose figures "
        "are the year's: not researched as a quarter"
        for fy, _ in annual
    ]
    missing = [
        SliceRef(ticker=ticker, fy=fy, fq=fq).label
        for fy, fq in run
        if fq != 4 and (fy, fq) not in reported
    ]
    return quarters, scope, missing
