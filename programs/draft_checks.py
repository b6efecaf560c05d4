"""Code's checks of a draft against the question it answers, before a reviewer may accept it.

A small reviewer accepts drafts that say "yes" in one sentence and "no" in the next, or
that answer a different figure than the question asks: an amount where it asks for a
percentage, one year where it asks for an average. Those are plain to code, so a draft
that fails one is sent back with the reason, in words the researcher can act on.
"""

from __future__ import annotations

import re

from citations.markup import CitedAnswer
from metrics.numbers import extract_numbers

_YES = re.compile(r"(?:^|[.!?:]\s+|\n)\s*(?:\*\*)?yes\b", re.IGNORECASE)
_NO = re.compile(
    r"(?:^|[.!?:]\s+|\n)\s*(?:\*\*)?no\b(?![-\s]*(?:longer|more than|less than))", re.IGNORECASE
)
#: A question that asks for a percentage as its figure ("What was the operating margin…",
#: "… in percent"), not one that mentions a margin while asking what drove it.
_ASKS_PERCENT = re.compile(
    r"\b(?:what|how much)\s+(?:is|was|were|are)\b[^?.]*?\b(?:percent(?:age)?|margin|rate)\b"
    r"|\bin (?:units of )?percent(?:age)?s?\b|\bas a percent(?:age)?\b",
    re.IGNORECASE,
)
_ASKS_AVERAGE = re.compile(
    r"\b(?:what|how much)\s+(?:is|was|were|are)\b[^?.]*?\baverage\b", re.IGNORECASE
)
_STATES_AVERAGE = re.compile(r"\baverag\w*|\bmean\b", re.IGNORECASE)


def contradicts_itself(body: str) -> bool:
    """Whether the draft opens sentences with both "Yes" and "No"."""
    return bool(_YES.search(body)) and bool(_NO.search(body))


def draft_problem(question: str, answer: CitedAnswer) -> str | None:
    """Why the draft does not answer ``question`` as asked (None when no check fails)."""
    body = answer.body
    if contradicts_itself(body):
        return (
            "The draft answers both yes and no; give one answer first, then the cited figures "
            "or sentences that support it."
        )
    numbers = extract_numbers(body)
    if numbers and _ASKS_PERCENT.search(question) and not any(n.percent for n in numbers):
        return (
            "The question asks for a percentage (a margin, rate or share); the draft states "
            "only amounts: compute or quote the percentage."
        )
    if numbers and _ASKS_AVERAGE.search(question) and not _STATES_AVERAGE.search(body):
        return (
            "The question asks for an average over several periods; the draft gives no "
            "average: state each period's figure and their average."
        )
    return None
