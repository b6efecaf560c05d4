"""A yes/no question on whether a company paid an item its cash-flow statement does not print
is answered "No" by code.

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
from programs.verdicts import asks_presence
from retrieval.facts.model import Fact

#: The financing items a presence question asks about, and the row labels that print them.
_ITEM_ROWS = {
    "dividends_paid": re.compile(r"dividend", re.IGNORECASE),
    "buybacks": re.compile(r"repurchase|buy-?back|treasury", re.IGNORECASE),
}


def absent_verdict(
    question: str, choice: FormulaChoice, facts: Iterable[Fact], period: str
) -> str | None:
    """``No: the FY2023 cash-flow statement reports no dividends paid`` when ``question``
    asks whether the item ``choice`` reads was paid at all
    (:func:`programs.verdicts.asks_presence`) and ``facts`` (one slice's statements) read a
    financing section with no row for it."""
    item = single_item(choice.formula)
    rows = _ITEM_ROWS.get(item or "")
    if rows is None or not asks_presence(question, choice.formula):
        return None
    flows = [f for f in facts if f.statement == "cash_flow"]
    if not any(f.concept == "cff" for f in flows):
        return None  # the financing section was not read: a gap, not an absence
    if any(f.concept == item or rows.search(f.label) for f in flows):
        return None
    return f"No: the {period} cash-flow statement reports no {choice.title.lower()}"
