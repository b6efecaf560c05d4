"""A sentence that moves a figure the other way than its own two numbers do is removed.

Asked with no flags what drove 3M's operating margin, a probe on its operating cash flow
wrote "3M provided net cash of $5,591 million from its operating activities in FY2022.
This is a significant increase compared to the previous year's $7,454 million." It read
both columns right and wrote the direction it expected. Citation checks see a real page
and numeric grounding real digits, so the sentence survives them; a reader takes the word
"increase". Code can tell: two shapes name which number is the earlier one,

- "from A to B" (A first): "rose from $1.2 billion in FY2021 to $1.5 billion in FY2022";
- "B, compared with the prior year's A" or "B … compared with A in the prior year";
- "B in 2020 compared with A in 2019": each number with its own year;

and a sentence in one of them that says the figure rose (increased, grew, higher) where B
is below A, or fell where B is above it, is removed and counted, as
:mod:`programs.figure_check` removes a sentence that moves code's own figure the wrong way.
A number in a report is right, cited, or absent. A sentence that says both ("revenue rose
while margin fell") is left alone: which word goes with which pair is not code's to say.
"""

from __future__ import annotations

import re
from itertools import pairwise

from citations.markup import CitedAnswer
from citations.sentences import split_sentences, without_sentences
from metrics.numbers import NumberToken, extract_numbers
from programs.verdicts import FALLS, RISES

_FROM = re.compile(r"\bfrom(?:\s+about|\s+approximately)?\s*$", re.IGNORECASE)
#: Between "from A" and "B": "to", after at most a short period label ("in FY2021").
_TO = re.compile(r"^[^.;,]{0,30}?\bto(?:\s+about|\s+approximately)?\s*$", re.IGNORECASE)
_COMPARED = re.compile(
    r"\b(?:compared\s+(?:to|with)|versus|vs\.?|against|than|up\s+from|down\s+from)\b",
    re.IGNORECASE,
)
_PRIOR = r"(?:the\s+)?(?:prior|previous|preceding|last)\s+(?:fiscal\s+)?year"
_PRIOR_BEFORE = re.compile(rf"{_PRIOR}['’]?s?(?:\s+\w+){{0,3}}\s*$", re.IGNORECASE)
_PRIOR_AFTER = re.compile(rf"^[^.;]{{0,20}}?\b(?:in|for|during)\s+{_PRIOR}\b", re.IGNORECASE)
#: The year a figure is given for, written right after it: "$0.66 in 2020", "$4.9 billion
#: in FY2021", "45% for fiscal 2019".
_YEAR_AFTER = re.compile(
    r"^\s*(?:in|for|during|at\s+the\s+end\s+of)\s+(?:(?:fiscal|the)\s+)?(?:year\s+)?"
    r"(?:FY\s?)?((?:19|20)\d{2})\b",
    re.IGNORECASE,
)
#: A sentence about the one before it ("This is an increase compared to …").
_FOLLOWER = re.compile(r"^\W*(?:this|that|it|which)\b", re.IGNORECASE)


def _prior_year(text: str, number: NumberToken) -> bool:
    """Whether ``text`` names ``number`` as the prior year's."""
    return bool(
        _PRIOR_BEFORE.search(text[: number.start]) or _PRIOR_AFTER.search(text[number.end :])
    )


def _dated(
    text: str, first: NumberToken, second: NumberToken
) -> tuple[NumberToken, NumberToken] | None:
    """(earlier, later) where each number is followed by its own, different year."""
    years = [m.group(1) if (m := _YEAR_AFTER.match(text[n.end :])) else "" for n in (first, second)]
    if not all(years) or years[0] == years[1]:
        return None
    return (first, second) if years[0] < years[1] else (second, first)


def _pairs(text: str, before: str = "") -> list[tuple[NumberToken, NumberToken]]:
    """(earlier, later) number pairs that ``text`` orders in words; ``before`` is the
    sentence before it, whose last figure "This is an increase compared to the prior year's
    A" speaks of."""
    numbers = extract_numbers(text)
    pairs = []
    for first, second in pairwise(numbers):
        if first.percent != second.percent:
            continue
        between = text[first.end : second.start]
        if _FROM.search(text[: first.start]) and _TO.search(between):
            pairs.append((first, second))  # from A to B
        elif _COMPARED.search(between) and _prior_year(text, second):
            pairs.append((second, first))  # B compared with the prior year's A
        elif _COMPARED.search(between) and (dated := _dated(text, first, second)):
            pairs.append(dated)  # B in 2020 compared with A in 2019
    if not pairs and len(numbers) == 1 and _FOLLOWER.match(text) and _COMPARED.search(text):
        prior = numbers[0]
        earlier = [n for n in extract_numbers(before) if n.percent == prior.percent]
        if earlier and _prior_year(text, prior):
            pairs.append((prior, earlier[-1]))
    return pairs


def misdirected(sentence: str, before: str = "") -> bool:
    """Whether ``sentence`` says its figure rose where its numbers fell, or the reverse
    (``before``: the sentence before it, for one that begins "This is …")."""
    rises, falls = bool(RISES.search(sentence)), bool(FALLS.search(sentence))
    if rises == falls:
        return False
    for earlier, later in _pairs(sentence, before):
        a, b = earlier.absolute, later.absolute
        # a loss that "increased" from (2,902) to (5,033) grew; across zero, words vary
        if a >= 0 and b >= 0 and a != b and (b > a) != rises:
            return True
    return False


def drop_misdirected(answer: CitedAnswer) -> tuple[CitedAnswer, int]:
    """``answer`` without its misdirected sentences (and those that point back at them),
    and how many were found."""
    sentences = split_sentences(answer.body)
    wrong = [
        s
        for i, s in enumerate(sentences)
        if misdirected(s.text, sentences[i - 1].text if i else "")
    ]
    return without_sentences(answer, wrong)
