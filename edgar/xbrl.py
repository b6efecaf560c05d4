"""XBRL company facts (``/api/xbrl/companyfacts``) as the grid's statement facts.

Why XBRL first: a filing's XBRL is the company's own tagged copy of its statements, so a
value, its period and its unit need no reading of table layout; the project's table
parser (``retrieval.facts``) stays the fallback for what XBRL does not give. Only us-gaap
tags whose meaning matches a project concept without judgement are mapped
(:data:`CONCEPT_TAGS`); the rest of the filing's XBRL is left out rather than guessed.

Company facts list every value a company ever filed; a value belongs to a filing by its
accession number (``accn``), and its ``fy``/``fp`` are that filing's fiscal focus, not the
value's own period. A value's period comes from its ``start``/``end`` dates, placed
against the filing's period end as ``retrieval.facts.fiscal`` places statement columns:
whole years back in an annual report, quarters back for a quarterly balance sheet.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any

from edgar.cells import Placement


@dataclass(frozen=True)
class ConceptTags:
    """A project concept, the statement it is printed on, and the us-gaap tags that are
    it, in order of preference (the first tag with a value for a period wins)."""

    concept: str
    statement: str
    tags: tuple[str, ...]
    sign: int = 1  # -1: XBRL reports an outflow positive; the statement prints it negative


#: us-gaap tag -> project concept, where the meaning is the same. Outflows the cash-flow
#: statement prints in parentheses (capex, dividends, buybacks) are negated so they read
#: as the table parser reads them ("signs as printed").
CONCEPT_TAGS: tuple[ConceptTags, ...] = (
    ConceptTags(
        "revenue",
        "income",
        (
            "Revenues",
            "RevenueFromContractWithCustomerExcludingAssessedTax",
            "RevenueFromContractWithCustomerIncludingAssessedTax",
            "SalesRevenueNet",
        ),
    ),
    ConceptTags(
        "cost_of_revenue",
        "income",
        ("CostOfRevenue", "CostOfGoodsAndServicesSold", "CostOfGoodsSold"),
    ),
    ConceptTags("gross_profit", "income", ("GrossProfit",)),
    ConceptTags("sga", "income", ("SellingGeneralAndAdministrativeExpense",)),
    ConceptTags("rnd", "income", ("ResearchAndDevelopmentExpense",)),
    ConceptTags("operating_income", "income", ("OperatingIncomeLoss",)),
    ConceptTags("interest_expense", "income", ("InterestExpense",)),
    ConceptTags(
        "pretax_income",
        "income",
        (
            "IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest",
            "IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments",
        ),
    ),
    ConceptTags("income_tax", "income", ("IncomeTaxExpenseBenefit",)),
    ConceptTags("net_income", "income", ("ProfitLoss", "NetIncomeLoss")),
    ConceptTags("net_income_attributable", "income", ("NetIncomeLoss",)),
    ConceptTags(
        "net_income_to_common", "income", ("NetIncomeLossAvailableToCommonStockholdersBasic",)
    ),
    ConceptTags("diluted_eps", "income", ("EarningsPerShareDiluted",)),
    ConceptTags("basic_eps", "income", ("EarningsPerShareBasic",)),
    ConceptTags("diluted_shares", "income", ("WeightedAverageNumberOfDilutedSharesOutstanding",)),
    ConceptTags("basic_shares", "income", ("WeightedAverageNumberOfSharesOutstandingBasic",)),
    ConceptTags(
        "dna",
        "cash_flow",
        ("DepreciationDepletionAndAmortization", "DepreciationAndAmortization"),
    ),
    ConceptTags("capex", "cash_flow", ("PaymentsToAcquirePropertyPlantAndEquipment",), -1),
    ConceptTags("cfo", "cash_flow", ("NetCashProvidedByUsedInOperatingActivities",)),
    ConceptTags("cfi", "cash_flow", ("NetCashProvidedByUsedInInvestingActivities",)),
    ConceptTags("cff", "cash_flow", ("NetCashProvidedByUsedInFinancingActivities",)),
    ConceptTags(
        "dividends_paid", "cash_flow", ("PaymentsOfDividends", "PaymentsOfDividendsCommonStock"), -1
    ),
    ConceptTags("buybacks", "cash_flow", ("PaymentsForRepurchaseOfCommonStock",), -1),
    ConceptTags("cash", "balance", ("CashAndCashEquivalentsAtCarryingValue",)),
    ConceptTags("receivables", "balance", ("AccountsReceivableNetCurrent",)),
    ConceptTags("inventory", "balance", ("InventoryNet",)),
    ConceptTags("current_assets", "balance", ("AssetsCurrent",)),
    ConceptTags("ppe_net", "balance", ("PropertyPlantAndEquipmentNet",)),
    ConceptTags("total_assets", "balance", ("Assets",)),
    ConceptTags("payables", "balance", ("AccountsPayableCurrent",)),
    ConceptTags("current_liabilities", "balance", ("LiabilitiesCurrent",)),
    ConceptTags("long_term_debt", "balance", ("LongTermDebtNoncurrent",)),
    ConceptTags("total_liabilities", "balance", ("Liabilities",)),
    ConceptTags("equity", "balance", ("StockholdersEquity",)),
    ConceptTags("retained_earnings", "balance", ("RetainedEarningsAccumulatedDeficit",)),
    ConceptTags(
        "total_equity",
        "balance",
        ("StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest",),
    ),
    ConceptTags("total_liabilities_and_equity", "balance", ("LiabilitiesAndStockholdersEquity",)),
)

#: XBRL unit -> the project's unit; values in other units (EUR, pure) are not taken.
UNITS = {"USD": "USD", "USD/shares": "USD/share", "shares": "shares"}
_TOLERANCE_DAYS = 20  # how far a date may sit from a whole number of years (or quarters)


@dataclass(frozen=True)
class XbrlFact:
    """One mapped XBRL value of one filing, placed in the fiscal calendar; not yet on a page."""

    concept: str
    statement: str
    tag: str  # "us-gaap:Revenues"
    label: str  # the tag's label in company facts
    fy: int
    fq: int | None
    duration: str  # "year" | "quarter" | "ytd" | "instant"
    start: str | None
    end: str
    value: float  # base units, signed as the statement prints it
    unit: str

    @property
    def key(self) -> tuple[str, int, int | None, str]:
        """What a table-parsed fact must share to be the same number."""
        return (self.concept, self.fy, self.fq, self.duration)

    @property
    def column(self) -> str:
        span = f"{self.start} to {self.end}" if self.start else f"as of {self.end}"
        return f"{span} (XBRL)"


def _entries(companyfacts: dict[str, Any], taxonomy: str = "us-gaap") -> Iterator[tuple]:
    """(tag, label, unit, entry) for every value of ``taxonomy`` in company facts."""
    facts = (companyfacts.get("facts") or {}).get(taxonomy) or {}
    for tag, body in facts.items():
        if not isinstance(body, dict):
            continue
        for unit, entries in (body.get("units") or {}).items():
            for entry in entries or []:
                if isinstance(entry, dict):
                    yield tag, str(body.get("label") or tag), unit, entry


def filing_focus(companyfacts: dict[str, Any] | None, accession: str) -> tuple[int, str] | None:
    """The filing's fiscal focus ``(fy, fp)`` as its XBRL values carry it; None without XBRL."""
    if not companyfacts:
        return None
    seen: Counter[tuple[int, str]] = Counter()
    for taxonomy in ("dei", "us-gaap"):
        for _tag, _label, _unit, entry in _entries(companyfacts, taxonomy):
            if entry.get("accn") == accession and entry.get("fp") and entry.get("fy"):
                try:
                    seen[(int(entry["fy"]), str(entry["fp"]).upper())] += 1
                except (TypeError, ValueError):
                    continue
    return seen.most_common(1)[0][0] if seen else None


def filing_period_end(companyfacts: dict[str, Any] | None, accession: str) -> str | None:
    """The latest ``end`` among the filing's own values: its period end, when the
    submissions index gives no report date."""
    if not companyfacts:
        return None
    ends = [
        str(entry.get("end"))
        for taxonomy in ("dei", "us-gaap")
        for _t, _l, _u, entry in _entries(companyfacts, taxonomy)
        if entry.get("accn") == accession and entry.get("end")
    ]
    return max(ends) if ends else None


def _duration(start: date | None, end: date) -> tuple[str, int] | None:
    """("instant", 0), ("year", 12), ("quarter", 3) or ("ytd", months); None for other spans."""
    if start is None:
        return "instant", 0
    days = (end - start).days
    for low, high, name, months in (
        (340, 380, "year", 12),
        (80, 100, "quarter", 3),
        (170, 190, "ytd", 6),
        (260, 285, "ytd", 9),
    ):
        if low <= days <= high:
            return name, months
    return None


def _whole(delta_days: int, unit_days: float) -> int | None:
    """``delta_days`` as a whole number of ``unit_days``, or None when it is not near one."""
    n = round(delta_days / unit_days)
    return n if n >= 0 and abs(delta_days - n * unit_days) <= _TOLERANCE_DAYS else None


def _place(
    start: date | None, end: date, doc_end: date, cell: Placement, annual: bool
) -> tuple[int, int | None, str] | None:
    """(fy, fq, duration) of a value in a filing of ``cell`` ending ``doc_end``; None when
    the value is of no period the grid's facts name (a quarter inside a 10-K)."""
    span = _duration(start, end)
    if span is None:
        return None
    duration, months = span
    delta = (doc_end - end).days
    if duration == "instant" and not annual:
        back = _whole(delta, 365.25 / 4)
        if back is None:
            return None
        fy, q = divmod(cell.fy * 4 + cell.fq - 1 - back, 4)
        return fy, None if q == 3 else q + 1, "instant"
    years = _whole(delta, 365.25)
    if years is None:
        return None
    if duration == "instant":
        return cell.fy - years, None, "instant"
    if annual:
        return (cell.fy - years, None, "year") if duration == "year" else None
    if duration == "quarter":
        return cell.fy - years, cell.fq, "quarter"
    if duration == "ytd" and months == 3 * cell.fq:
        return cell.fy - years, cell.fq, "ytd"
    return None


def filing_facts(
    companyfacts: dict[str, Any] | None,
    accession: str,
    cell: Placement,
    period_end: str,
    annual: bool,
) -> list[XbrlFact]:
    """The mapped XBRL values the filing ``accession`` reported, placed in its calendar.

    For each concept and period, the first tag in :data:`CONCEPT_TAGS` order with a value
    wins; a repeated value (a statement and a note tagging the same number) is kept once.
    """
    if not companyfacts:
        return []
    doc_end = date.fromisoformat(period_end)
    by_tag: dict[str, list[tuple[str, str, dict]]] = {}
    for tag, label, unit, entry in _entries(companyfacts):
        if entry.get("accn") == accession and unit in UNITS:
            by_tag.setdefault(tag, []).append((label, unit, entry))
    found: dict[tuple, XbrlFact] = {}
    for mapping in CONCEPT_TAGS:
        for tag in mapping.tags:
            for label, unit, entry in by_tag.get(tag, []):
                try:
                    end = date.fromisoformat(str(entry["end"]))
                    start = date.fromisoformat(str(entry["start"])) if entry.get("start") else None
                    value = float(entry["val"]) * mapping.sign
                except (KeyError, TypeError, ValueError):
                    continue
                placed = _place(start, end, doc_end, cell, annual)
                if placed is None:
                    continue
                fy, fq, duration = placed
                fact = XbrlFact(
                    concept=mapping.concept,
                    statement=mapping.statement,
                    tag=f"us-gaap:{tag}",
                    label=label,
                    fy=fy,
                    fq=fq,
                    duration=duration,
                    start=start.isoformat() if start else None,
                    end=end.isoformat(),
                    value=value,
                    unit=UNITS[unit],
                )
                found.setdefault(fact.key, fact)
    return list(found.values())
