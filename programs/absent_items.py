"""A yes/no question on whether a company paid an item its cash-flow statement does not print
is answered "No" by code, and a ratio of that item (a dividend payout ratio) is 0.

Asked "Has Salesforce paid dividends to common shareholders in FY2023?", the model answered
"Yes" beside an unrelated stock figure; Salesforce paid none, and its cash-flow statement has
no dividends row. Dividends and buybacks are financing cash flows: when the slice's facts
hold the statement's financing total (so that section was read) and no cash-flow row names
the item, the answer is "No", cited to the statement beside that total. A row the facts
read under a label the vocabulary does not know still names the item ("Cash dividends
declared and paid"), and then code says nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from calculator.choice import FormulaChoice, single_item
from calculator.definitions import METRICS_BY_NAME
from programs.verdicts import asks_presence
from retrieval.facts.model import Fact

#: The financing items a presence question asks about, and the row labels that print them.
_ITEM_ROWS = {
    "dividends_paid": re.compile(r"dividend", re.IGNORECASE),
    "buybacks": re.compile(r"repurchase|buy-?back|treasury", re.IGNORECASE),
}
#: How :func:`zero_ratio_verdict` states its 0.
_ZERO = " was 0: "
_ITEM_NAMES = {"dividends_paid": "dividends paid", "buybacks": "share repurchases"}
#: A ratio whose numerator is one of those items: ``abs(dividends_paid) / net_income``.
_ITEM_OVER = re.compile(r"^\s*(?:abs\()?\s*(" + "|".join(_ITEM_ROWS) + r")\s*\)?\s*/")


def unprinted(item: str, facts: Iterable[Fact]) -> bool:
    """Whether ``facts`` read a financing section with no row for ``item`` (dividends
    paid, buybacks; False for any other item)."""
    rows = _ITEM_ROWS.get(item)
    if rows is None:
        return False
    flows = [f for f in facts if f.statement == "cash_flow"]
    if not any(f.concept == "cff" for f in flows):
        return False  # the financing section was not read: a gap, not an absence
    return not any(f.concept == item or rows.search(f.label) for f in flows)


def absent_verdict(
    question: str, choice: FormulaChoice, facts: Iterable[Fact], period: str
) -> str | None:
    """``No: the FY2023 cash-flow statement reports no dividends paid`` when ``question``
    asks whether the item ``choice`` reads was paid at all
    (:func:`programs.verdicts.asks_presence`) and ``facts`` (one slice's statements) read a
    financing section with no row for it."""
    item = single_item(choice.formula)
    if item not in _ITEM_ROWS or not asks_presence(question, choice.formula):
        return None
    if not unprinted(item, facts):
        return None
    return f"No: the {period} cash-flow statement reports no {choice.title.lower()}"


def zero_ratio_verdict(choice: FormulaChoice, facts: Iterable[Fact], period: str) -> str | None:
    """``Dividend payout ratio in FY2020 was 0: the cash-flow statement reports no
    dividends paid`` when the ratio ``choice`` computes divides such an item and ``facts``
    read a financing section with no row for it: a company that paid none has a ratio of
    0, where the figure had been a gap."""
    formula = METRICS_BY_NAME[choice.formula].formula if choice.formula in METRICS_BY_NAME else ""
    numerator = _ITEM_OVER.match(formula or choice.formula)
    if numerator is None or not unprinted(numerator.group(1), facts):
        return None
    name = _ITEM_NAMES[numerator.group(1)]
    return f"{choice.title} in {period}{_ZERO}the cash-flow statement reports no {name}"


def is_zero_ratio(verdict: str) -> bool:
    """Whether ``verdict`` is :func:`zero_ratio_verdict`'s."""
    return _ZERO in verdict


def absence_verdict(
    question: str, choice: FormulaChoice, facts: Iterable[Fact], period: str
) -> str | None:
    """Code's verdict on a payment the cash-flow statement does not print: "No" asked
    whether it was paid (:func:`absent_verdict`), 0 asked a ratio of it
    (:func:`zero_ratio_verdict`); None otherwise."""
    facts = list(facts)
    return absent_verdict(question, choice, facts, period) or zero_ratio_verdict(
        choice, facts, period
    )
