"""SlicePlanner: a question -> the ``{ticker, FY, FQ}`` slices to research.

Two LLM steps (``extract_facets``, ``equity_to_ticker``), both optimisable, wrapped by
deterministic code: a pre-pass that reads what regular expressions can be sure of, grid
validation, and the spec's gap-filling rules (``programs.planning_rules``). A name the grid
does not hold is reported in the plan; a question with nothing to research raises
:class:`PlanningError` with a message of at most three lines that names the nearest cells
the grid holds (never the whole grid, which runs to hundreds of cells).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import dspy

from domain.fiscal_calendar import DECEMBER_YEAR_END
from domain.quarter_pairs import paired_cells
from programs.errors import PlanningError
from programs.planning_facets import (
    UNRECOGNISED_PEER,
    PrePass,
    in_company_calendar,
    merge_facets,
    plausible_mapping,
    prepass,
)
from programs.planning_rules import (
    SlicePlan,
    companies_text,
    nearest_cells_text,
    plan_slices,
    takes_context_period,
    with_context_period,
)
from programs.question import clean_question, looks_ahead, question_too_long
from retrieval.companies import Company, load_companies
from retrieval.mentions import name_index, resolve_name
from retrieval.store import GridCell
from signatures.planner import EquityToTicker, ExtractFacets, Facets, ResearchPlan

logger = logging.getLogger(__name__)


class SlicePlanner(dspy.Module):
    """Plans slices; its two predictors are what an optimiser tunes."""

    def __init__(
        self,
        cells: Sequence[GridCell],
        companies: Sequence[Company] | None = None,
        max_slices: int = 16,
    ) -> None:
        super().__init__()
        self.extract_facets = dspy.Predict(ExtractFacets)
        self.equity_to_ticker = dspy.Predict(EquityToTicker)
        self.cells = list(cells)
        self.companies = tuple(companies) if companies is not None else load_companies()
        self.max_slices = max_slices

    # -- helpers ---------------------------------------------------------------------------
    def _grid_companies(self) -> str:
        names = {c.ticker: c.company for c in self.cells}
        return "\n".join(f"{name} ({ticker})" for ticker, name in sorted(names.items()))

    def _llm_facets(self, question: str) -> tuple[Facets | None, str | None]:
        try:
            out = self.extract_facets(question=question, grid_companies=self._grid_companies())
        except Exception as exc:  # the pre-pass still plans; the failure is recorded
            logger.warning("extract_facets failed: %s", exc)
            return None, f"facet extraction failed ({type(exc).__name__}); used the pre-pass"
        try:
            return Facets(
                tickers=[str(t) for t in out.tickers or []],
                equities=[str(e) for e in out.equities or []],
                fiscal_years=[int(y) for y in out.fiscal_years or []],
                fiscal_quarters=[int(q) for q in out.fiscal_quarters or []],
                last_n_years=out.last_n_years,
                granularity=out.granularity,
            ), None
        except (TypeError, ValueError) as exc:
            return None, f"facet extraction returned unusable values ({exc}); used the pre-pass"

    def _ticker_for(self, equity: str, index: dict[str, str]) -> str | None:
        """Map a name to a ticker: the company map first, then the LLM, validated."""
        if ticker := resolve_name(equity, index):
            return ticker
        known = "\n".join(f"{c.name} ({c.ticker})" for c in self.companies)
        try:
            raw = str(self.equity_to_ticker(equity=equity, known_companies=known).ticker)
        except Exception as exc:
            logger.warning("equity_to_ticker failed for %r: %s", equity, exc)
            return None
        ticker = raw.strip().upper().lstrip("$")
        return ticker if ticker and ticker != "UNKNOWN" else None

    def _plan_in_fiscal_calendars(
        self, question: str, pre: PrePass, facets: Facets
    ) -> tuple[SlicePlan, list[str]]:
        """The rules' slices, with a dated quarter read in each company's own fiscal
        calendar (:func:`in_company_calendar`), and the Scope lines that say so. Companies
        whose years end in different months are planned apart, each in its calendar:
        "the quarter ended November 30, 2022" is Nike's FY2023 Q2 and 3M's FY2022 Q4."""
        ahead = looks_ahead(question)
        if not pre.found_period:
            return plan_slices(facets, self.cells, ahead=ahead), []
        pairs = paired_cells(pre)
        if {fy for fy, _ in pairs} != set(facets.fiscal_years):
            pairs = []  # the facets' years are no longer the ones written in pairs
        year_ends = {c.ticker: c.fiscal_year_end for c in self.companies}
        groups: dict[str, list[str]] = {}
        for ticker in facets.tickers:
            groups.setdefault(year_ends.get(ticker, DECEMBER_YEAR_END), []).append(ticker)
        plans, scope = [], []
        for fiscal_year_end, tickers in groups.items():
            fiscal, lines = in_company_calendar(question, pre, tickers, fiscal_year_end)
            update: dict[str, object] = {"tickers": tickers}
            if lines:
                quarters = fiscal.fiscal_quarters or facets.fiscal_quarters
                update |= {"fiscal_years": fiscal.fiscal_years, "fiscal_quarters": quarters}
            calendar_pairs = paired_cells(fiscal) if lines else pairs
            plans.append(
                plan_slices(facets.model_copy(update=update), self.cells, calendar_pairs, ahead)
            )
            scope += lines
        if len(plans) == 1:
            return plans[0], scope
        merged = SlicePlan(slices=[], missing=[], notes=[])
        for plan in plans:
            for name in ("slices", "missing", "notes", "scope", "compared"):
                kept = getattr(merged, name)
                kept.extend(x for x in getattr(plan, name) if x not in kept)
        return merged, scope

    def _context_company(self, company: str, index: dict[str, str], grid: set[str]) -> str:
        """The grid ticker of the question's context company (a ticker or a name the company
        map knows); :class:`PlanningError` when the grid does not hold it."""
        given = company.strip()
        symbol = given.upper().lstrip("$")
        ticker = symbol if symbol in grid else resolve_name(given, index)
        if ticker is None or ticker not in grid:
            raise PlanningError(
                f"The question names no company, and its context company {given!r} is not in "
                f"the grid.\nAsk about one of: {companies_text(self.cells)}."
            )
        return ticker

    # -- the module ------------------------------------------------------------------------
    def forward(
        self, question: str, company: str | None = None, period: str | None = None
    ) -> ResearchPlan:
        """The plan of ``question``; ``company`` (a ticker or name) is the company it is
        about when it names none, and ``period`` ("FY2023 Q2", "FY2022") the period, as when
        a question is asked of one filing."""
        question = clean_question(question or "")
        if not self.cells:
            raise PlanningError("The grid is empty: run `research ingest PATH` first.")
        if not question:
            raise PlanningError(
                f"The question is empty. Ask about one of: {companies_text(self.cells)}."
            )
        if too_long := question_too_long(question):
            raise PlanningError(too_long)
        grid = {c.ticker for c in self.cells}
        known_names = {c.ticker: c.name for c in self.companies} | {
            c.ticker: c.company for c in self.cells
        }
        pre = prepass(question, self.companies, self.cells)
        if pre.invalid:
            held = (
                f"The grid holds {nearest_cells_text(pre.tickers, self.cells)}."
                if pre.tickers
                else f"Ask about one of: {companies_text(self.cells)}."
            )
            raise PlanningError(" ".join(pre.invalid) + "\n" + held)
        llm, failure = self._llm_facets(question)
        facets = merge_facets(pre, llm, question)
        unknown = list(pre.unknown)
        tickers: list[str] = []
        index = name_index(self.companies, self.cells)
        notes_dropped: list[str] = []
        for ticker in facets.tickers:
            alias = resolve_name(ticker, index)  # "3M" given as a ticker is MMM's name
            if ticker not in grid and alias in grid:
                ticker = alias
            if ticker in grid:
                tickers.append(ticker)
            elif not any(f"({ticker})" in u for u in unknown):
                unknown.append(f"{known_names.get(ticker, ticker)} ({ticker}) is not in the grid")
        for equity in facets.equities:
            ticker = self._ticker_for(equity, index)
            # The model's own mapping of a name beside companies the map found: kept only
            # when it is plausible ("Coke" is Coca-Cola; "Square" is not PepsiCo).
            by_model = pre.tickers and resolve_name(equity, index) is None and ticker in grid
            name = known_names.get(ticker, "")
            if by_model and not plausible_mapping(question, equity, ticker, name):
                notes_dropped.append(f"{equity!r} read as {ticker} by the model, not kept")
                continue
            if ticker in grid:
                tickers.append(ticker)
                # a peer name the map lacks that the model read as this company ("Coke")
                unknown = [u for u in unknown if u != f"{equity} {UNRECOGNISED_PEER}"]
            elif ticker is not None and any(f"({ticker})" in u for u in unknown):
                continue
            else:
                shown = f"{equity} ({ticker})" if ticker else equity
                message = f"{shown} is not in the grid"
                if message not in unknown and not any(u.startswith(equity) for u in unknown):
                    unknown.append(message)
        context: list[str] = []
        if company and not tickers and not unknown:  # a company the grid lacks is still named
            tickers = [self._context_company(company, index, grid)]
            context = [f"{tickers[0]}: the question names no company; read as the run's company"]
        facets = facets.model_copy(update={"tickers": list(dict.fromkeys(tickers))})
        if period and takes_context_period(facets):
            try:
                facets, line = with_context_period(facets, period)
            except ValueError as exc:
                raise PlanningError(str(exc)) from None
            context.append(line)
        notes = ([failure] if failure else []) + notes_dropped
        if not facets.tickers:
            lead = (" ".join(u + "." for u in unknown) + " ") if unknown else ""
            raise PlanningError(
                f"{lead}No company in the question is in the grid; name one, or give the "
                "company it is about (--company).\n"
                f"Ask about one of: {companies_text(self.cells)}."
            )
        planned, calendar = self._plan_in_fiscal_calendars(question, pre, facets)
        if not planned.slices:
            raise PlanningError(
                "None of the periods asked for are in the grid ("
                + ", ".join(planned.missing[:6])
                + (", …" if len(planned.missing) > 6 else "")
                + ").\nNearest held: "
                + nearest_cells_text(
                    facets.tickers, self.cells, around=max(facets.fiscal_years, default=None)
                )
                + "."
            )
        if len(planned.slices) > self.max_slices:
            raise PlanningError(
                f"The question asks for {len(planned.slices)} slices; the limit is "
                f"{self.max_slices}. Narrow the companies or periods."
            )
        return ResearchPlan(
            question=question,
            slices=planned.slices,
            unknown=unknown,
            missing=planned.missing,
            notes=notes + planned.notes,
            scope=context + calendar + planned.scope,
            facets=facets,
            compared=planned.compared,
        )
