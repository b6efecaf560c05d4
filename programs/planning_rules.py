"""The slice planner's deterministic half: a pre-pass over the question, and the spec's rules.

The pre-pass finds what a regular expression can be sure of (tickers and company names the
grid or the company map knows, by ``retrieval.mentions``; FY and quarter expressions and
"last three years", by ``retrieval.periods``); the LLM's facets complement it. The rules
then turn facets into slices:

1. no fiscal year -> the latest full FY the grid holds for that ticker;
2. no quarter -> the quarter a dated event falls in ("on May 26, 2023" -> Q2), else Q4
   (the FY-level cell); granularity "deep" -> Q1..Q4;
3. slices = tickers x FY x FQ, de-duplicated, in a stable order;
4. cells the grid does not hold are reported, never silently dropped.

Everything here is a pure function of its inputs, so the rules are property-tested.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from citations.daggers import SliceRef
from retrieval.companies import Company
from retrieval.mentions import company_mentions
from retrieval.periods import MAX_FY, MIN_FY, Periods, read_periods, speaks_of_quarters
from retrieval.store import GridCell
from signatures.planner import Facets

ANNUAL_DOC_TYPES = frozenset({"10-K", "ANNUAL REPORT"})


@dataclass
class PrePass(Periods):
    """What the regular expressions found in the question: its periods, and its companies."""

    tickers: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)

    @property
    def found_period(self) -> bool:
        return bool(self.fiscal_years or self.last_n_years or self.since_fy)


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

    return found


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
    if not speaks_of_quarters(question):  # quarters nobody asked for ("FY2020 to FY2022" -> Q3)
        granularity = None if granularity == "deep" else granularity
        quarters = []
    return llm.model_copy(
        update={
            "tickers": tickers,
            "equities": equities,
            "granularity": granularity,
            "fiscal_quarters": quarters,
        }
    )


def latest_full_fy(ticker: str, cells: Sequence[GridCell]) -> int | None:
    """The latest FY with an annual filing (10-K) for ``ticker``; else its latest FY at all."""
    own = [c for c in cells if c.ticker == ticker]
    annual = [c.fy for c in own if c.fq == 4 and ANNUAL_DOC_TYPES & set(c.doc_types)]
    if annual:
        return max(annual)
    return max((c.fy for c in own), default=None)


def full_fys(ticker: str, cells: Sequence[GridCell]) -> list[int]:
    """FYs with an annual filing for ``ticker``, newest first."""
    own = {c.fy for c in cells if c.ticker == ticker and c.fq == 4}
    own |= {c.fy for c in cells if c.ticker == ticker and ANNUAL_DOC_TYPES & set(c.doc_types)}
    return sorted(own, reverse=True)


@dataclass
class SlicePlan:
    """The rules' output: slices to research, cells asked for but not held, and notes."""

    slices: list[SliceRef]
    missing: list[str]
    notes: list[str]


def plan_slices(facets: Facets, cells: Sequence[GridCell]) -> SlicePlan:
    """Apply the planner rules to validated facets (``facets.tickers`` all in the grid)."""
    held = {(c.ticker, c.fy, c.fq) for c in cells}
    slices: list[SliceRef] = []
    missing: list[str] = []
    notes: list[str] = []
    deep = facets.granularity == "deep"
    for ticker in dict.fromkeys(facets.tickers):
        if facets.since_fy is not None:
            held_since = [y for y in full_fys(ticker, cells) if y >= facets.since_fy]
            years = sorted(held_since) or [facets.since_fy]
        elif facets.fiscal_years:
            years = sorted(set(facets.fiscal_years))
        elif facets.last_n_years:
            years = sorted(full_fys(ticker, cells)[: facets.last_n_years])
            if len(years) < facets.last_n_years:
                notes.append(
                    f"{ticker}: the grid holds {len(years)} full fiscal year(s), "
                    f"not the {facets.last_n_years} asked for"
                )
        elif facets.fiscal_quarters and not deep:
            # A quarter with no year: the latest FY that holds one of those quarters.
            with_q = [c.fy for c in cells if c.ticker == ticker and c.fq in facets.fiscal_quarters]
            latest = max(with_q, default=latest_full_fy(ticker, cells))
            years = [latest] if latest is not None else []
            if latest is not None:
                notes.append(f"{ticker}: no fiscal year given, using FY{latest}")
        else:
            latest = latest_full_fy(ticker, cells)
            years = [latest] if latest is not None else []
            if latest is not None:
                notes.append(f"{ticker}: no fiscal year given, using the latest full FY{latest}")
        if facets.fiscal_quarters:
            quarters = sorted(set(facets.fiscal_quarters))
        elif deep:
            quarters = [1, 2, 3, 4]
        else:
            quarters = [4]
        for fy in years:
            for fq in quarters:
                ref = SliceRef(ticker=ticker, fy=fy, fq=fq)
                if (ticker, fy, fq) in held:
                    if ref not in slices:
                        slices.append(ref)
                elif ref.label not in missing:
                    missing.append(ref.label)
    return SlicePlan(slices=slices, missing=missing, notes=notes)


def coverage_text(cells: Sequence[GridCell]) -> str:
    """``KO (Coca-Cola): FY2019, FY2020; MMM (3M): …`` for messages to the user."""
    from retrieval.coverage import describe_coverage

    names = {c.ticker: c.company for c in cells}
    return "; ".join(
        f"{t} ({names[t]}): {', '.join(labels)}"
        for t, labels in sorted(describe_coverage(list(cells)).items())
    )
