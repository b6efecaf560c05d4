"""What the calculator knows about each canonical concept: its home statement, whether it is
a flow (over a period) or a balance (at a date), its unit and the words a formula reads it as.

The names are the ones statement facts carry (``retrieval.facts``). The home statement is
where resolution looks first: capex is read from the cash-flow statement, not from a
segment table that happens to print a capex row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Kind = Literal["flow", "balance", "per_share", "shares"]


@dataclass(frozen=True)
class ConceptInfo:
    name: str
    title: str  # as a rendered formula prints it: "operating income"
    statement: str  # home statement (one of retrieval.facts.model.STATEMENTS)
    kind: Kind
    unit: str = "USD"


def _flow(name: str, title: str, statement: str = "income") -> ConceptInfo:
    return ConceptInfo(name, title, statement, "flow")


def _balance(name: str, title: str) -> ConceptInfo:
    return ConceptInfo(name, title, "balance", "balance")


CONCEPTS: dict[str, ConceptInfo] = {
    c.name: c
    for c in (
        _flow("revenue", "revenue"),
        _flow("cost_of_revenue", "cost of revenue"),
        _flow("cost_of_products", "cost of products"),
        _flow("cost_of_services", "cost of services"),
        _flow("gross_profit", "gross profit"),
        _flow("sga", "SG&A"),
        _flow("sales_marketing", "sales and marketing"),
        _flow("general_administrative", "general and administrative"),
        _flow("rnd", "R&D"),
        _flow("operating_expenses", "operating expenses"),
        _flow("operating_income", "operating income"),
        _flow("interest_expense", "interest expense"),
        _flow("pretax_income", "pre-tax income"),
        _flow("income_tax", "income tax"),
        _flow("net_income", "net income"),
        _flow("net_income_attributable", "net income attributable to shareholders"),
        _flow("net_income_to_common", "net income applicable to common stockholders"),
        _flow("dna", "depreciation and amortisation", "cash_flow"),
        _flow("capex", "capital expenditure", "cash_flow"),
        _flow("cfo", "cash from operations", "cash_flow"),
        _flow("cfi", "cash from investing", "cash_flow"),
        _flow("cff", "cash from financing", "cash_flow"),
        _flow("dividends_paid", "dividends paid", "cash_flow"),
        _flow("buybacks", "share repurchases", "cash_flow"),
        _flow("acquisitions", "cash paid for acquisitions", "cash_flow"),
        _balance("cash", "cash and equivalents"),
        _balance("short_term_investments", "short-term investments"),
        _balance("receivables", "receivables"),
        _balance("inventory", "inventory"),
        _balance("current_assets", "current assets"),
        _balance("ppe_net", "net PP&E"),
        _balance("total_assets", "total assets"),
        _balance("payables", "accounts payable"),
        _balance("current_liabilities", "current liabilities"),
        _balance("short_term_debt", "short-term debt"),
        _balance("long_term_debt", "long-term debt"),
        _balance("total_liabilities", "total liabilities"),
        _balance("equity", "shareholders' equity"),
        _balance("retained_earnings", "retained earnings"),
        ConceptInfo("diluted_eps", "diluted EPS", "income", "per_share", "USD/share"),
        ConceptInfo("diluted_shares", "diluted shares", "income", "shares", "shares"),
    )
}

#: When a slice has no fact for a concept, these stand in for it, and the result says so.
#: A company without non-controlling interests prints only "Net income": that is the
#: income attributable to its shareholders. Gross profit is often not printed at all, and
#: a company that sells products and services may cost them on two rows with no total.
#: A balance sheet that prints no short-term investments or marketable securities holds
#: none, so the quick ratio's quick assets are its cash and receivables; one that prints
#: no short-term debt owes none within the year, so its total debt is its long-term debt
#: (Adobe's FY2021). A company that prints sales and marketing and general and
#: administrative expenses on two rows (eBay, Oracle, Salesforce) prints no SG&A line: it
#: is their sum, as analysts take it. A balance sheet that prints no receivable at all
#: (Netflix's, Foot Locker's: cash, inventories and other current assets) holds none for
#: the quick ratio to count, under the guard of :data:`ABSENT_WHERE_READ`.
SUBSTITUTES: dict[str, str] = {
    "net_income_attributable": "net_income",
    "gross_profit": "revenue - abs(cost_of_revenue)",
    "cost_of_revenue": "abs(cost_of_products) + abs(cost_of_services)",
    "sga": "abs(sales_marketing) + abs(general_administrative)",
    "short_term_investments": "0",
    "short_term_debt": "0",
    "receivables": "0",
}

#: A stand-in of 0 that holds only where the statement was read (its total, the first
#: concept, is there for the period) and none of its rows names the item (the pattern):
#: a balance sheet whose receivable the vocabulary does not name (eBay's "Customer accounts
#: and funds receivable"), or whose receivable row lost its name to a wrapped label and kept
#: only its "allowance for doubtful accounts" (PG&E's), is not read as holding none.
ABSENT_WHERE_READ: dict[str, tuple[str, re.Pattern[str]]] = {
    "receivables": (
        "current_assets",
        re.compile(r"receivable|doubtful accounts|allowance for credit losses", re.IGNORECASE),
    ),
}


def concept_info(name: str) -> ConceptInfo:
    """The concept's info; a concept the table does not list is a flow read from any
    statement, in whatever unit its facts carry (``unit=""``)."""
    return CONCEPTS.get(name) or ConceptInfo(name, name.replace("_", " "), "", "flow", "")
