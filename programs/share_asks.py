"""A figure's share of another, asked right after it: "How much did FedEx spend on capital
expenditures in FY2023, and what share of revenue was that?"

Code answered the figure ($6,174 million) and dropped the second ask, though the same
statements print revenue. The share is arithmetic on two statement figures of one period,
so code gives it beside the figure, cited to both pages: "That is 6.8% of revenue
($90,155 million)¹˒²."
"""

from __future__ import annotations

import re

from calculator.result import Calculation
from textnorm.casing import lower_first

#: ", and what share (percentage, proportion) of revenue was that?": the base named, the
#: figure asked before it referred to by "that" or "it".
_SHARE_OF_IT = re.compile(
    r",?\s+and\s+(?:what|how\s+much)\s+(?:an?\s+)?(?:share|percentage|percent|proportion|"
    r"portion|fraction)\s+of\s+(?:its\s+|their\s+|the\s+(?:company['’]s\s+)?)?"
    r"(?P<base>[a-z][\w&'’ -]*?)\s+(?:was|is|were|are|did)\s+(?:that|it|this|they)\b",
    re.IGNORECASE,
)


def share_base(question: str) -> str | None:
    """The figure a question asks the share of, after its first figure ("revenue"), or None
    when it asks no such share."""
    found = _SHARE_OF_IT.search(question)
    return found["base"].strip() if found else None


def without_share_ask(question: str) -> str:
    """The question less its share ask: the figure is chosen from what is asked before it
    ("How much goodwill did Salesforce carry, and what share of total assets was that?" asks
    goodwill, not total assets)."""
    return _SHARE_OF_IT.sub("", question)


def share_sentence(figure: Calculation, base: Calculation, base_text: str, marker: str) -> str:
    """``That is 6.8% of revenue ($90,155 million)¹˒².``: ``figure``'s size as a share of
    ``base``, both amounts of one period."""
    share = abs(figure.value) / base.value
    return f"That is {share:.1%} of {lower_first(base.title)} ({base_text}){marker}."
