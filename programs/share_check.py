"""A share of revenue a draft states is the share its own amount is of revenue.

Asked whether Oracle is a capital-intensive business in FY2023, the draft went on: "The
company's net cash provided by operating activities was $17,165 million in 2023, which
represents approximately 80% of its revenue." The 10-K prints 80% beside that figure as
its change from 2022; $17,165 million is 34.4% of the year's $49,954 million of revenue.
Digit grounding passes it (80% is on the cited page), and so did the reviewer. A sentence
that states one amount and one percentage "of revenue" (of net sales, of sales) is
arithmetic code can check against the slice's statement revenue: it goes when the amount
is that share neither of the year's revenue nor of the year before's (a sentence about the
prior year), within half a point or a twentieth of the share, whichever is larger. Annual
slices only, as for :mod:`programs.claim_check`.
"""

from __future__ import annotations

import re

from citations.markup import CitedAnswer
from citations.sentences import split_sentences, without_sentences
from domain.cells import SliceRef
from metrics.numbers import extract_numbers
from programs.figures import Figures

_SHARE_OF_REVENUE = re.compile(
    r"(?P<share>\d+(?:\.\d+)?)\s*%\s+of\s+(?:(?:its|their|the(?:\s+company['’]s)?|total|net"
    r"|consolidated|annual)\s+)*(?:revenues?|net\s+sales|sales)\b",
    re.IGNORECASE,
)
#: How far a stated share may sit from the computed one: half a point, or a twentieth of
#: the share ("about 20%" for 20.9%), whichever is larger.
_POINTS, _RELATIVE = 0.5, 0.05


def misstates_share(text: str, revenues: list[float]) -> bool:
    """Whether ``text`` states one amount as a share of revenue that it is of none of
    ``revenues`` (the year's and the year before's, in dollars)."""
    shares = _SHARE_OF_REVENUE.findall(text)
    amounts = [n for n in extract_numbers(text) if not n.percent and (n.currency or n.scale != 1.0)]
    if len(shares) != 1 or len(amounts) != 1 or not revenues:
        return False
    share, amount = float(shares[0]), abs(amounts[0].absolute)
    allowed = max(_POINTS, _RELATIVE * share)
    return all(abs(100 * amount / revenue - share) > allowed for revenue in revenues)


def drop_misstated_shares(
    answer: CitedAnswer, ref: SliceRef, figures: Figures | None, question: str
) -> tuple[CitedAnswer, int]:
    """``answer`` less its prose sentences that misstate an amount's share of revenue
    (:func:`misstates_share`), with the footnotes only they marked; and how many went."""
    if figures is None or ref.fq not in (None, 4):
        return answer, 0
    stating = [
        s
        for s in split_sentences(answer.body)
        if not s.in_table and s.markers and _SHARE_OF_REVENUE.search(s.text)
    ]
    if not stating:  # the statements are read only for a draft that states such a share
        return answer, 0
    now, before = figures.consolidated("revenue", question, ref)
    revenues = [c.value for c in (now, before) if c is not None and c.value > 0]
    return without_sentences(answer, [s for s in stating if misstates_share(s.text, revenues)])
