"""Verdicts on a figure over several periods, by code: whether it moved the way asked
in each step ("Did operating cash flow grow in each year from FY2019 through FY2021?"),
whether a percentage stayed within the band a question sets ("historically consistent,
not fluctuating more than roughly 2% each year"), and whether it was negative in any period
("Did eBay's net income turn negative in any year between FY2020 and FY2022?") or turned
positive in the last ("Did PG&E return to a profit in FY2020 after its FY2019 loss?"). Read from
its ends alone, a series that dipped in the middle would be a "Yes"; read by the model, a
band was seldom checked; and asked for a sign, the composer described each year's change
and never said "Yes".
"""

from __future__ import annotations

import re
from itertools import pairwise

from calculator.phrases import RETURN_TO_PROFIT
from programs.answer_form import opens_yes_no
from programs.verdicts import Point, figure_direction, names_figure
from textnorm.casing import lower_first

#: A direction asked of every step of a series, not of its ends: "did it grow in each year
#: from FY2019 through FY2021?", "year after year", "consecutively".
_EACH_STEP = re.compile(
    r"\b(?:each|every)\s+(?:single\s+)?(?:fiscal\s+)?(?:year|quarter|period)\b|"
    r"\byear\s+after\s+year\b|\bconsecutive\w*\b|\bconsistently\b|\bsteadily\b",
    re.IGNORECASE,
)


def stepwise_verdict(
    question: str, title: str, points: list[Point], sector: str = ""
) -> str | None:
    """The yes/no answer to a direction asked of each step of three or more periods ("Did
    operating cash flow grow in each year from FY2019 through FY2021?"): yes only when
    every step moves the way asked, else no, naming the first step that did not. Read from
    the ends alone, a dip in the middle would be a "Yes". None when the question does not
    ask it of each step, or asks both ways (:func:`programs.verdicts.trend_verdict` names the
    direction)."""
    if len(points) < 3 or not _EACH_STEP.search(question):
        return None
    steps = list(pairwise(points))
    answers = [
        figure_direction(question, title, a.value != b.value, a.value > b.value, sector)
        for b, a in steps
    ]
    if any(answer not in ("Yes", "No") for answer in answers):
        return None
    series = ", ".join(f"{p.text} in {p.period}" for p in points)
    name = lower_first(title)
    broken = next(
        (step for step, answer in zip(steps, answers, strict=True) if answer == "No"), None
    )
    if broken is None:
        verb = "rose" if points[-1].value > points[0].value else "fell"
        step = "year" if all(re.fullmatch(r"FY\d{4}", p.period) for p in points) else "period"
        return f"Yes: the {name} {verb} in each {step} ({series})"
    before, after = broken
    if after.value == before.value:
        moved = f"was {after.text} in both {before.period} and {after.period}"
    else:
        verb = "rose" if after.value > before.value else "fell"
        moved = f"{verb} from {before.text} in {before.period} to {after.text} in {after.period}"
    return f"No: the {name} {moved} ({series})"


#: "historically consistent", "stable", "steady"; "fluctuating", "volatile" ask the other way.
_STEADY = re.compile(r"\b(?:consistent\w*|stable|stability|steady|steadi\w*)\b", re.IGNORECASE)
_SWINGS = re.compile(r"\b(?:fluctuat\w*|volatil\w*|swing\w*)\b", re.IGNORECASE)
#: The band a question sets: "not fluctuating more than roughly 2% each year".
_BAND = re.compile(
    r"\b(?:more\s+than|over|beyond|within|exceed\w*|above|by)\s+"
    r"(?:roughly\s+|about\s+|around\s+|approximately\s+)?(\d+(?:\.\d+)?)\s*"
    r"(?:%|percent(?:age)?(?:\s+points?)?|pp\b|points?\b)",
    re.IGNORECASE,
)


def steadiness_verdict(
    question: str, title: str, points: list[tuple[str, float, str]]
) -> str | None:
    """``Yes: the gross margin moved by at most 0.9 percentage points a year (38.5% in
    FY2020, 39.0% in FY2021, 39.4% in FY2022)`` for a yes/no question on whether a
    percentage stayed within the band the question sets ("consistent, not fluctuating more
    than roughly 2% each year"); asked only whether it fluctuated, the answer turns. Each
    point is (period, percentage points as printed, text), oldest first. None without a
    band, two periods or a yes/no question: "consistent" alone is the analyst's call."""
    steady, swings = _STEADY.search(question), _SWINGS.search(question)
    band = _BAND.search(question)
    if not (steady or swings) or band is None or len(points) < 2:
        return None
    if not opens_yes_no(question):
        return None
    moves = [(abs(b[1] - a[1]), a[0], b[0]) for a, b in pairwise(points)]
    largest, since, until = max(moves)
    within = largest <= float(band.group(1)) + 0.05  # as printed, to one decimal
    answer = "Yes" if within == bool(steady) else "No"
    series = ", ".join(f"{text} in {period}" for period, _, text in points)
    name = lower_first(title)
    if within:
        moved = f"moved by at most {largest:.1f} percentage points a year"
        return f"{answer}: the {name} {moved} ({series})"
    return (
        f"{answer}: the {name} moved by {largest:.1f} percentage points from {since} to "
        f"{until} ({series})"
    )


#: Whether a figure was negative in some period ("turn negative", "post a loss in any
#: year"), or positive in all of them ("profitable in every year", "remain positive").
_ANY_NEGATIVE = re.compile(
    r"\b(?:turn(?:ed)?|go|went|become|became|fall|fell|dip(?:ped)?)\s+(?:into\s+)?negative\b"
    r"|\bnegative\s+in\s+(?:any|a|one)\b|\b(?:post|report|record|incur)\w*\s+(?:a\s+)?"
    r"(?:net\s+)?loss\w*\s+in\s+(?:any|a|one)\b",
    re.IGNORECASE,
)
_ALL_POSITIVE = re.compile(
    r"\b(?:positive|profitable)\s+in\s+(?:each|every|all)\b"
    r"|\b(?:remain|stay)\w*\s+(?:positive|profitable)\b",
    re.IGNORECASE,
)


def sign_verdict(question: str, title: str, points: list[Point]) -> str | None:
    """``Yes: the net income was negative in FY2022 (…)`` for a yes/no question on whether
    the figure ``title`` was negative in any of two or more periods, or positive in all of
    them; each period's figure follows. None when the question asks neither of the figure."""
    negative = _ANY_NEGATIVE.search(question) is not None
    if not (negative or _ALL_POSITIVE.search(question)) or len(points) < 2:
        return None
    if not opens_yes_no(question) or not names_figure(question, title):
        return None
    below = [p for p in points if p.value < 0]
    series = ", ".join(f"{p.text} in {p.period}" for p in points)
    name = lower_first(title)
    answer = "Yes" if bool(below) == negative else "No"
    if below:
        when = " and ".join(p.period for p in below)
        return f"{answer}: the {name} was negative in {when} ({series})"
    return f"{answer}: the {name} was positive in every period ({series})"


#: Whether a figure turned positive by its last period: "return to a profit", "back to
#: profitability", "turn positive", asked with the earlier period named beside it.
_TURNED_POSITIVE = re.compile(
    r"\b(?:turn(?:ed|s)?|become|became)\s+(?:positive|profitable)\b"
    r"|\b(?:turn(?:ed|s)?|make|made)\s+a\s+profit\b"
    rf"|\b{RETURN_TO_PROFIT}\b",
    re.IGNORECASE,
)


def recovery_verdict(question: str, title: str, points: list[Point]) -> str | None:
    """``No: the net income was still negative in FY2020 (-$7,642 million in FY2019,
    -$1,304 million in FY2020)`` for a yes/no question on whether the figure ``title``
    turned positive by the last of two or more periods. Each period's own verdict had
    answered it ("FY2019: No: net income was -$7,642 million"), which asks nothing of
    FY2019 and never says whether the loss ended. None when the question asks something
    else of the figure, or asks it in any or every period (:func:`sign_verdict`)."""
    if len(points) < 2 or not _TURNED_POSITIVE.search(question):
        return None
    if _ANY_NEGATIVE.search(question) or _ALL_POSITIVE.search(question):
        return None
    if not opens_yes_no(question) or not names_figure(question, title):
        return None
    last = points[-1]
    series = ", ".join(f"{p.text} in {p.period}" for p in points)
    name = lower_first(title)
    if last.value > 0:
        turned = "turned positive" if any(p.value < 0 for p in points[:-1]) else "was positive"
        return f"Yes: the {name} {turned} in {last.period} ({series})"
    if last.value == 0:
        return f"No: the {name} was nil in {last.period} ({series})"
    still = "still negative" if points[-2].value < 0 else "negative"
    return f"No: the {name} was {still} in {last.period} ({series})"
