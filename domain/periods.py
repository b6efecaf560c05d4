"""Reading fiscal years and quarters as people write them: the project's one period grammar.

Two uses. A value given for a filter (``--fy FY18``, ``--fq Q3``) is read whole by
:func:`parse_fy` / :func:`parse_fq` (:func:`parse_cell` reads a whole cell, ``FY2023 Q1``).
Free text (a question, a search query) is scanned by :func:`read_periods`:

- years: ``FY2022``, ``FY22``, ``FY 2022``, ``fiscal 2019``, ``fiscal year 2019``, a bare
  ``2021`` (not ``$2019`` or ``2019%``);
- a quarter with its year, in any order: ``Q2 FY2024``, ``Q2 of FY2024``, ``2Q24``,
  ``Q2'24``, ``Q22023``, ``FY2023Q1``, ``2023Q2``, ``second quarter of 2023``,
  ``quarter ended June 30, 2023``, ``quarter ended June 2023``, ``the June 2023 quarter``,
  ``the September quarter of 2022`` (the calendar quarter the date or month closes);
- a quarter alone (``Q3``, ``third quarter``), a run of them (``Q1-Q3 2023``), and
  quarterly depth (``each quarter``);
- year-to-date periods, which a 10-Q reports: ``H1``, ``1H23``, ``first half``,
  ``half-year``, ``six months ended`` -> the Q2 cell; ``nine months ended`` -> Q3;
  ``second half`` / ``H2`` -> the FY-level cell (Q4);
- a fiscal year written across the two calendar years it spans (``FY22/23``,
  ``fiscal 2022/2023``): the year it ends in, as the grid labels fiscal years;
- ranges (``FY2019-FY2021``, ``2019 through 2021``, ``between 2019 and 2021``),
  ``since 2019``, ``the prior year``, ``past three years``;
- ``as of FY2022``: the vantage point; a later year the question names ("as of FY2021,
  what will it pay in 2024") is content read from that filing, not a period to research;
- trend words (``improving``, ``grew``, ``declined``, ``changed``, ``trend``, ``year over
  year``, ``compared with the prior year``): :attr:`Periods.trend`, so the planner adds
  the prior period;
- dated events (``on May 26, 2023``: the quarter it falls in) and periods that cannot
  exist (``Q5``, ``FY1850``, ``FY20222``, ``FY2O22``), reported rather than guessed.

Relative periods are read here, not left to an LLM, because a regular expression cannot
resolve them against the wrong "today". Calendar dates map to calendar quarters; a
company whose fiscal year ends off December keeps its own fiscal-year labels in the grid,
and the planner's nearest-cell rule covers a date that lands in a neighbouring cell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from domain.fiscal_calendar import fiscal_cell

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
#: ``FY22/23``: one fiscal year across two calendar years (checked to be consecutive).
_SPLIT_YEAR_RE = re.compile(rf"(?P<a>{_YEAR})\s*/\s*'?(?P<b>\d{{4}}|\d{{2}})(?!\d)", re.IGNORECASE)
_QUARTER_RE = re.compile(
    r"\b(?:f?q([1-4])|([1-4])q(?=\s*'?\d{2}\b|\b)|(first|second|third|fourth|1st|2nd|3rd|4th)"
    r"\s+(?:fiscal\s+)?quarter)",
    re.IGNORECASE,
)
#: "Q1-Q3 2023", "Q2 through Q4": every quarter between the two.
_QUARTER_RANGE_RE = re.compile(
    r"\bf?q([1-4])\s*(?:-|to|through|thru)\s*f?q([1-4])\b", re.IGNORECASE
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
# A year written after "FY" / "fiscal" that is no year: "FY20222", "fiscal 202", "FY2O22"
# (a letter O among the digits). Read as no period, it would be answered for the latest.
_FY_WRITTEN_RE = re.compile(rf"\b{_FY_PREFIX}\s*'?(?P<y>\d[\do]*)\b", re.IGNORECASE)
_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10,
}  # fmt: skip
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4,
}  # fmt: skip


# -- a quarter written with its year ----------------------------------------------------
_Y4 = r"(?:19|20)\d{2}"
_YY = rf"(?:{_Y4}|\d{{2}})"
_ORDINAL = r"(?P<ord>first|second|third|fourth|1st|2nd|3rd|4th)"
#: Each pattern names the quarter ``q`` (or ``ord``) and the year ``y``; the first that
#: matches a span wins, and the span is blanked before years and quarters are read alone.
_QUARTER_WITH_YEAR = [
    re.compile(p, re.IGNORECASE)
    for p in (
        # FY2023Q1, FY23 Q1, FY2023-Q1, fiscal 2023 Q1
        rf"\b{_FY_PREFIX}\s*'?(?P<y>{_YY})\s*[-/]?\s*f?q(?P<q>[1-4])\b",
        # Q2 FY2024, Q2 of FY2024, Q2 of fiscal 2024, Q2'24, Q22023, Q2 2023, Q2-23
        rf"\bf?q(?P<q>[1-4])\s*(?:(?:of|in)\s+)?(?:{_FY_PREFIX}\s*)?[-/']?\s*(?P<y>{_YY})(?![\w-])"
        rf"(?![.,]\d|\s*(?:%|percent|million|billion|thousand))",
        # 2Q24, 2Q 2024, 2QFY24
        rf"\b(?P<q>[1-4])q\s*(?:fy\s*)?'?(?P<y>{_YY})\b",
        # 2023Q2, 2021 Q1, 2023-Q2
        rf"(?<![\d$.,])(?P<y>{_Y4})\s*[-/]?\s*f?q(?P<q>[1-4])\b",
        # second quarter of 2023, third fiscal quarter of fiscal 2023, 2nd quarter FY23
        rf"\b{_ORDINAL}\s+(?:fiscal\s+)?quarter\s+(?:(?:of|in)\s+)?(?:the\s+)?"
        rf"(?:{_FY_PREFIX}\s*)?'?(?P<y>{_YY})\b",
    )
]
#: A quarter named by the month it ends, without a day: "the quarter ended March 2023",
#: "the June 2023 quarter", "the September quarter of 2022" (the calendar quarter, as a
#: dated quarter end is read).
_MONTH_QUARTER = [
    re.compile(p, re.IGNORECASE)
    for p in (
        rf"\b(?:quarter|three[- ]months?|3[- ]months?)\s+(?:ended|ending)\s+(?:in\s+)?"
        rf"(?P<m>{_MONTH})\.?,?\s+(?P<y>{_Y4})\b",
        rf"\b(?P<m>{_MONTH})\.?\s+(?P<y>{_Y4})\s+quarter\b",
        rf"\b(?P<m>{_MONTH})\.?\s+quarter\s+(?:(?:of|in)\s+)?(?:{_FY_PREFIX}\s*)?(?P<y>{_Y4})\b",
    )
]
# -- year-to-date and half-year periods: a 10-Q's year-to-date columns ------------------
_HALF_WITH_YEAR_RE = re.compile(
    rf"\b(?:h(?P<h>[12])|(?P<h2>[12])h)\s*(?:{_FY_PREFIX}\s*)?[-']?\s*(?P<y>{_YY})\b", re.IGNORECASE
)
#: (pattern, quarter cell): H1 and the first six months are reported in the Q2 10-Q, nine
#: months in the Q3 10-Q, the second half only in the annual filing.
_YEAR_TO_DATE = [
    (re.compile(p, re.IGNORECASE), q)
    for p, q in (
        (r"\bh1\b|\b1h\b|\bfirst[- ]half\b|\bhalf[- ]year(?:ly)?\b|\binterim\s+period\b", 2),
        (r"\b(?:first\s+)?(?:six|6)[- ]months?\b(?=\s+(?:ended|ending|of|to)|\s*$)", 2),
        (r"\bfirst\s+(?:six|6)[- ]months?\b", 2),
        (r"\b(?:first\s+)?(?:nine|9)[- ]months?\b(?=\s+(?:ended|ending|of|to)|\s*$)", 3),
        (r"\bfirst\s+(?:nine|9)[- ]months?\b", 3),
        (r"\bh2\b|\b2h\b|\bsecond[- ]half\b", 4),
    )
]
#: "quarter ended June 30, 2023": the quarter the date closes (a year end names no quarter).
_QUARTER_END_RE = re.compile(
    r"\b(?:quarter|three[- ]months?|3[- ]months?|six[- ]months?|6[- ]months?|nine[- ]months?|"
    r"9[- ]months?|period|half[- ]year)\s+(?:ended|ending)\s+(?:on\s+)?$",
    re.IGNORECASE,
)
_AS_OF = r"\bas\s+of\s+(?:the\s+)?(?:(?:end|close)\s+of\s+(?:the\s+)?)?"
_AS_OF_RE = re.compile(_AS_OF, re.IGNORECASE)
_AS_OF_END_RE = re.compile(_AS_OF + "$", re.IGNORECASE)
_TREND_RE = re.compile(
    r"\b(?:improv(?:e|es|ed|ing|ement)|grow(?:s|n|ing|th)?|grew|declin(?:e|es|ed|ing)|"
    r"(?:in|de)creas(?:e|es|ed|ing)|chang(?:e|es|ed|ing)|trend(?:s|ed|ing)?|"
    r"deteriorat(?:e|es|ed|ing)|year[- ]over[- ]year|yoy|y/y|"
    r"(?:compared?|relative)\s+(?:with|to)\s+(?:the\s+)?(?:prior|previous|preceding|last)\s+"
    r"(?:fiscal\s+)?year)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, order=True)
class Period:
    """A fiscal year (``fq is None``) or one fiscal quarter of it."""

    fy: int
    fq: int | None = None

    def shifted(self, years: int) -> Period:
        return Period(self.fy + years, self.fq)

    @property
    def label(self) -> str:
        """``FY2018`` or ``FY2023Q2`` (the calculator's reference syntax)."""
        return f"FY{self.fy}" if self.fq is None else f"FY{self.fy}Q{self.fq}"

    @property
    def name(self) -> str:
        """``FY2018`` or ``FY2023 Q2``, as reports and the grid page write it."""
        return f"FY{self.fy}" if self.fq is None else f"FY{self.fy} Q{self.fq}"


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


def parse_cell(value: str) -> tuple[int, int | None]:
    """One period written whole (``FY2023 Q1``, ``2Q24``, ``H1 FY2023``, ``FY2022``) →
    ``(fy, fq)``, ``fq`` None for a year alone. Raises ValueError unless exactly one year
    and at most one quarter are named."""
    found = read_periods(value)
    if found.invalid:
        raise ValueError(" ".join(found.invalid))
    if len(found.fiscal_years) != 1 or len(found.fiscal_quarters) > 1:
        raise ValueError(f"cannot read one period from {value!r} (try FY2023, Q2 FY2024 or 2Q24)")
    return found.fiscal_years[0], (found.fiscal_quarters or [None])[0]


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
    #: The text asks how something moved (improving, grew, year over year): the planner adds
    #: the prior period so both figures, and the change, can be cited.
    trend: bool = False


def date_quarters(text: str) -> list[int]:
    """The calendar quarters of the event dates ``text`` names (not "ended June 30, 2023")."""
    quarters = set()
    for m in _DATE_RE.finditer(text):
        if _PERIOD_END_RE.search(text[: m.start()]) or _AS_OF_END_RE.search(text[: m.start()]):
            continue
        month = _MONTHS[(m.group("m1") or m.group("m2")).lower()]
        quarters.add((month - 1) // 3 + 1)
    return sorted(quarters)


def mentioned_years(text: str) -> list[int]:
    """The years ``text`` writes out (no ranges or relative periods), 2000-2099, sorted."""
    years = {_year_value(m.group()) for m in _YEAR_RE.finditer(text)}
    years |= {fy for fy, _ in _quarters_with_years(text)[0]}
    return sorted(y for y in years if 2000 <= y <= 2099)


def speaks_of_quarters(text: str) -> bool:
    """Whether ``text`` mentions quarters at all (a quarter, ``Q3``, ``3Q23``, "deep", H1)."""
    return _QUARTERLY_RE.search(text) is not None or bool(_year_to_date_quarters(text))


_RECENT_YEARS_RE = re.compile(
    r"\b(?:last|past|previous|prior|recent|latest|over)\s+(?:\w+\s+){0,2}(?:fiscal\s+)?years\b",
    re.IGNORECASE,
)


def speaks_of_recent_years(text: str) -> bool:
    """Whether ``text`` asks about a run of recent years ("the past few years", "the last
    three fiscal years"): only then may a model's count of years stand."""
    return _RECENT_YEARS_RE.search(text) is not None


def speaks_of_trend(text: str) -> bool:
    """Whether ``text`` asks how something moved (see :attr:`Periods.trend`)."""
    return _TREND_RE.search(text) is not None


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


def _quarters_with_years(text: str) -> tuple[list[tuple[int, int]], str]:
    """``(fy, fq)`` pairs written together, and ``text`` with their spans blanked."""
    cells: list[tuple[int, int]] = []
    for regex in _QUARTER_WITH_YEAR:
        for m in regex.finditer(text):
            q = m.group("q") if "q" in regex.groupindex else None
            quarter = int(q) if q else _ORDINALS[m.group("ord").lower()]
            cells.append((_year_value(m.group("y")), quarter))
            text = _blank(text, m.start(), m.end())
    for regex in _MONTH_QUARTER:
        for m in regex.finditer(text):
            month = _MONTHS[m.group("m").lower()]
            cells.append((int(m.group("y")), (month - 1) // 3 + 1))
            text = _blank(text, m.start(), m.end())
    for m in _HALF_WITH_YEAR_RE.finditer(text):
        half = int(m.group("h") or m.group("h2"))
        cells.append((_year_value(m.group("y")), 2 if half == 1 else 4))
        text = _blank(text, m.start(), m.end())
    for m in _DATE_RE.finditer(text):
        if _QUARTER_END_RE.search(text[: m.start()]) or _AS_OF_END_RE.search(text[: m.start()]):
            month = _MONTHS[(m.group("m1") or m.group("m2")).lower()]
            year = int(re.findall(r"(?:19|20)\d{2}", m.group())[-1])
            cells.append((year, (month - 1) // 3 + 1))
    return cells, text


def _year_to_date_quarters(text: str) -> set[int]:
    return {q for regex, q in _YEAR_TO_DATE if regex.search(text)}


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
    return years


def _as_of_year(text: str) -> int | None:
    """The year an ``as of`` names (``as of FY2022``, ``as of Q2 of FY2023``), if any."""
    for m in _AS_OF_RE.finditer(text):
        window = text[m.end() : m.end() + 40]
        for regex in (*_QUARTER_WITH_YEAR, _HALF_WITH_YEAR_RE):
            if period := regex.match(window):
                return _year_value(period.group("y"))
        if period := _DATE_RE.match(window):
            return int(re.findall(r"(?:19|20)\d{2}", period.group())[-1])
        if period := _YEAR_RE.match(window):
            return _year_value(period.group())
    return None


def _split_year(m: re.Match[str]) -> str:
    """``FY22/23`` as ``FY2023``; two years that do not follow each other stay as written."""
    a, raw = _year_value(m.group("a")), m.group("b")
    b = int(raw) if len(raw) == 4 else a // 100 * 100 + int(raw)  # "2022/23": 2023
    if len(raw) == 2 and b <= a:  # "1999/00": 2000
        b += 100
    return f"FY{b}" if b == a + 1 else m.group()


def in_fiscal_terms(text: str, fiscal_year_end: str | None) -> str:
    """``text`` with each quarter end it dates written as the company's fiscal quarter, for
    :func:`read_periods`, which reads a date by the calendar, not knowing whose it is: "the
    quarter ended November 30, 2023" -> "the quarter ended Q2 FY2024" for Nike, whose year
    ends in May; "as of July 2, 2023" -> "as of Q2 FY2023" for a 52/53-week December year."""

    def fiscal(year: int, month: int, day: int) -> str:
        fy, fq = fiscal_cell(year, month, day, fiscal_year_end)
        return f"Q{fq} FY{fy}"

    for m in reversed(list(_DATE_RE.finditer(text))):
        if _QUARTER_END_RE.search(text[: m.start()]) or _AS_OF_END_RE.search(text[: m.start()]):
            month = _MONTHS[(m.group("m1") or m.group("m2")).lower()]
            day = int(re.search(r"\b\d{1,2}(?!\d)", m.group()).group())
            year = int(re.findall(r"(?:19|20)\d{2}", m.group())[-1])
            text = text[: m.start()] + fiscal(year, month, day) + text[m.end() :]
    for regex in _MONTH_QUARTER:  # a month's last week stands for its end
        text = regex.sub(
            lambda m: f"quarter {fiscal(int(m.group('y')), _MONTHS[m.group('m').lower()], 28)}",
            text,
        )
    return text


def read_periods(text: str) -> Periods:
    """Every period expression in ``text`` (see the module docstring)."""
    found = Periods()
    text = text.replace("\u2013", "-").replace("\u2014", "-").replace("\u2019", "'")
    text = _SPLIT_YEAR_RE.sub(_split_year, text)
    cells, rest = _quarters_with_years(text)
    years = _years(rest) | {fy for fy, _ in cells}
    if years and _PRIOR_RE.search(rest):
        years |= {y - 1 for y in years}
    if (anchor := _as_of_year(text)) is not None:
        years = {y for y in years if y <= anchor}  # later years are content, not periods
    found.fiscal_years = sorted(y for y in years if MIN_FY <= y <= MAX_FY)
    if m := _SINCE_RE.search(rest):
        found.since_fy = _year_value(m.group("y"))
    for m in _YEAR_RE.finditer(rest):
        year = _year_value(m.group())
        if m.group()[0].isalpha() and not MIN_FY <= year <= MAX_FY:  # "FY1850", not "in 1950"
            found.invalid.append(
                f"FY{year} is outside the fiscal years this tool reads ({MIN_FY}-{MAX_FY})."
            )
    for m in _BAD_QUARTER_RE.finditer(rest):
        found.invalid.append(f"{m.group()} is not a fiscal quarter (quarters are Q1-Q4).")
    for m in _FY_WRITTEN_RE.finditer(rest):
        if not (m.group("y").isdigit() and len(m.group("y")) in (2, 4)):
            written = " ".join(m.group().split())
            found.invalid.append(f"{written} is not a fiscal year (write one as FY2022 or FY22).")
    quarters = {fq for fy, fq in cells if fy in years}
    for m in _QUARTER_RE.finditer(rest):
        q = m.group(1) or m.group(2)
        quarters.add(int(q) if q else _ORDINALS[m.group(3).lower()])
    quarters |= _year_to_date_quarters(rest)
    for m in _QUARTER_RANGE_RE.finditer(text):
        quarters |= set(range(int(m.group(1)), int(m.group(2)) + 1))
    found.fiscal_quarters = sorted(quarters)
    if m := _LAST_N_RE.search(rest):
        raw = m.group(1).lower()
        found.last_n_years = int(raw) if raw.isdigit() else _NUMBER_WORDS[raw]
    found.deep = bool(_DEEP_RE.search(rest))
    found.date_quarters = date_quarters(text)
    found.trend = speaks_of_trend(text)
    return found
