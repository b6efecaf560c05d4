"""The slice planner's rules: merged facets (:mod:`programs.planning_facets`) into slices.

1. no period at all -> the latest period the grid holds for that ticker in a 10-K or 10-Q
   (a Scope line says which); a quarter with no year -> the latest FY holding it; a year
   otherwise missing -> the latest full FY;
2. no quarter -> the quarter a dated event falls in ("on May 26, 2023" -> Q2), else Q4
   (the FY-level cell); granularity "deep" -> Q1..Q4;
3. a trend question ("improving", "year over year") adds the prior fiscal year's period; a
   sequential one ("quarter over quarter") the quarter before, where that quarter is filed
   alone (not a first quarter's, whose predecessor is the annual filing); "the last four
   quarters" -> the quarters held alone among the four back from the latest filed (a fourth
   quarter is the annual filing, whose figures are the year's: said, not researched);
   "YTD 2023" -> the quarter of the year's latest 10-Q, 10-K or earnings release held;
   "last year", "the year before last" and "TTM" count from the latest annual filing, and
   "last quarter" is a run of one (each resolved in :mod:`programs.latest_periods`);
4. slices = tickers x FY x FQ, de-duplicated, in a stable order;
5. a cell the grid does not hold never fails a run: the nearest cell that holds the
   company's filings is researched instead (the FY's annual filing for a quarter, else the
   closest period), and a Scope line says which and why; a deep or trend request's
   missing quarters and a comparison period that is absent are reported, not substituted,
   as is a quarter asked beside the same quarter of a later year held (that filing's
   comparative columns print it).

Everything here is a pure function of its inputs, so the rules are property-tested.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from domain.cells import SliceRef
from domain.fiscal_calendar import in_comparative_columns
from domain.periods import one_fiscal_period
from programs.latest_periods import (
    counted_back,
    full_fys,
    latest_full_fy,
    latest_periodic_cell,
    position,
    recent_quarters,
    trailing_year,
    year_to_date_quarter,
)
from retrieval.coverage import one_line_sample
from retrieval.store import GridCell
from signatures.planner import Facets


def names_no_period(facets: Facets) -> bool:
    """Whether the question gave no year, quarter, range or "last N years"."""
    return not (
        facets.fiscal_years
        or facets.fiscal_quarters
        or facets.last_n_years
        or facets.last_n_quarters
        or facets.years_back
        or facets.trailing
        or facets.since_fy is not None
        or facets.granularity == "deep"
    )


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


#: How far a stand-in may be from the cell asked for: two fiscal years, in quarters. Past
#: that, another period's filing answers a different question, so the plan says so instead.
MAX_STAND_IN_DISTANCE = 8


def takes_context_period(facets: Facets) -> bool:
    """Whether the run's period places the question: it names no period, or only a count of
    years ("the past three years", "historically"), which then ends in the run's year."""
    counts_only = names_no_period(facets.model_copy(update={"last_n_years": None}))
    return names_no_period(facets) or bool(facets.last_n_years and counts_only)


def with_context_period(facets: Facets, period: str) -> tuple[Facets, str]:
    """A question placed by the period of the filing it is asked of ("FY2023 Q2", "FY2022";
    :func:`takes_context_period`): the facets with that period, and the Scope line that says
    so. FinanceBench asks each question of one filing; "What drove the change?" asked of
    Amcor's Q2 FY2023 10-Q is about that quarter, not the latest filing, and "the past three
    years" asked of a FY2022 10-K are FY2020-FY2022. Raises ``ValueError`` for a period that
    is not one fiscal year (and at most one quarter)."""
    try:
        fy, fq = one_fiscal_period(period)
    except ValueError as exc:
        raise ValueError(f"the run's period {period!r} is {exc}") from None
    label = f"FY{fy}" + (f" Q{fq}" if fq else "")
    if facets.last_n_years:
        years = list(range(fy - facets.last_n_years + 1, fy + 1))
        line = f"the {len(years)} years asked for end in the run's period, {label}"
        update = {"fiscal_years": years, "fiscal_quarters": [], "last_n_years": None}
        return facets.model_copy(update=update), line
    quarters = [fq] if fq else []
    line = f"the question names no period; read as the run's period, {label}"
    return facets.model_copy(update={"fiscal_years": [fy], "fiscal_quarters": quarters}), line


def nearest_cell(
    ticker: str, fy: int, fq: int, cells: Sequence[GridCell], ahead: bool = False
) -> GridCell | None:
    """The held cell of ``ticker`` that best stands in for ``(fy, fq)``, if one is near.

    Asked what was expected of the period (``ahead``), the latest held cell from before it
    began: the guidance for Intel's Q2 FY2023 is in its Q1 release (the year's Q4 filing
    reports what happened instead), and a year's outlook in the year before's annual
    filing or release (J&J's FY2023 guidance, in its FY2022 Q4 release). Otherwise a
    quarter the grid lacks is looked for first in its FY's annual filing (Q4 cell); an FY
    in the annual filings nearest in time; otherwise the nearest cell of any kind. Ties go
    to the later cell: a filing reports its prior periods as comparatives, never the next.
    None when nothing lies within :data:`MAX_STAND_IN_DISTANCE` quarters.
    """
    own = [c for c in cells if c.ticker == ticker]
    if not own:
        return None
    target = position(fy, fq)
    if ahead:
        began = position(fy - 1, 4) if fq == 4 else target - 1  # the last cell before it
        earliest = target - MAX_STAND_IN_DISTANCE
        before = [c for c in own if earliest <= position(c.fy, c.fq) <= began]
        if before:
            return max(before, key=lambda c: position(c.fy, c.fq))
    if fq != 4:
        annual = [c for c in own if c.fy == fy and c.fq == 4]
        if annual:
            return annual[0]
    near = [c for c in own if abs(position(c.fy, c.fq) - target) <= MAX_STAND_IN_DISTANCE]
    pool = [c for c in near if c.fq == 4] if fq == 4 else []
    pool = pool or near  # an FY with no annual filing near: the nearest quarter held
    if not pool:
        return None
    return min(pool, key=lambda c: (abs(position(c.fy, c.fq) - target), -position(c.fy, c.fq)))


def _stand_in_reason(asked: SliceRef, used: GridCell, ahead: bool = False) -> str:
    if ahead and position(used.fy, used.fq) < position(asked.fy, asked.fq):
        return (
            f"{asked.label} is not in the grid; researched {used.ticker} FY{used.fy} "
            f"Q{used.fq}, the latest filing before it, where an outlook for it would be given"
        )
    if asked.fq == used.fq == 4 and in_comparative_columns(asked.fy, used.fy):
        return (
            f"{asked.label} is not in the grid; researched {used.ticker} FY{used.fy} Q4, whose "
            f"annual filing reports FY{asked.fy} beside its own"
        )
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
    if facets.years_back:
        return counted_back(ticker, facets.years_back, cells, scope)
    if facets.trailing:
        return trailing_year(ticker, cells, scope)
    if facets.last_n_years:
        years = sorted(full_fys(ticker, cells)[: facets.last_n_years])
        if len(years) < facets.last_n_years:
            scope.append(
                f"{ticker}: the grid holds {len(years)} full fiscal year(s), "
                f"not the {facets.last_n_years} asked for"
            )
        elif years:  # each company's own latest years, which may differ between companies
            scope.append(
                f"{ticker}: the last {len(years)} fiscal years the grid holds: "
                + ", ".join(f"FY{y}" for y in years)
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


def _prior_period(
    ticker: str, fy: int, fq: int, sequential: bool
) -> tuple[tuple[int, int] | None, str | None]:
    """The period a trend in ``(fy, fq)`` moves from: the year-ago period, or with
    ``sequential`` the quarter before. A first quarter's sequential move is from a fourth
    quarter, which the grid holds as the year's annual filing: its figures are the year's,
    so no prior period is added and a Scope line says why (an annual figure beside a
    quarter's would be a wrong change)."""
    if not sequential:
        return (fy - 1, fq), None
    if fq == 4:
        return None, (
            f"{ticker}: a sequential change needs a fourth quarter alone, which the annual "
            f"filing of FY{fy} states only sometimes; the year is researched as filed"
        )
    if fq == 1:
        return None, (
            f"{ticker}: the quarter before FY{fy} Q1 is FY{fy - 1}'s fourth, filed in the "
            "annual report, whose figures are the year's: no sequential change is computed"
        )
    return (fy, fq - 1), None


def _drop_unmatched_priors(
    ticker: str, compared: set[tuple[int, int]], sequential: bool, slices: list[SliceRef]
) -> None:
    """Leave out of ``slices`` a prior period whose period asked was stood in for by another
    cell: beside FY2022 Q2 researched for a missing FY2023 Q1, FY2022 Q1 would compare two
    other quarters. A prior that is all the company has stays (it is then no comparison)."""
    held = {(s.fy, s.fq) for s in slices if s.ticker == ticker}
    for fy, fq in sorted(compared):
        later = (fy, fq + 1) if sequential else (fy + 1, fq)
        prior = SliceRef(ticker=ticker, fy=fy, fq=fq)
        if later not in held and prior in slices and len(held) > 1:
            slices.remove(prior)
            held.discard((fy, fq))


def _absent_prior_reason(ref: SliceRef, sequential: bool, later_held: bool = True) -> str:
    """The Scope line for a prior period the grid lacks: a year-ago period is printed in the
    later filing's comparative columns, when the grid holds that filing; the quarter before
    is printed in no later filing."""
    if sequential:
        return (
            f"{ref.label} is not in the grid, and no later quarter's filing reports it: "
            "the sequential change is not computed"
        )
    later = f"FY{ref.fy + 1}" if ref.fq == 4 else f"FY{ref.fy + 1} Q{ref.fq}"
    if not later_held:
        # "Is revenue growth expected to accelerate in 2024?" with neither FY2024 nor FY2023
        # held: no filing in the grid prints the prior year beside the year asked.
        return f"{ref.label} is not in the grid, nor is {later}'s filing: no change is computed"
    return (
        f"{ref.label} is not in the grid; its figures come from the "
        f"comparative columns of {later}'s filing"
    )


def _compared_quarter(
    ticker: str, quarter: tuple[int, int], sequential: bool, held: set[tuple[str, int, int]]
) -> tuple[list[tuple[int, int]], str | None]:
    """ "Last quarter" in a trend question: the period it moves from, when the grid holds
    it; else none, and the Scope line that says why."""
    prior, note = _prior_period(ticker, *quarter, sequential)
    if prior is None:
        return [], note
    if (ticker, *prior) in held:
        return [prior], None
    return [], _absent_prior_reason(SliceRef(ticker=ticker, fy=prior[0], fq=prior[1]), sequential)


def _all_years_absent(
    ticker: str, asked: Sequence[tuple[int, int]], held: set[tuple[str, int, int]]
) -> bool:
    """Whether every period asked is a fiscal year the grid lacks: FedEx's FY2022 "compared
    with FY2021", where only its FY2023 10-K is held, which prints both years beside its
    own (:func:`programs.figure_periods.asked_period` reads them there)."""
    return all(fq == 4 and (ticker, fy, fq) not in held for fy, fq in asked)


def plan_slices(
    facets: Facets,
    cells: Sequence[GridCell],
    pairs: Sequence[tuple[int, int]] = (),
    ahead: bool = False,
) -> SlicePlan:
    """Apply the planner rules to validated facets (``facets.tickers`` all in the grid).
    ``pairs``: the cells the question names quarter by quarter, each with its own year
    (:func:`domain.quarter_pairs.paired_cells`); they are the cells asked, not every year
    with every quarter. ``ahead``: the question asks what was expected of its period
    (:func:`programs.question.looks_ahead`), so a missing cell is stood in for by the
    filing before it."""
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
        if facets.last_n_quarters:
            # A run of quarters is its own comparison: no prior period is added, except to a
            # run of one ("last quarter") that a trend question asks about.
            run, lines, absent = recent_quarters(ticker, facets.last_n_quarters, cells)
            if facets.trend and len(run) == 1 and facets.last_n_quarters == 1:
                priors, note = _compared_quarter(ticker, run[0], facets.sequential, held)
                run = [*priors, *run]
                added_for_trend += [SliceRef(ticker=ticker, fy=fy, fq=fq) for fy, fq in priors]
                lines = [*lines, note] if note else lines
            for fy, fq in run:
                add(SliceRef(ticker=ticker, fy=fy, fq=fq))
            scope += [line for line in lines if line not in scope]
            missing += [label for label in absent if label not in missing]
            continue
        if facets.trailing and (facets.fiscal_years or facets.fiscal_quarters):
            scope.append(
                f"{ticker}: the trailing twelve months are not summed from quarters; the "
                "period named is researched as filed"
            )
        # "YTD 2023": the year so far, at its latest filing's quarter (no quarter asked).
        to_date = bool(
            facets.year_to_date and facets.fiscal_years and not facets.fiscal_quarters and not deep
        )
        if facets.fiscal_quarters:
            quarters = sorted(set(facets.fiscal_quarters))
        elif deep:
            quarters = [1, 2, 3, 4]
        elif to_date:
            quarters = [year_to_date_quarter(ticker, max(facets.fiscal_years), cells, scope)]
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
        compared: set[tuple[int, int]] = set()
        single = len(years) == 1 and (len(quarters) <= 1 and not deep)
        if facets.trend and single and facets.since_fy is None:
            # The prior period, for the change and its direction.
            prior, note = _prior_period(ticker, years[0], quarters[0], facets.sequential)
            compared = {prior} if prior else set()
            if note and note not in scope:
                scope.append(note)
        crossed = {(fy, fq) for fy in years for fq in quarters}
        asked = sorted((set(pairs) if pairs and latest is None else crossed) | compared)
        for fy, fq in asked:
            ref = SliceRef(ticker=ticker, fy=fy, fq=fq)
            if (ticker, fy, fq) in held:
                add(ref)
                continue
            # An earlier year's year to date, or quarter, is printed beside the later one's in
            # its filing's comparative columns: an annual filing standing in for it would
            # compare a whole year with a quarter.
            year_ago = fq != 4 and (fy + 1, fq) in asked and (ticker, fy + 1, fq) in held
            if (fy, fq) in compared or (to_date and fy < max(years)) or year_ago:
                later_held = facets.sequential or (ticker, fy + 1, fq) in held
                note = _absent_prior_reason(ref, facets.sequential and not year_ago, later_held)
                if note not in scope:
                    scope.append(note)
                continue
            # One quarter of a deep dive that is absent is reported: its neighbours are
            # the other quarters of the dive. So is one of several periods a question sets
            # side by side: Q2 FY2024 standing in for Q3 beside Q3 FY2023 compares another
            # pair of quarters than the one asked (Salesforce's growth came back as 5.04%).
            # Years none of which is held are not: a later annual filing prints them all.
            side_by_side = len(set(asked) - compared) > 1 and not _all_years_absent(
                ticker, asked, held
            )
            stand_in = None if deep or side_by_side else nearest_cell(ticker, fy, fq, cells, ahead)
            if stand_in is None or (stand_in.fy, stand_in.fq) in asked:
                # Nothing near, or the neighbour is researched already as a period asked
                # for (a range partly held): reported, not researched twice.
                if ref.label not in missing:
                    missing.append(ref.label)
                continue
            used = SliceRef(ticker=ticker, fy=stand_in.fy, fq=stand_in.fq)
            reason = _stand_in_reason(ref, stand_in, ahead)
            if reason not in scope:
                scope.append(reason)
            add(used)
        _drop_unmatched_priors(ticker, compared, facets.sequential, slices)
        own = [s for s in slices if s.ticker == ticker]
        if any((s.fy, s.fq) not in compared for s in own):  # else the prior is all there is
            added_for_trend += [s for s in own if (s.fy, s.fq) in compared]
    notes = list(scope)
    if added_for_trend:
        added = "quarter" if facets.sequential else "fiscal year"
        notes.append(f"a trend question: the prior {added} was added for the comparison")
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
