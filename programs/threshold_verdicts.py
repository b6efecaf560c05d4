"""A yes/no verdict on a figure against the level the question itself names.

"Is McDonald's operating margin above 40% in FY2022?" was answered "Operating margin in
FY2022 was 40.4%", with no yes: the benchmarks of :mod:`programs.verdicts` are the ones
analysts share (a quick ratio against 1), and this question brings its own. Code reads
the level after a comparison ("above", "more than", "at least", "below", …) in the
figure's own terms (a percentage for a margin or a growth rate, times or a plain number
for a ratio, dollars with their scale for an amount, days for days) and says which side
the figure falls on. A level in other terms than the figure's (a margin against "$5
billion") gets no verdict, and neither does a question that opens with no yes/no.

A sign is the level zero: "Does PG&E have negative retained earnings as of FY2022?" is
`Yes: retained earnings stood at -$7,542 million, below zero` (:func:`sign_verdict`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from domain.period_patterns import without_periods
from programs.answer_form import opens_yes_no
from textnorm.casing import lower_first

_ABOVE = r"above|over|more\s+than|greater\s+than|higher\s+than|exceed(?:s|ed|ing)?|in\s+excess\s+of"
_AT_LEAST = r"at\s+least|no\s+less\s+than"
_BELOW = r"below|under|less\s+than|lower\s+than|beneath"
_AT_MOST = r"at\s+most|no\s+more\s+than"
#: A comparison and the level after it: "above 40%", "more than 2 times", "over $5 billion".
_LEVEL = re.compile(
    rf"\b(?P<word>{_ABOVE}|{_AT_LEAST}|{_BELOW}|{_AT_MOST})\s+(?:the\s+)?"
    r"(?P<dollar>\$\s?)?(?P<number>\d[\d,]*(?:\.\d+)?)\s*"
    r"(?P<unit>%|percent\b|per\s*cent\b|x\b|times\b|days\b|billion\b|bn\b|million\b|mn?\b)?",
    re.IGNORECASE,
)
_SCALES = {"billion": 1e9, "bn": 1e9, "million": 1e6, "m": 1e6, "mn": 1e6}


@dataclass(frozen=True)
class _Level:
    """A level as the question writes it: the comparison word, the number, its unit
    (lower case, "" for none), whether a dollar sign stood before it, and the level's words."""

    word: str
    number: float
    unit: str
    dollar: bool
    written: str

    @property
    def kind(self) -> str:
        """``percent``, ``amount``, or ``plain`` (times, days or a bare number)."""
        if self.unit in ("%", "percent"):
            return "percent"
        return "amount" if self.unit in _SCALES or self.dollar else "plain"


def _read_level(question: str) -> _Level | None:
    """The first level ``question`` names, its periods blanked ("above 40% in FY2022": the
    year is no level)."""
    found = _LEVEL.search(without_periods(question))
    if found is None:
        return None
    return _Level(
        word=found["word"].lower(),
        number=float(found["number"].replace(",", "")),
        unit=(found["unit"] or "").lower().replace(" ", ""),
        dollar=bool(found["dollar"]),
        written=found.group(0)[len(found["word"]) :].strip(),
    )


def level_named(question: str) -> tuple[float, str] | None:
    """The level a yes/no question sets a figure against, as written, and its kind
    (``percent``, ``amount`` or ``plain`` for times, days or a bare number): "Is the
    interest coverage above 10?" -> (10.0, "plain"); None when the question opens with no
    yes/no or names no level."""
    found = _read_level(question) if opens_yes_no(question) else None
    return None if found is None else (found.number, found.kind)


def _level(question: str, display: str) -> tuple[str, float, str] | None:
    """(the comparison word, the level in the figure's own units, the level as written),
    or None when the question names no level in the figure's terms."""
    found = _read_level(question)
    if found is None:
        return None
    number, kind = found.number, found.kind
    if kind == "percent":
        level = number / 100 if display in ("percent", "ratio") else None
    elif kind == "amount":
        level = (
            number * _SCALES.get(found.unit, 1.0) if display in ("amount", "per_share") else None
        )
    elif found.unit == "days":
        level = number if display == "days" else None
    else:  # "2 times", "2x", a plain number: a ratio's or a count of days' own terms
        level = number if display in ("ratio", "days") else None
    return None if level is None else (found.word, level, found.written)


def threshold_verdict(
    question: str, title: str, value: float, text: str, display: str
) -> str | None:
    """The verdict sentence (no citation marks) for a yes/no question asking whether the
    figure ``title`` (its ``value``, written ``text``, shown as ``display``) is above or
    below the level the question names; None when it names none in the figure's terms."""
    if not opens_yes_no(question):
        return None
    found = _level(question, display)
    if found is None:
        return None
    word, level, written = found
    if re.fullmatch(_AT_LEAST, word):
        holds = value >= level
    elif re.fullmatch(_BELOW, word):
        holds = value < level
    elif re.fullmatch(_AT_MOST, word):
        holds = value <= level
    else:
        holds = value > level
    side = "above" if value > level else "below" if value < level else "equal to"
    return f"{'Yes' if holds else 'No'}: {lower_first(title)} of {text} is {side} {written}"


#: A sign asked of the figure the question names: "negative retained earnings", "is its
#: free cash flow positive?".
_SIGN = re.compile(r"\b(?P<sign>negative|positive)\b", re.IGNORECASE)


def sign_verdict(question: str, title: str, value: float, text: str) -> str | None:
    """The verdict sentence (no citation marks) for a yes/no question asking whether the
    figure ``title`` (its ``value``, written ``text``) is negative or positive; None when
    the question asks no sign of it, or names a level (:func:`threshold_verdict`'s)."""
    asked = without_periods(question)
    found = _SIGN.search(asked)
    if not opens_yes_no(question) or found is None or _read_level(question) is not None:
        return None
    if title.lower() not in asked.lower():
        return None
    holds = value < 0 if found["sign"].lower() == "negative" else value > 0
    side = "below" if value < 0 else "above" if value > 0 else "at"
    return f"{'Yes' if holds else 'No'}: {lower_first(title)} stood at {text}, {side} zero"
