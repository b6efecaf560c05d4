"""Find numeric claims in text and compare numbers across formats and scales.

Shared by coverage (which tokens need a citation), grounding (is the number on the cited
page) and answer correctness (does the answer state the gold number). Financial text writes
one quantity many ways: ``$1,577 million``, ``1.577 billion``, ``1577.0`` in a table headed
"in millions", ``(1,577)`` for a negative, ``24.3%`` or ``0.243``; comparisons therefore try
the plausible scale readings and use a relative tolerance (1%, as in FinLFQA) or the
precision the writer rounded to, whichever is looser.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

SCALES: dict[str, float] = {
    "thousand": 1e3, "thousands": 1e3, "k": 1e3,
    "million": 1e6, "millions": 1e6, "mn": 1e6, "mm": 1e6, "m": 1e6, "mil": 1e6,
    "billion": 1e9, "billions": 1e9, "bn": 1e9, "b": 1e9,
    "trillion": 1e12, "trillions": 1e12, "tn": 1e12,
}  # fmt: skip
_SCALE_ALT = "|".join(sorted(SCALES, key=len, reverse=True))
_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
NUMBER_RE = re.compile(
    rf"""
    (?P<neg>[-−–](?=[$€£\d(])|\((?=[$€£]?\s?\d[\d,.]*\)))?
    (?P<cur>(?:US)?\$|USD\s?|€|£)?\s?
    (?P<num>\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)
    (?P<close>\))?
    (?:\s?(?P<pct>%|(?:percent|per\s?cent|pct|bps|basis\s+points)(?![A-Za-z])))?
    (?:\s?(?P<scale>{_SCALE_ALT})(?![A-Za-z]))?
    """,
    re.VERBOSE | re.IGNORECASE,
)
# Words after which a number is an identifier, not a claim.
_ID_BEFORE_RE = re.compile(
    rf"(?:\b(?:probe|note|notes|item|section|page|pages|p\.|pp\.|q|fy|h|exhibit|part|"
    rf"table|step|round|rule|form|schedule|{_MONTHS})\.?\s?)$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class NumberToken:
    """A number as written: value (sign applied), scale word, percent flag, decimals, span."""

    raw: str
    value: float
    start: int
    end: int
    scale: float = 1.0
    percent: bool = False
    currency: bool = False
    decimals: int = 0

    @property
    def absolute(self) -> float:
        return self.value * self.scale


def _is_identifier(text: str, m: re.Match[str]) -> bool:
    """Years, ordinals, dates, form names and references are not numeric claims."""
    start, end = m.start("num"), m.end("num")
    num = m.group("num")
    before = text[max(0, start - 12) : start]
    after = text[end : end + 3]
    if start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_^"):
        return True  # FY2018, Q1, 3M-like codes, x2
    if end < len(text) and (text[end].isalpha() and not (m.group("pct") or m.group("scale"))):
        return True  # 3M, 10K, 1st
    scale = (m.group("scale") or "").lower()
    if len(scale) == 1 and not m.group("cur") and text[end : end + 1].isalpha():
        return True  # 3M, 5B: a name, unless written as money ($3M)
    if re.match(r"-[A-Za-z]", after):
        return True  # 10-K, 8-K, 10-Q
    plain = not (m.group("cur") or m.group("pct") or m.group("scale") or m.group("neg"))
    if plain and "," not in num and "." not in num and 1900 <= int(num) <= 2100:
        return True  # a year
    if plain and _ID_BEFORE_RE.search(before):
        return True
    line_start = text.rfind("\n", 0, start) + 1
    prefix = text[line_start:start]
    return bool(plain and not prefix.strip(" \t#>*-") and re.match(r"[.)]\s", after))


@lru_cache(maxsize=4096)
def _extract(text: str, keep_identifiers: bool) -> tuple[NumberToken, ...]:
    out: list[NumberToken] = []
    for m in NUMBER_RE.finditer(text):
        if not keep_identifiers and _is_identifier(text, m):
            continue
        num = m.group("num")
        value = float(num.replace(",", ""))
        neg = m.group("neg")
        negative = bool(neg) and (not neg.startswith("(") or bool(m.group("close")))
        if negative:
            value = -value
        scale_word = (m.group("scale") or "").lower()
        pct = m.group("pct")
        is_bps = bool(pct) and pct.lower().startswith(("bps", "basis"))
        decimals = len(num.split(".")[1]) if "." in num else 0
        out.append(
            NumberToken(
                raw=m.group().strip(),
                value=value / 100 if is_bps else value,
                start=m.start(),
                end=m.end(),
                scale=SCALES.get(scale_word, 1.0),
                percent=bool(pct),
                currency=bool(m.group("cur")),
                decimals=decimals + (2 if is_bps else 0),
            )
        )
    return tuple(out)


def extract_numbers(text: str, *, keep_identifiers: bool = False) -> list[NumberToken]:
    """Numeric claims in ``text`` (years, ordinals, form names and references excluded)."""
    return list(_extract(text, keep_identifiers))


def readings(token: NumberToken) -> list[float]:
    """Plausible magnitudes of a token, for matching against a page or a gold answer.

    ``$1,577 million`` -> 1577 (as written), 1.577e9 (absolute), and the same quantity in
    thousands/millions/billions; ``24.3%`` -> 24.3 and 0.243.
    """
    base = abs(token.value)
    vals = {base}
    if token.percent:
        vals.add(base / 100)
    else:
        absolute = base * token.scale
        for unit in (1.0, 1e3, 1e6, 1e9):
            vals.add(absolute / unit)
    return sorted(vals)


def close(a: float, b: float, *, rel_tol: float = 0.01, decimals: int | None = None) -> bool:
    """Within ``rel_tol`` relative, or within half a unit of the last written decimal of ``a``."""
    a, b = abs(a), abs(b)
    if abs(a - b) <= rel_tol * max(a, b) + 1e-12:
        return True
    return bool(decimals) and a != 0 and abs(a - b) <= _window(a, rel_tol, decimals)


def written_among(claim: NumberToken, values: Iterable[float]) -> bool:
    """Whether ``claim`` is one of ``values`` as written, to the decimals it gives: no scale
    reading and no relative tolerance, unlike :class:`NumberIndex` (whose readings take a
    ratio of 1.75 for a table's "1,745" in millions, and "$10,682" for any scale)."""
    half = 0.5 * 10.0**-claim.decimals + 1e-9
    return any(abs(abs(value) - abs(claim.value)) <= half for value in values)


def _window(value: float, rel_tol: float, decimals: int | None) -> float:
    """Half-width of the interval of values ``close`` to ``value``."""
    width = abs(value) * rel_tol / (1 - rel_tol)
    if decimals and value != 0:
        # A writer who rounded to d decimals is right within half a unit (capped at 5%).
        width = max(width, min(0.5 * 10 ** (-decimals), 0.05 * abs(value)))
    return width + 1e-12


class NumberIndex:
    """Sorted magnitudes of every number on a page (all scale readings), for fast lookup."""

    def __init__(self, values: list[float]):
        self.values = sorted(set(values))

    @classmethod
    def from_text(cls, text: str) -> NumberIndex:
        return _index_for(text)

    def contains(self, value: float, width: float) -> bool:
        i = bisect.bisect_left(self.values, abs(value) - width)
        return i < len(self.values) and self.values[i] <= abs(value) + width

    def matches(self, claim: NumberToken, *, rel_tol: float = 0.01, rounding: bool = True) -> bool:
        """Is ``claim`` on this page under some scale reading of either side?"""
        written = abs(claim.value)
        for val in readings(claim):
            decimals = claim.decimals if rounding and val == written else None
            if self.contains(val, _window(val, rel_tol, decimals)):
                return True
        return False


@lru_cache(maxsize=1024)
def _index_for(text: str) -> NumberIndex:
    vals: list[float] = []
    for tok in _extract(text, False):
        vals.extend(readings(tok))
    return NumberIndex(vals)


def token_matches(
    claim: NumberToken, candidates: list[float], *, rel_tol: float = 0.01, rounding: bool = True
) -> bool:
    """Does ``claim`` equal any candidate value (as given) under some scale reading of it?"""
    return NumberIndex(candidates).matches(claim, rel_tol=rel_tol, rounding=rounding)
