"""Soft scoping of unfiltered searches: the companies and year a query names.

An unfiltered ("shared") search for "3M's FY2018 capex" should still prefer 3M's FY2018
pages. Names and tickers come from the company map, the year from FY forms; nothing is
tuned to particular questions. Search uses the scope as an extra ranking, never as a
hard filter, so a wrong guess costs rank, not recall.
"""

from __future__ import annotations

import re

from retrieval.companies import Company
from retrieval.store import GridCell, GridFilter

_YEAR = re.compile(r"\b(?:fy|fiscal(?: year)?)?\s*'?(20\d{2})\b", re.IGNORECASE)
_SHORT_FY = re.compile(r"\bfy\s*'?(\d{2})\b", re.IGNORECASE)


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _names(company: Company) -> set[str]:
    names = {_squash(company.name), *(_squash(p) for p in company.doc_name_prefixes)}
    return {n for n in names if len(n) >= 4}


def mentioned_tickers(query: str, companies: tuple[Company, ...]) -> list[str]:
    """Tickers whose company name (≥ 4 letters, spacing and punctuation ignored) or ticker
    (as an upper-case word) the query contains."""
    squashed = _squash(query)
    words = set(re.findall(r"\b[A-Z][A-Z&.]{1,5}\b", query))
    found = []
    for company in companies:
        short = company.name if len(_squash(company.name)) < 4 else None
        if (
            company.ticker in words
            or any(n in squashed for n in _names(company))
            or (short and re.search(rf"(?<![\w]){re.escape(short)}(?![\w])", query))
        ) and company.ticker not in found:
            found.append(company.ticker)
    return found


def mentioned_years(query: str) -> list[int]:
    years = [int(y) for y in _YEAR.findall(query)]
    years += [2000 + int(y) for y in _SHORT_FY.findall(query)]
    return sorted(set(years))


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
