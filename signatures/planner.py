"""SlicePlanner signatures and the plan it hands to the rest of the program.

The LLM only reads the question (facets) and maps company names to tickers; the rules that
turn facets into ``{ticker, FY, FQ}`` slices are deterministic code (``programs.planner``),
so a plan can be checked, tested and explained without another model call.
"""

from __future__ import annotations

from typing import Literal

import dspy
from pydantic import BaseModel, Field

from domain.cells import SliceRef

Granularity = Literal["deep", "FY"] | None


class Facets(BaseModel):
    """What a question asks about, before any grid lookup."""

    tickers: list[str] = Field(default_factory=list)
    equities: list[str] = Field(default_factory=list, description="company names as written")
    fiscal_years: list[int] = Field(default_factory=list)
    fiscal_quarters: list[int] = Field(default_factory=list)
    last_n_years: int | None = Field(default=None, description="'last three years' -> 3")
    since_fy: int | None = Field(default=None, description="'since 2019' -> 2019 (read by rules)")
    last_n_quarters: int | None = Field(
        default=None, description="'the last four quarters' -> 4 (read by rules)"
    )
    years_back: list[int] = Field(
        default_factory=list,
        description="'last year' -> [0], 'the year before last' -> [1] (read by rules)",
    )
    trailing: bool = Field(
        default=False, description="'TTM': read as the latest annual year (read by rules)"
    )
    year_to_date: bool = Field(
        default=False, description="'YTD 2023': the year's latest filing (read by rules)"
    )
    granularity: Granularity = None
    trend: bool = Field(
        default=False, description="asks how something moved: the prior period is added (rules)"
    )
    sequential: bool = Field(
        default=False, description="the move is from the quarter before: it is added (rules)"
    )


class ResearchPlan(BaseModel):
    """The slices to research, and everything the user should hear about the request."""

    question: str
    slices: list[SliceRef] = Field(default_factory=list)
    unknown: list[str] = Field(
        default_factory=list, description="names or tickers the grid does not hold, as messages"
    )
    missing: list[str] = Field(
        default_factory=list, description="requested cells the grid does not hold"
    )
    notes: list[str] = Field(default_factory=list, description="defaults applied, for the user")
    scope: list[str] = Field(
        default_factory=list,
        description="how the periods asked for map to cells: defaults, neighbours used instead",
    )
    facets: Facets = Field(default_factory=Facets)
    compared: list[SliceRef] = Field(
        default_factory=list,
        description="slices added only for a trend question's prior period: they give figures",
    )

    @property
    def labels(self) -> list[str]:
        return [s.label for s in self.slices]

    def user_notes(self) -> list[str]:
        """The lines a report should show so nothing asked for disappears silently."""
        lines = list(self.unknown) + list(self.scope)
        if self.missing:
            lines.append("Not in the grid, so not researched: " + ", ".join(self.missing) + ".")
        return lines


class ExtractFacets(dspy.Signature):
    """Read an equity research question and list exactly what it asks about.

    You are the desk's research coordinator. Extract the facets literally present in the
    question; do not guess or add companies, years or quarters the user did not mention.

    - tickers: stock tickers written in the question (e.g. MMM, PEP), upper case.
    - equities: company names written in the question (e.g. "3M", "PepsiCo", "Coca-Cola"),
      as the user wrote them; include names you cannot map to a ticker.
    - fiscal_years: explicit fiscal years as four-digit integers ("FY23" -> 2023,
      "fiscal 2022" -> 2022, "from FY2018 to FY2020" -> 2018, 2019, 2020).
    - fiscal_quarters: explicit quarters as integers 1-4 ("Q3 2023" -> 3).
    - last_n_years: for relative periods such as "last three years" give the count (3) and
      leave fiscal_years empty; the planner resolves it against the filings held. Otherwise null.
    - granularity: "deep" when the user wants quarter-by-quarter detail, "FY" when they
      explicitly want annual figures, null otherwise.
    """

    question: str = dspy.InputField(desc="the user's research question")
    grid_companies: str = dspy.InputField(desc="companies the filing grid holds, name (TICKER)")
    tickers: list[str] = dspy.OutputField()
    equities: list[str] = dspy.OutputField()
    fiscal_years: list[int] = dspy.OutputField()
    fiscal_quarters: list[int] = dspy.OutputField()
    last_n_years: int | None = dspy.OutputField()
    granularity: Literal["deep", "FY"] | None = dspy.OutputField()


class EquityToTicker(dspy.Signature):
    """Map one company name, as a user wrote it, to its stock ticker.

    Answer with a ticker from the known companies list only when you are sure it is the same
    company (brands and former names count: "Pepsi" -> PEP). If the company is not in the
    list, answer UNKNOWN; never invent a ticker.
    """

    equity: str = dspy.InputField(desc="a company name from the question")
    known_companies: str = dspy.InputField(desc="one 'name (TICKER)' per line")
    ticker: str = dspy.OutputField(desc="a ticker from the list, or UNKNOWN")


__all__ = ["EquityToTicker", "ExtractFacets", "Facets", "Granularity", "ResearchPlan", "SliceRef"]
