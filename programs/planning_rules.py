"""The slice planner's deterministic half: a pre-pass over the question, and the spec's rules.

The pre-pass finds what a regular expression can be sure of (tickers and company names the
grid or the company map knows, by ``retrieval.mentions``; FY and quarter expressions and
"last three years", by ``domain.periods``); the LLM's facets complement it. The rules
then turn facets into slices:

1. no period at all -> the latest period the grid holds for that ticker in a 10-K or 10-Q
   (a Scope line says which); a quarter with no year -> the latest FY holding it; a year
   otherwise missing -> the latest full FY;
2. no quarter -> the quarter a dated event falls in ("on May 26, 2023" -> Q2), else Q4
   (the FY-level cell); granularity "deep" -> Q1..Q4;
3. a trend question ("improving", "year over year") adds the prior fiscal year;
4. slices = tickers x FY x FQ, de-duplicated, in a stable order;
5. a cell the grid does not hold never fails a run: the nearest cell that holds the
   company's filings is researched instead (the FY's annual filing for a quarter, else the
   closest period), and a Scope line says which and why; a deep or trend request's
   missing quarters and a comparison year that is absent are reported, not substituted.

Everything here is a pure function of its inputs, so the rules are property-tested.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from domain.cells import SliceRef
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
from retrieval.coverage import one_line_sample
from retrieval.mentions import LEGAL_SUFFIXES, company_mentions, unrecognised_peers
from retrieval.store import GridCell
from signatures.planner import Facets

ANNUAL_DOC_TYPES = frozenset({"10-K", "ANNUAL REPORT"})
#: Filings that report a whole period's statements; an earnings release or an 8-K reports
#: part of one, so it is never the period a question naming none is answered for.
PERIODIC_DOC_TYPES = ANNUAL_DOC_TYPES | {"10-Q"}


@dataclass
class PrePass(Periods):
    """What the regular expressions found in the question: its periods, and its companies."""

    tickers: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)

    @property
    def found_period(self) -> bool:
        return bool(self.fiscal_years or self.last_n_years or self.since_fy)


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
        since_fy=since,
        granularity=granularity,
        trend=pre.trend or llm.trend,
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
    equities = [
        e
        for e in llm.equities
        if len(e) <= 60
        and (
            (_squash(e) and _squash(e) in squashed)
            or any(_squash(w) in squashed for w in re.findall(r"[A-Za-z0-9&]{3,}", e))
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
        return max(own, key=lambda c: _position(c.fy, c.fq))
    fy = latest_full_fy(ticker, cells)
    held = [c for c in cells if c.ticker == ticker and c.fy == fy]
    return max(held, key=lambda c: c.fq, default=None)


def names_no_period(facets: Facets) -> bool:
    """Whether the question gave no year, quarter, range or "last N years"."""
    return not (
        facets.fiscal_years
        or facets.fiscal_quarters
        or facets.last_n_years
        or facets.since_fy is not None
        or facets.granularity == "deep"
    )


def full_fys(ticker: str, cells: Sequence[GridCell]) -> list[int]:
    """FYs with an annual filing for ``ticker``, newest first."""
    own = {c.fy for c in cells if c.ticker == ticker and c.fq == 4}
    own |= {c.fy for c in cells if c.ticker == ticker and ANNUAL_DOC_TYPES & set(c.doc_types)}
    return sorted(own, reverse=True)


@dataclass
class SlicePlan:
    """The rules' output: slices to research, cells asked for but not held, and notes.

    ``scope`` holds the lines a report shows about how the periods asked for were mapped
    to the grid (a default period, a neighbouring cell used instead of a missing one).
    ``compared`` holds the slices added only for a trend question's prior period.
    """

    slices: list[SliceRef]
    missing: list[str]
    notes: list[str]
    scope: list[str] = field(default_factory=list)
    compared: list[SliceRef] = field(default_factory=list)


def _position(fy: int, fq: int) -> int:
    return fy * 4 + fq


#: How far a stand-in may be from the cell asked for: two fiscal years, in quarters. Past
#: that, another period's filing answers a different question, so the plan says so instead.
MAX_STAND_IN_DISTANCE = 8


def nearest_cell(ticker: str, fy: int, fq: int, cells: Sequence[GridCell]) -> GridCell | None:
    """The held cell of ``ticker`` that best stands in for ``(fy, fq)``, if one is near.

    A quarter the grid lacks is looked for first in its FY's annual filing (Q4 cell); an FY
    in the annual filings nearest in time; otherwise the nearest cell of any kind. Ties go
    to the later cell: a filing reports its prior periods as comparatives, never the next.
    None when nothing lies within :data:`MAX_STAND_IN_DISTANCE` quarters.
    """
    own = [c for c in cells if c.ticker == ticker]
    if not own:
        return None
    if fq != 4:
        annual = [c for c in own if c.fy == fy and c.fq == 4]
        if annual:
            return annual[0]
    target = _position(fy, fq)
    near = [c for c in own if abs(_position(c.fy, c.fq) - target) <= MAX_STAND_IN_DISTANCE]
    pool = [c for c in near if c.fq == 4] if fq == 4 else []
    pool = pool or near  # an FY with no annual filing near: the nearest quarter held
    if not pool:
        return None
    return min(pool, key=lambda c: (abs(_position(c.fy, c.fq) - target), -_position(c.fy, c.fq)))


def _stand_in_reason(asked: SliceRef, used: GridCell) -> str:
    if used.fy == asked.fy and used.fq == 4:
        return (
            f"{asked.label} is not in the grid; researched {used.ticker} FY{used.fy} Q4 (the "
            f"fiscal year's annual filing) instead, which states quarterly or half-year "
            f"figures only sometimes"
        )
    return (
        f"{asked.label} is not in the grid; researched {used.ticker} FY{used.fy} Q{used.fq}, "
        f"the nearest period held, instead"
    )


def _years_for(
    ticker: str, facets: Facets, cells: Sequence[GridCell], scope: list[str]
) -> list[int]:
    """The fiscal years to research for ``ticker``; a default it applies is told in
    ``scope`` (the report's Scope lines), so no period is chosen silently."""
    deep = facets.granularity == "deep"
    if facets.since_fy is not None:
        held_since = [y for y in full_fys(ticker, cells) if y >= facets.since_fy]
        return sorted(held_since) or [facets.since_fy]
    if facets.fiscal_years:
        return sorted(set(facets.fiscal_years))
    if facets.last_n_years:
        years = sorted(full_fys(ticker, cells)[: facets.last_n_years])
        if len(years) < facets.last_n_years:
            scope.append(
                f"{ticker}: the grid holds {len(years)} full fiscal year(s), "
                f"not the {facets.last_n_years} asked for"
            )
        return years
    if facets.fiscal_quarters and not deep:
        # A quarter with no year: the latest FY that holds one of those quarters.
        with_q = [c.fy for c in cells if c.ticker == ticker and c.fq in facets.fiscal_quarters]
        latest = max(with_q, default=latest_full_fy(ticker, cells))
        if latest is None:
            return []
        scope.append(f"{ticker}: no fiscal year given, so FY{latest} was used")
        return [latest]
    latest = latest_full_fy(ticker, cells)  # a deep dive naming no year, or no cell held
    if latest is None:
        return []
    scope.append(f"{ticker}: no fiscal year given, so FY{latest} was used")
    return [latest]


def plan_slices(facets: Facets, cells: Sequence[GridCell]) -> SlicePlan:
    """Apply the planner rules to validated facets (``facets.tickers`` all in the grid)."""
    held = {(c.ticker, c.fy, c.fq) for c in cells}
    slices: list[SliceRef] = []
    missing: list[str] = []
    scope: list[str] = []
    added_for_trend: list[SliceRef] = []
    deep = facets.granularity == "deep"

    def add(ref: SliceRef) -> None:
        if ref not in slices:
            slices.append(ref)

    for ticker in dict.fromkeys(facets.tickers):
        if facets.fiscal_quarters:
            quarters = sorted(set(facets.fiscal_quarters))
        elif deep:
            quarters = [1, 2, 3, 4]
        else:
            quarters = [4]
        latest = latest_periodic_cell(ticker, cells) if names_no_period(facets) else None
        if latest is not None:
            # No period named: the latest filing that reports one, a 10-Q when it is newer
            # than the last 10-K; said in a Scope line, so no period is chosen silently.
            years, quarters = [latest.fy], [latest.fq]
            scope.append(
                f"{ticker}: no period given, so the latest period in the grid "
                f"(FY{latest.fy} Q{latest.fq}, {'/'.join(latest.doc_types)}) was used"
            )
        else:
            years = _years_for(ticker, facets, cells, scope)
        compared: set[int] = set()
        single = len(years) == 1 and (len(quarters) <= 1 and not deep)
        if facets.trend and single and facets.since_fy is None:
            compared = {years[0] - 1}  # the prior period, for the change and its direction
            years = sorted({*years, *compared})
        for fy in years:
            for fq in quarters:
                ref = SliceRef(ticker=ticker, fy=fy, fq=fq)
                if (ticker, fy, fq) in held:
                    add(ref)
                    continue
                if fy in compared:
                    note = (
                        f"{ref.label} is not in the grid; its figures come from the "
                        f"comparative columns of FY{fy + 1}'s filing"
                    )
                    if note not in scope:
                        scope.append(note)
                    continue
                # One quarter of a deep dive that is absent is reported: its neighbours are
                # the other quarters of the dive.
                stand_in = None if deep else nearest_cell(ticker, fy, fq, cells)
                asked = {(y, q) for y in years for q in quarters}
                if stand_in is None or (stand_in.fy, stand_in.fq) in asked:
                    # Nothing near, or the neighbour is researched already as a period asked
                    # for (a range partly held): reported, not researched twice.
                    if ref.label not in missing:
                        missing.append(ref.label)
                    continue
                used = SliceRef(ticker=ticker, fy=stand_in.fy, fq=stand_in.fq)
                reason = _stand_in_reason(ref, stand_in)
                if reason not in scope:
                    scope.append(reason)
                add(used)
        own = [s for s in slices if s.ticker == ticker]
        if any(s.fy not in compared for s in own):  # else the prior period is all there is
            added_for_trend += [s for s in own if s.fy in compared]
    notes = list(scope)
    if facets.trend and any(
        len({s.fy for s in slices if s.ticker == t}) > 1 for t in facets.tickers
    ):
        notes.append("a trend question: the prior fiscal year was added for the comparison")
    return SlicePlan(
        slices=slices, missing=missing, notes=notes, scope=scope, compared=added_for_trend
    )


def nearest_cells_text(
    tickers: Sequence[str], cells: Sequence[GridCell], around: int | None = None, limit: int = 6
) -> str:
    """A short list of what the grid holds for ``tickers``, nearest to FY ``around`` first
    (newest first without one), for messages that must stay a line long."""
    labels = []
    for ticker in tickers:
        own = sorted(
            (c for c in cells if c.ticker == ticker),
            key=lambda c: (abs(c.fy - around) if around else 0, -c.fy, -c.fq),
        )
        labels += [f"{c.ticker} FY{c.fy}" + ("" if c.fq == 4 else f" Q{c.fq}") for c in own]
    shown = ", ".join(labels[:limit])
    return shown + (f" and {len(labels) - limit} more" if len(labels) > limit else "")


def companies_text(cells: Sequence[GridCell], limit: int = 8) -> str:
    """``3M (MMM), PepsiCo (PEP), … and 24 more``: a one-line sample of the grid's companies."""
    names = sorted({(c.company, c.ticker) for c in cells})
    return one_line_sample([f"{name} ({ticker})" for name, ticker in names], limit)
