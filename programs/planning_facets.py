"""The slice planner's reading of a question: what it asks about, before any cell is chosen.

A pre-pass finds what a regular expression can be sure of (tickers and company names the
grid or the company map knows, by ``retrieval.mentions``; periods by ``domain.periods``,
read in each company's own fiscal calendar); the LLM's facets complement it, each checked
against the question first (:func:`grounded`), since a small model invents companies and
quarters. :mod:`programs.planning_rules` then turns the merged facets into slices.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from domain.fiscal_calendar import year_end_name
from domain.periods import (
    MAX_FY,
    MIN_FY,
    Periods,
    in_fiscal_terms,
    mentioned_years,
    read_periods,
    speaks_of_quarters,
    speaks_of_recent_years,
)
from retrieval.companies import Company
from retrieval.mentions import LEGAL_SUFFIXES, company_mentions, unrecognised_peers
from retrieval.store import GridCell
from signatures.planner import Facets


@dataclass
class PrePass(Periods):
    """What the regular expressions found in the question: its periods, and its companies."""

    tickers: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)

    @property
    def found_period(self) -> bool:
        return bool(
            self.fiscal_years
            or self.last_n_years
            or self.last_n_quarters
            or self.since_fy
            or self.years_back
            or self.trailing
        )


#: What a plan says of a peer name no map or grid knows ("Adidas is not a company …").
UNRECOGNISED_PEER = "is not a company the grid holds"


def prepass(question: str, companies: Sequence[Company], cells: Sequence[GridCell]) -> PrePass:
    """Find tickers, known company names and period expressions in ``question``."""
    found = PrePass(**dataclasses.asdict(read_periods(question)))
    grid = {c.ticker for c in cells}
    known = {c.ticker: c.name for c in companies} | {c.ticker: c.company for c in cells}
    for _, ticker in company_mentions(question, companies, cells):
        if ticker in grid:
            if ticker not in found.tickers:
                found.tickers.append(ticker)
        else:
            message = f"{known.get(ticker, ticker)} ({ticker}) is not in the grid"
            if message not in found.unknown:
                found.unknown.append(message)
    for name in unrecognised_peers(question, companies, cells):  # "Nike and Adidas"
        found.unknown.append(f"{name} {UNRECOGNISED_PEER}")

    return found


def in_company_calendar(
    question: str, pre: Periods, tickers: Sequence[str], fiscal_year_end: str
) -> tuple[Periods, list[str]]:
    """The question's periods read in the fiscal calendar of ``tickers`` (whose years end
    on ``fiscal_year_end``), and a Scope line when that changes them. The pre-pass reads a
    dated quarter by the calendar, before it knows whose it is; "the quarter ended November
    30, 2023" is Nike's Q2 FY2024, not the FY2023 10-K a calendar Q4 would pick."""
    text = in_fiscal_terms(question, fiscal_year_end)
    fiscal = read_periods(text)
    if text == question or (fiscal.fiscal_years, fiscal.fiscal_quarters) == (
        pre.fiscal_years,
        pre.fiscal_quarters,
    ):
        return pre, []
    cells = [f"FY{y} Q{q}" for y in fiscal.fiscal_years for q in fiscal.fiscal_quarters] or [
        f"FY{y}" for y in fiscal.fiscal_years
    ]
    line = (
        f"{', '.join(tickers)}: the dates asked about are read in the fiscal calendar (the "
        f"fiscal year ends in {year_end_name(fiscal_year_end)}): {', '.join(cells)}"
    )
    return fiscal, [line]


def merge_facets(pre: PrePass, llm: Facets | None, question: str | None = None) -> Facets:
    """Pre-pass facets, complemented by the LLM's where the pre-pass found nothing.

    Companies are a union (the LLM catches brands and spellings the map lacks). Periods
    come from the pre-pass when it found any, because a regular expression reading "FY2022"
    or "last three years" is exact, while an LLM may resolve "last three years" against its
    own idea of today; the LLM's periods are used only when the pre-pass found none.
    Given the ``question``, the LLM's facets are first checked against it (:func:`grounded`).
    """
    llm = grounded(llm or Facets(), question) if question is not None else (llm or Facets())
    tickers = list(pre.tickers)
    for t in llm.tickers:
        t = t.strip().upper().lstrip("$")
        if t and t not in tickers:
            tickers.append(t)
    since = pre.since_fy
    if pre.found_period:
        years, last_n = list(pre.fiscal_years), pre.last_n_years
    else:
        years = sorted({y for y in llm.fiscal_years if MIN_FY <= y <= MAX_FY})
        last_n = llm.last_n_years if llm.last_n_years and llm.last_n_years > 0 else None
    quarters = (
        pre.fiscal_quarters
        or pre.date_quarters  # "on May 26, 2023": the quarter that day falls in
        or sorted({q for q in llm.fiscal_quarters if 1 <= q <= 4})
    )
    granularity = "deep" if pre.deep or llm.granularity == "deep" else llm.granularity
    return Facets(
        tickers=tickers,
        equities=list(llm.equities),
        fiscal_years=years,
        fiscal_quarters=quarters,
        last_n_years=last_n,
        last_n_quarters=pre.last_n_quarters,
        years_back=pre.years_back if not years else [],
        trailing=pre.trailing,
        year_to_date=pre.year_to_date,
        since_fy=since,
        granularity=granularity,
        trend=pre.trend or llm.trend,
        sequential=pre.sequential,
    )


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def grounded(llm: Facets, question: str) -> Facets:
    """The LLM's facets that the question supports: a ticker written in it, a name it contains
    (or one of whose words of 3+ letters it contains), quarters and "deep" only if it speaks
    of quarters.

    A small or careless model invents companies and granularity; reporting "X is not in the
    grid" for a name the user never wrote, or researching Q1-Q3 nobody asked for, is worse
    than missing a paraphrase.
    """
    words = {w.lower() for w in re.findall(r"[A-Za-z0-9&.$]+", question)}
    squashed = _squash(question)
    tickers = [t for t in llm.tickers if t.strip().lstrip("$").lower() in words]
    # A word of the name counts as a whole word: "healthy" does not name CVS Health.
    name_words = {w.lower() for w in re.findall(r"[A-Za-z0-9&]+", question)}
    equities = [
        e
        for e in llm.equities
        if len(e) <= 60
        and (
            (_squash(e) and _squash(e) in squashed)
            or any(w.lower() in name_words for w in re.findall(r"[A-Za-z0-9&]{3,}", e))
        )
    ]
    granularity = llm.granularity
    quarters = list(llm.fiscal_quarters)
    # A year the question does not write is the model's guess ("the latest year" resolved
    # against its training data), never better than the grid's latest period.
    written = set(mentioned_years(question))
    years = [y for y in llm.fiscal_years if y in written]
    # Likewise a count of years the question does not ask for ("past few years").
    last_n = llm.last_n_years if speaks_of_recent_years(question) else None
    if not speaks_of_quarters(question):  # quarters nobody asked for ("FY2020 to FY2022" -> Q3)
        granularity = None if granularity == "deep" else granularity
        quarters = []
    return llm.model_copy(
        update={
            "tickers": tickers,
            "equities": equities,
            "granularity": granularity,
            "fiscal_quarters": quarters,
            "fiscal_years": years,
            "last_n_years": last_n,
        }
    )


def plausible_mapping(question: str, equity: str, ticker: str, name: str) -> bool:
    """Whether a model's reading of ``equity`` as ``ticker`` (company ``name``) is plausible:
    the question writes the ticker or a word of three letters or more of the name (legal
    suffixes aside), or the equity starts with the initial of the ticker or of a word of the
    name, as brands and nicknames do ("Coke" for Coca-Cola, "Pepsi" for PepsiCo, "J&J");
    "Square" read as PepsiCo is neither."""
    words = {w.lower() for w in re.findall(r"[A-Za-z0-9&]+", question)}
    own = {w.lower() for w in re.findall(r"[A-Za-z0-9&]{3,}", name)} - set(LEGAL_SUFFIXES)
    initial = equity.strip().lower()[:1]
    initials = {w[0] for w in own} | {ticker.lower()[:1]}
    return ticker.lower() in words or bool(own & words) or (bool(initial) and initial in initials)
