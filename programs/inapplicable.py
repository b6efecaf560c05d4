"""A metric that does not apply to a company is said not to, beside what the filing reports
instead: its revenue, its cash for a liquidity ratio, its operating income where no cost of
sales is printed, its equity for a ratio to a deficit.

Asked "What was JPMorgan's gross margin in FY2022?", the calculator found no cost of sales in
JPMorgan's statements, a probe searched the filing, and the 1.5B model wrote "JPMorgan's
gross margin in FY2022 was 10.38%", a figure no page states. A bank, a card issuer or an
insurer reports no cost of sales and holds no inventory, and its balance sheet is not
split into current and non-current items: gross margin, inventory turnover, days payable
and the current and quick ratios are not read for it. When the company is in the
financials sector (GICS, from the company map) and its statements do not hold what the
metric is built on, code answers that the metric does not apply, and why, beside the
revenue its income statement does report, both cited to that statement's page. Where the
statements do hold the inputs (a payments company with a classified balance sheet), the
metric is computed as for any company.

The same holds outside financials for what a business does not hold at all. Asked how many
times Salesforce sold its inventory in FY2023, the model wrote "1,035 times"; Salesforce
sells subscriptions and its balance sheet has no inventory line. When the statements read
for the slice print no inventory anywhere (no balance-sheet line, no cash-flow change in
inventories: a row so labelled counts even where the facts left its concept unnamed),
inventory turnover and days of inventory are said not to apply. A company whose
inventories the facts merely missed still prints the word, so it is not told it has none.
Likewise a REIT's unclassified balance sheet (no working capital, current or quick ratio),
an income statement by nature with no cost of sales (FedEx: no gross margin), and a ratio
to negative shareholders' equity (Oracle's FY2022 debt-to-equity), which is not meaningful.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from calculator.result import Calculation
from programs.absent_items import is_zero_ratio
from retrieval.facts.model import Fact
from signatures.probes import Probe
from textnorm.casing import lower_first

#: What a financial company's statements lack, by the calculator concept a metric reads.
_LACKING_AT_FINANCIALS = {
    "cost_of_revenue": "no cost of sales",
    "cost_of_products": "no cost of sales",
    "cost_of_services": "no cost of sales",
    "gross_profit": "no cost of sales",
    "inventory": "no inventory",
    "current_assets": "no current assets or liabilities (its balance sheet is not classified)",
    "current_liabilities": "no current assets or liabilities (its balance sheet is not classified)",
}
#: A row of any statement that prints inventories ("Inventories, net of reserves").
_INVENTORY_ROW = re.compile(r"inventor(?:y|ies)", re.IGNORECASE)


def lacking_at_financials(concepts: Iterable[str], sector: str) -> str | None:
    """Why a financial company's statements cannot give the metric whose inputs are
    ``concepts`` ("a financial company reports no cost of sales"); None outside financials,
    or when the metric reads nothing such a company lacks."""
    if sector.strip().lower() != "financials":
        return None
    read = set(concepts)  # in the table's order, not the caller's: the words are stable
    lacking = dict.fromkeys(words for c, words in _LACKING_AT_FINANCIALS.items() if c in read)
    return f"a financial company reports {' and '.join(lacking)}" if lacking else None


def lacking_inventory(concepts: Iterable[str], facts: Iterable[Fact]) -> str | None:
    """Why an inventory metric does not apply ("its statements carry no inventory") when
    ``concepts`` read inventory and ``facts`` (one slice's statements) include a balance
    sheet and no row anywhere names inventories; None otherwise."""
    if "inventory" not in set(concepts):
        return None
    facts = list(facts)
    if not any(f.statement == "balance" for f in facts):
        return None  # no balance sheet read: a gap in the facts, not a business trait
    if any(f.concept == "inventory" or _INVENTORY_ROW.search(f.label) for f in facts):
        return None
    return "its statements carry no inventory"


#: A row that totals or names a current section ("Total current liabilities").
_CURRENT_ROW = re.compile(r"\bcurrent\s+(?:assets|liabilities)\b", re.IGNORECASE)


def lacking_classification(concepts: Iterable[str], facts: Iterable[Fact]) -> str | None:
    """Why working capital, the current ratio or the quick ratio does not apply ("its
    balance sheet is not classified") when ``concepts`` read current assets or liabilities
    and ``facts`` include a balance sheet's total assets but no row names a current section:
    a REIT such as Boston Properties, like a bank, prints no current assets or liabilities.
    No balance sheet read: a gap, not a trait."""
    if not {"current_assets", "current_liabilities"} & set(concepts):
        return None
    facts = [f for f in facts if f.statement == "balance"]
    if not any(f.concept == "total_assets" for f in facts):
        return None
    if any(f.concept in ("current_assets", "current_liabilities") for f in facts):
        return None
    if any(_CURRENT_ROW.search(f.label) for f in facts):
        return None
    return "its balance sheet is not classified (no current assets or liabilities)"


#: What a metric built on a cost of sales reads (gross margin, inventory turnover, DPO).
_COST_OF_SALES = frozenset(
    {"cost_of_revenue", "cost_of_products", "cost_of_services", "gross_profit"}
)
#: A row naming a cost of sales or a gross profit, whatever the facts made of it.
_COST_ROW = re.compile(r"\bcosts?\s+of\b|\bgross\s+(?:profit|margin)\b", re.IGNORECASE)
#: Expense rows named by their nature, not by the function they serve.
_BY_NATURE = re.compile(
    r"salar(?:y|ies)|wages|employee\s+benefits|\bfuel\b|purchased\s+transportation|"
    r"rentals|landing\s+fees|maintenance\s+and\s+repairs",
    re.IGNORECASE,
)
#: Distinct expense rows by nature that make an income statement one that classifies by
#: nature (one "Salaries and employee benefits" row is a bank's or a restaurant's line).
_NATURE_ROWS = 3


def lacking_cost_of_sales(concepts: Iterable[str], facts: Iterable[Fact]) -> str | None:
    """Why a metric built on a cost of sales does not apply ("it reports operating expenses
    by nature (salaries and employee benefits, purchased transportation, …) and no cost of
    sales") when ``concepts`` read one, the slice's income statement has no row naming a
    cost of sales or a gross profit, and three or more of its rows name expenses by their
    nature: FedEx, whose "improving gross margin" had been refused. An income statement
    with fewer such rows is a gap in the facts, not a business trait."""
    if not _COST_OF_SALES & set(concepts):
        return None
    income = [f for f in facts if f.statement == "income"]
    if any(f.concept in _COST_OF_SALES or _COST_ROW.search(f.label) for f in income):
        return None
    natures = list(dict.fromkeys(f.label.lower() for f in income if _BY_NATURE.search(f.label)))
    if len(natures) < _NATURE_ROWS:
        return None
    shown = ", ".join(natures[:2])
    return f"it reports operating expenses by nature ({shown}, …) and no cost of sales"


#: A ratio to shareholders' equity, as the calculator expands it: "… / equity[FY2022]",
#: "… / avg(equity[FY2022], equity[FY2021])".
_OVER_EQUITY = re.compile(r"/\s*(?:avg\()?equity\[")


def deficit_reason(calculation: Calculation) -> str | None:
    """Why a ratio to shareholders' equity is not meaningful ("its shareholders' equity was
    negative at the end of FY2022, so a ratio to it is not meaningful") when the equity it
    divides by is not positive: Oracle's FY2022 equity was a deficit of $6,220 million,
    its debt-to-equity read -12.20, and a trend from it to FY2023's 84.33 had been
    answered "rose". None otherwise."""
    if not _OVER_EQUITY.search(calculation.expanded):
        return None
    deficits = [f for f in calculation.inputs if f.concept == "equity" and f.value <= 0]
    if not deficits:
        return None
    when = " and ".join(dict.fromkeys(f"the end of {f.period_label}" for f in deficits))
    return f"its shareholders' equity was negative at {when}, so a ratio to it is not meaningful"


def why_inapplicable(
    concepts: Iterable[str], sector: str, facts: Iterable[Fact]
) -> tuple[str, tuple[str, ...]] | None:
    """Why the metric whose inputs are ``concepts`` does not apply to the company whose
    sector and slice facts are given (any reason above), and what the filing reports
    instead, as the calculator names it, first found first: cash for a liquidity ratio or
    working capital (a REIT's liquidity is its cash, not its revenue), operating income
    where no cost of sales is printed, else revenue. None when it applies."""
    concepts, facts = set(concepts), list(facts)
    if by_nature := lacking_cost_of_sales(concepts, facts):
        return by_nature, ("operating income", "revenue")  # what its margin is read from
    reason = (
        lacking_at_financials(concepts, sector)
        or lacking_inventory(concepts, facts)
        or lacking_classification(concepts, facts)
    )
    if reason is None:
        return None
    liquidity = {"current_assets", "current_liabilities"} & concepts
    return reason, ("cash and cash equivalents", "revenue") if liquidity else ("revenue",)


def inapplicable_verdict(title: str, ticker: str, reason: str, instead: str = "revenue") -> str:
    """``Gross margin does not apply to JPM: a financial company reports no cost of sales;
    its revenue is read instead`` (no citation marks); ``instead`` is what is read."""
    verb = "are" if instead.endswith("equivalents") else "is"
    return f"{title} does not apply to {ticker}: {reason}; its {instead} {verb} read instead"


#: The end of the title of the probe code closes with such a verdict, by which the report
#: knows the metric's period as one where it does not apply.
DOES_NOT_APPLY = " (does not apply)"


def says_does_not_apply(verdict: str) -> bool:
    """Whether ``verdict`` is code's "does not apply", not a payment's "No:" or its ratio's
    0 (:mod:`programs.absent_items`), whose stand-in is the financing total."""
    return not is_zero_ratio(verdict) and not verdict.startswith("No:")


def inapplicable_probe(title: str, verdict: str, period: str) -> Probe:
    """The probe code closes with such a verdict: ``Gross margin (does not apply)``, or, for
    a payment the statements do not print (:mod:`programs.absent_items`), ``Dividends paid
    (none)`` and ``Dividend payout ratio (none paid)``."""
    name = lower_first(title)
    if is_zero_ratio(verdict):
        return Probe(
            probe_title=f"{title} (none paid)", probe_question=f"What was {name} in {period}?"
        )
    if verdict.startswith("No:"):
        return Probe(
            probe_title=f"{title} (none)", probe_question=f"Were any {name} reported in {period}?"
        )
    return Probe(
        probe_title=f"{title}{DOES_NOT_APPLY}", probe_question=f"Does {name} apply in {period}?"
    )
