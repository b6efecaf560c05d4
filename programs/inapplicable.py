"""A metric that does not apply to a financial company is said not to, beside its revenue.

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
"""

from __future__ import annotations

from collections.abc import Iterable

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


def lacking_at_financials(concepts: Iterable[str], sector: str) -> str | None:
    """What a financial company's statements do not report among ``concepts`` (the inputs of
    the metric asked), in words ("no cost of sales"); None outside financials, or when the
    metric reads nothing such a company lacks."""
    if sector.strip().lower() != "financials":
        return None
    read = set(concepts)  # in the table's order, not the caller's: the words are stable
    lacking = dict.fromkeys(words for c, words in _LACKING_AT_FINANCIALS.items() if c in read)
    return " and ".join(lacking) or None


def inapplicable_verdict(title: str, ticker: str, lacking: str) -> str:
    """``Gross margin does not apply to JPM: a financial company reports no cost of sales;
    its revenue is read instead`` (no citation marks)."""
    return (
        f"{title} does not apply to {ticker}: a financial company reports {lacking}; "
        "its revenue is read instead"
    )
