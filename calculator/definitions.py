"""Named metric definitions: the formulas analysts (and FinanceBench) ask for, written once.

A question's own definition ("X is defined as: ...") wins over these
(:func:`calculator.choice.choose_formula` passes it to the parser under the same name).

**Signs.** Facts keep the sign printed on the statement, and cash-flow statements print
outflows in parentheses: capital expenditure, dividends paid and buybacks are usually
negative facts (3M prints capex as ``(1,577)``). Formulas that want the size of an outflow
take ``abs(...)``, so they give the same answer whichever way a company prints it:
free cash flow is ``cfo - abs(capex)``, never ``cfo + capex``. Cost of revenue and
interest expense are taken as ``abs(...)`` for the same reason: many income statements
print every expense in parentheses (Lockheed's cost of sales, Boeing's cost of products).
Income tax is read by its label (``calculator.resolution.as_read``): "(Provision) benefit
for income taxes" prints the expense negative, "Provision for (benefit from) income taxes"
the benefit, and a one-word label such as "Provision for income taxes" is read by its size.

**Averages of balances.** Turnover ratios, days outstanding and returns divide a flow over
the year by the *average* of the opening and closing balance:
``avg(total_assets[FY], total_assets[FY-1])``.

**Net income** in margins, returns and payout is the income attributable to the company's
shareholders (``net_income_attributable``; where a company prints only "Net income", that
row stands in for it, see ``calculator.concepts.SUBSTITUTES``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal

Display = Literal["percent", "ratio", "amount", "days", "per_share"]


@dataclass(frozen=True)
class Metric:
    name: str
    title: str  # "Operating margin"
    formula: str
    display: Display
    unit: str | None = None  # overrides the unit the arithmetic gives ("days")


METRICS: tuple[Metric, ...] = (
    Metric("gross_margin", "Gross margin", "gross_profit / revenue", "percent"),
    Metric("operating_margin", "Operating margin", "operating_income / revenue", "percent"),
    Metric("net_margin", "Net margin", "net_income_attributable / revenue", "percent"),
    Metric("ebitda", "EBITDA", "operating_income + dna", "amount"),
    Metric("ebitda_margin", "EBITDA margin", "(operating_income + dna) / revenue", "percent"),
    Metric("revenue_growth", "Revenue growth", "revenue / revenue[FY-1] - 1", "percent"),
    Metric("capex_to_revenue", "Capex as % of revenue", "abs(capex) / revenue", "percent"),
    Metric("free_cash_flow", "Free cash flow", "cfo - abs(capex)", "amount"),
    Metric(
        "shareholder_returns",
        "Cash returned to shareholders",
        "abs(dividends_paid) + abs(buybacks)",
        "amount",
    ),
    Metric("cfo_margin", "Operating cash flow margin", "cfo / revenue", "percent"),
    Metric("fcf_margin", "Free cash flow margin", "free_cash_flow / revenue", "percent"),
    Metric(
        "fcf_conversion",
        "Free cash flow conversion",
        "free_cash_flow / net_income_attributable",
        "percent",
    ),
    Metric("working_capital", "Working capital", "current_assets - current_liabilities", "amount"),
    Metric("current_ratio", "Current ratio", "current_assets / current_liabilities", "ratio"),
    Metric(
        "quick_ratio",
        "Quick ratio",
        # Quick assets, as analysts define them: cash, marketable securities, receivables.
        "(cash + short_term_investments + receivables) / current_liabilities",
        "ratio",
    ),
    Metric(
        "operating_cash_flow_ratio",
        "Operating cash flow ratio",
        "cfo / current_liabilities",
        "ratio",
    ),
    Metric(
        "inventory_turnover",
        "Inventory turnover",
        "abs(cost_of_revenue) / avg(inventory[FY], inventory[FY-1])",
        "ratio",
    ),
    Metric(
        "fixed_asset_turnover",
        "Fixed asset turnover",
        "revenue / avg(ppe_net[FY], ppe_net[FY-1])",
        "ratio",
    ),
    Metric(
        "asset_turnover",
        "Asset turnover",
        "revenue / avg(total_assets[FY], total_assets[FY-1])",
        "ratio",
    ),
    Metric(
        "dio",
        "Days inventory outstanding",
        "365 * avg(inventory[FY], inventory[FY-1]) / abs(cost_of_revenue)",
        "days",
        "days",
    ),
    Metric(
        "dso",
        "Days sales outstanding",
        "365 * avg(receivables[FY], receivables[FY-1]) / revenue",
        "days",
        "days",
    ),
    Metric(
        "dpo",
        "Days payable outstanding",
        "365 * avg(payables[FY], payables[FY-1]) / abs(cost_of_revenue)",
        "days",
        "days",
    ),
    Metric("cash_conversion_cycle", "Cash conversion cycle", "dio + dso - dpo", "days", "days"),
    Metric(
        "roa",
        "Return on assets",
        "net_income_attributable / avg(total_assets[FY], total_assets[FY-1])",
        "ratio",
    ),
    Metric(
        "roe",
        "Return on equity",
        "net_income_attributable / avg(equity[FY], equity[FY-1])",
        "ratio",
    ),
    Metric(
        "dividend_payout",
        "Dividend payout ratio",
        "abs(dividends_paid) / net_income_attributable",
        "ratio",
    ),
    Metric("retention_ratio", "Retention ratio", "1 - dividend_payout", "ratio"),
    Metric(
        "interest_coverage",
        "Interest coverage",
        "operating_income / abs(interest_expense)",
        "ratio",
    ),
    Metric("total_debt", "Total debt", "short_term_debt + long_term_debt", "amount"),
    Metric(
        "debt_to_equity",
        "Debt-to-equity",
        "(short_term_debt + long_term_debt) / equity",
        "ratio",
    ),
    Metric(
        "cash_and_investments",
        "Cash and short-term investments",
        "cash + short_term_investments",
        "amount",
    ),
    Metric("net_debt", "Net debt", "short_term_debt + long_term_debt - cash", "amount"),
    Metric("debt_to_ebitda", "Debt to EBITDA", "total_debt / ebitda", "ratio"),
    Metric("net_debt_to_ebitda", "Net debt to EBITDA", "net_debt / ebitda", "ratio"),
    Metric("debt_to_assets", "Debt to assets", "total_debt / total_assets", "ratio"),
    Metric(
        "effective_tax_rate",
        "Effective tax rate",
        "income_tax / pretax_income",
        "percent",
    ),
)

METRICS_BY_NAME: dict[str, Metric] = {m.name: m for m in METRICS}


@cache
def _formulas() -> tuple[tuple[str, str], ...]:
    return tuple((m.name, m.formula) for m in METRICS)


def metric_formulas(overrides: dict[str, str] | None = None) -> dict[str, str]:
    """Metric name -> formula, with a question's own definitions winning."""
    formulas = dict(_formulas())
    formulas.update(overrides or {})
    return formulas


def catalogue() -> str:
    """One line per metric, ``name = formula``: what the formula module is shown."""
    return "\n".join(f"{m.name} = {m.formula}" for m in METRICS)
