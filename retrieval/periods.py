"""Reading fiscal years and quarters as people write them: one parser for the whole project.

Two uses. A value given for a filter (``--fy FY18``, ``--fq Q3``) is read whole by
:func:`parse_fy` / :func:`parse_fq`. Free text (a question, a search query) is scanned by
:func:`read_periods`: explicit years (``FY2022``, ``fiscal 2019``, ``FY18``, a bare ``2021``
but not ``$2019`` or ``2019%``), ranges (``FY2019-FY2021``, ``between 2019 and 2021``),
``since 2019``, ``the prior year``, ``last three years``, quarters (``Q3``, ``3Q23``,
``second quarter``), calendar dates (``May 26, 2023``, ``1st July 2022``: the quarter they
fall in), quarterly depth, and periods that cannot exist (``Q5``, ``FY1850``).
Relative periods are read here, not left to an LLM, because a regular expression cannot
resolve them against the wrong "today".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MIN_FY, MAX_FY = 1990, 2100

_FY_PREFIX = r"(?:fy|fiscal(?:\s+year)?)"
_FY = re.compile(rf"^\s*{_FY_PREFIX}?\s*'?(\d{{4}}|\d{{2}})\s*$", re.IGNORECASE)
_FQ = re.compile(r"^\s*(?:q|fq|quarter\s*)?([1-4])\s*$", re.IGNORECASE)

_YEAR = (
    rf"(?:\b{_FY_PREFIX}\s*'?(?:\d{{4}}|\d{{2}})\b"
    r"|(?<![\d$.,])(?:19|20)\d{2}(?![\d%]|[.,]\d))"
)
_YEAR_RE = re.compile(_YEAR, re.IGNORECASE)
_RANGE_RE = re.compile(
    rf"(?P<a>{_YEAR})\s*(?:-|–|—|to|through|thru|until)\s*(?P<b>{_YEAR}|\d{{2}}(?!\d))",
    re.IGNORECASE,
)
# "since 2019": every full FY from 2019 on. "versus the prior year": each year named and
# the one before it.
_SINCE_RE = re.compile(rf"\bsince\s+(?P<y>{_YEAR})", re.IGNORECASE)
_PRIOR_RE = re.compile(
    r"\b(?:prior|previous|preceding)\s+(?:fiscal\s+)?year\b|\byear\s+(?:before|earlier)\b",
    re.IGNORECASE,
)
_BETWEEN_RE = re.compile(rf"between\s+(?P<a>{_YEAR})\s+and\s+(?P<b>{_YEAR})", re.IGNORECASE)
# "Q3 23" / "3Q23": a two-digit year glued to a quarter.
_QUARTER_YEAR_RE = re.compile(r"\b(?:q[1-4]|[1-4]q)\s*'?(\d{2})\b", re.IGNORECASE)
_QUARTER_RE = re.compile(
    r"\b(?:f?q([1-4])|([1-4])q(?=\s*'?\d{2}\b|\b)|(first|second|third|fourth|1st|2nd|3rd|4th)"
    r"\s+(?:fiscal\s+)?quarter)",
    re.IGNORECASE,
)
_QUARTERLY_RE = re.compile(r"quarter|\bf?q[1-4]\b|\b[1-4]q(?:'?\d{2})?\b|\bdeep\b", re.IGNORECASE)
_LAST_N_RE = re.compile(
    r"\b(?:last|past|previous|prior|recent|latest)\s+(\d{1,2}|one|two|three|four|five|six|"
    r"seven|eight|nine|ten)\s+(?:fiscal\s+|full\s+)?years?\b",
    re.IGNORECASE,
)
_DEEP_RE = re.compile(
    r"\b(?:quarterly|quarter[- ]by[- ]quarter|each\s+quarter|every\s+quarter|by\s+quarter|"
    r"per\s+quarter|all\s+(?:four\s+)?quarters|deep[- ]dive|in\s+depth)\b",
    re.IGNORECASE,
)
# "Q5", "FQ0", "Q12": a quarter that does not exist (a typo the user should hear about).
_MONTHS = {
    name: n
    for n, names in enumerate(
        [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
         ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
         ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
         ("dec", "december")],
        1,
    )
    for name in names
}  # fmt: skip
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_DATE_RE = re.compile(
    rf"\b(?:(?P<m1>{_MONTH})\.?\s+{_DAY},?\s+(?:19|20)\d{{2}}"
    rf"|{_DAY}\s+(?:of\s+)?(?P<m2>{_MONTH})\.?,?\s+(?:19|20)\d{{2}})\b",
    re.IGNORECASE,
)
#: "the year ended June 30, 2023": a date that closes a period, not an event in a quarter.
_PERIOD_END_RE = re.compile(r"\b(?:ended|ending)\s*$", re.IGNORECASE)
_BAD_QUARTER_RE = re.compile(r"\bf?q(0|[5-9]|\d{2,})\b", re.IGNORECASE)
_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10,
}  # fmt: skip
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4,
}  # fmt: skip


def parse_fy(value: str | int) -> int:
    """``FY2018``, ``fiscal 2018``, ``FY18``, ``2018`` → 2018."""
    match = _FY.match(str(value))
    if not match:
        raise ValueError(f"cannot read a fiscal year from {value!r} (try FY2018 or 2018)")
    year = match.group(1)
    return int("20" + year) if len(year) == 2 else int(year)


def parse_fq(value: str | int) -> int:
    """``Q3``, ``FQ3``, ``3`` → 3."""
    match = _FQ.match(str(value))
    if not match:
        raise ValueError(f"cannot read a fiscal quarter from {value!r} (use Q1..Q4)")
    return int(match.group(1))


def _year_value(text: str) -> int:
    digits = re.search(r"\d+", text).group()
    return int("20" + digits) if len(digits) == 2 else int(digits)


@dataclass
class Periods:
    """The periods a text names."""

    fiscal_years: list[int] = field(default_factory=list)
    fiscal_quarters: list[int] = field(default_factory=list)
    last_n_years: int | None = None
    since_fy: int | None = None
    deep: bool = False
    invalid: list[str] = field(default_factory=list)  # periods that cannot exist, as messages
    #: Quarters that dated events fall in ("on May 26, 2023" -> 2), by the calendar: a
    #: filing dated in a quarter sits in that quarter's cell.
    date_quarters: list[int] = field(default_factory=list)


def date_quarters(text: str) -> list[int]:
    """The calendar quarters of the event dates ``text`` names (not "ended June 30, 2023")."""
    quarters = set()
    for m in _DATE_RE.finditer(text):
        if _PERIOD_END_RE.search(text[: m.start()]):
            continue
        month = _MONTHS[(m.group("m1") or m.group("m2")).lower()]
        quarters.add((month - 1) // 3 + 1)
    return sorted(quarters)


def mentioned_years(text: str) -> list[int]:
    """The years ``text`` writes out (no ranges or relative periods), 2000-2099, sorted."""
    years = {_year_value(m.group()) for m in _YEAR_RE.finditer(text)}
    return sorted(y for y in years if 2000 <= y <= 2099)


def speaks_of_quarters(text: str) -> bool:
    """Whether ``text`` mentions quarters at all (a quarter, ``Q3``, ``3Q23``, "deep")."""
    return _QUARTERLY_RE.search(text) is not None


def _years(text: str) -> set[int]:
    """Years named, ranges expanded, ``the prior year`` adding the year before each."""
    years: set[int] = set()
    spans: list[tuple[int, int]] = []
    for regex in (_BETWEEN_RE, _RANGE_RE):
        for m in regex.finditer(text):
            if any(s <= m.start() < e for s, e in spans):
                continue
            a, b = _year_value(m.group("a")), _year_value(m.group("b"))
            if len(re.sub(r"\D", "", m.group("b"))) == 2 and b < a:
                b = _year_value(str(a)[:2] + m.group("b")[-2:])
            lo, hi = min(a, b), max(a, b)
            if hi - lo <= 30:
                years.update(range(lo, hi + 1))
                spans.append((m.start(), m.end()))
    for m in _YEAR_RE.finditer(text):
        if not any(s <= m.start() < e for s, e in spans):
            years.add(_year_value(m.group()))
    for m in _QUARTER_YEAR_RE.finditer(text):
        years.add(2000 + int(m.group(1)))
    if years and _PRIOR_RE.search(text):
        years |= {y - 1 for y in years}
    return years


def read_periods(text: str) -> Periods:
    """Every period expression in ``text`` (see the module docstring)."""
    found = Periods()
    found.fiscal_years = sorted(y for y in _years(text) if MIN_FY <= y <= MAX_FY)
    if m := _SINCE_RE.search(text):
        found.since_fy = _year_value(m.group("y"))
    for m in _YEAR_RE.finditer(text):
        year = _year_value(m.group())
        if m.group()[0].isalpha() and not MIN_FY <= year <= MAX_FY:  # "FY1850", not "in 1950"
            found.invalid.append(
                f"FY{year} is outside the fiscal years this tool reads ({MIN_FY}-{MAX_FY})."
            )
    for m in _BAD_QUARTER_RE.finditer(text):
        found.invalid.append(f"{m.group()} is not a fiscal quarter (quarters are Q1-Q4).")
    quarters = set()
    for m in _QUARTER_RE.finditer(text):
        q = m.group(1) or m.group(2)
        quarters.add(int(q) if q else _ORDINALS[m.group(3).lower()])
    found.fiscal_quarters = sorted(quarters)
    if m := _LAST_N_RE.search(text):
        raw = m.group(1).lower()
        found.last_n_years = int(raw) if raw.isdigit() else _NUMBER_WORDS[raw]
    found.deep = bool(_DEEP_RE.search(text))
    found.date_quarters = date_quarters(text)
    return found
