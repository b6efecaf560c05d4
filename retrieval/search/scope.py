"""Soft scoping of unfiltered searches: the companies and year a query names.

An unfiltered ("shared") search for "3M's FY2018 capex" should still prefer 3M's FY2018
pages. Companies are found by ``retrieval.mentions`` and years by ``domain.periods``,
the same readers the planner uses; nothing is tuned to particular questions. Search uses
the scope as an extra ranking, never as a hard filter, so a wrong guess costs rank, not
recall.
"""

from __future__ import annotations

from domain.periods import mentioned_years
from retrieval.companies import Company
from retrieval.mentions import mentioned_tickers
from retrieval.store import GridCell, GridFilter

__all__ = ["infer_scope", "mentioned_tickers", "mentioned_years"]


def infer_scope(query: str, companies: tuple[Company, ...], cells: list[GridCell]) -> GridFilter:
    """The one company (and, if exactly one is named, the year) a query is about, if the grid
    holds it; an empty filter when the query names none or several companies."""
    tickers = mentioned_tickers(query, companies)
    if len(tickers) != 1:
        return GridFilter()
    held = {c.fy for c in cells if c.ticker == tickers[0]}
    if not held:
        return GridFilter()
    years = [y for y in mentioned_years(query) if y in held]
    return GridFilter(ticker=tickers[0], fy=years[0] if len(years) == 1 else None)
