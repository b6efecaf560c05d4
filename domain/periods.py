"""Reading fiscal years and quarters as people write them: the project's one period grammar.

Two uses. A value given for a filter (``--fy FY18``, ``--fq Q3``) is read whole by
:func:`parse_fy` / :func:`parse_fq` (:func:`parse_cell` reads a whole cell, ``FY2023 Q1``).
Free text (a question, a search query) is scanned by :func:`read_periods`:

- years: ``FY2022``, ``FY22``, ``FY 2022``, ``fiscal 2019``, ``fiscal year 2019``, a bare
  ``2021`` (not ``$2019`` or ``2019%``), ``in '22``, ``CY22``;
- a quarter with its year, in any order: ``Q2 FY2024``, ``Q2 of FY2024``, ``2Q24``,
  ``Q2'24``, ``Q22023``, ``FY2023Q1``, ``2023Q2``, ``second quarter of 2023``, ``2nd qtr 2023``,
  ``quarter ended June 30, 2023``, ``quarter ended June 2023``, ``the June 2023 quarter``,
  ``the September quarter of 2022`` (the calendar quarter the date or month closes), a
  date written in figures too (``quarter ended 6/30/2023``, ``2023-06-30``);
- a quarter alone (``Q3``, ``third quarter``), a run of them (``Q1-Q3 2023``), a count of
  the latest ones (``the last four quarters``; ``last quarter`` is a run of one), and
  quarterly depth (``each quarter``);
- year-to-date periods, which a 10-Q reports: ``H1``, ``1H23``, ``first half``, ``1st half``,
  ``half-year``, ``six months ended``, ``6M23``, ``the first two quarters`` -> the Q2 cell;
  ``nine months ended``, ``9M 2023``, ``the first three quarters`` -> Q3; ``YTD``
  with no quarter -> :attr:`Periods.year_to_date` (the figure is the year-to-date column);
  ``second half`` / ``H2`` -> the FY-level cell (Q4);
- a fiscal year written across the two calendar years it spans (``FY22/23``,
  ``fiscal 2022/2023``): the year it ends in, as the grid labels fiscal years;
- a year counted back from the latest one filed: ``last year``, ``the most recent fiscal
  year`` (the latest), ``the year before last``, ``three years ago``; and the trailing
  twelve months (``TTM``, ``LTM``, ``the last 12 months``): :attr:`Periods.trailing`;
- ranges (``FY2019-FY2021``, ``2019 through 2021``, ``between 2019 and 2021``),
  ``since 2019``, ``the prior year``, ``past three years``, ``the two most recent fiscal
  years``, ``the last couple of years``; ``historically`` with no count: three years (those
  a 10-K's income statement prints), ending in the year named, or the latest;
- a year written as its end (``the end of FY2022``, ``year-end 2022``):
  :attr:`Periods.year_ends`, its last cell even beside a quarter of another year;
- ``as of FY2022``: the vantage point; a later year the question names ("as of FY2021,
  what will it pay in 2024") is content read from that filing, not a period to research;
- trend words (``improving``, ``grew``, ``declined``, ``changed``, ``expanded``, ``rose``,
  ``fell``, ``trend``, ``year over year``, ``compared with the prior year``):
  :attr:`Periods.trend`, so the planner adds the prior period; ``quarter over quarter``,
  ``QoQ``, ``sequential``, ``the previous quarter``: :attr:`Periods.sequential`, so the
  prior period added is the quarter before, not the year-ago quarter;
- dated events (``on May 26, 2023``: the quarter it falls in) and periods that cannot
  exist (``Q5``, ``FY1850``, ``FY20222``, ``FY2O22``), reported rather than guessed.

Relative periods are read here, not by an LLM, which resolves them against the wrong
"today". Calendar dates map to calendar quarters; the planner reads them in each company's
own fiscal calendar (``in_company_calendar``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from domain.cells import SliceRef
from domain.fiscal_calendar import fiscal_cell
from domain.period_patterns import (
    AS_OF_END_RE,
    AS_OF_RE,
    BAD_QUARTER_RE,
    BETWEEN_RE,
    DATE_RE,
    DEEP_RE,
    FQ_WHOLE,
    FY_WHOLE,
    FY_WRITTEN_RE,
    HALF_WITH_YEAR_RE,
    HISTORICAL_RE,
    HISTORY_YEARS,
    LAST_N_QUARTERS_RE,
    LAST_N_RE,
    LATEST_QUARTER_RE,
    MONTH_QUARTER,
    MONTHS,
    NUMBER_WORDS,
    ORDINALS,
    PERIOD_END_RE,
    PRIOR_RE,
    QUARTER_END_RE,
    QUARTER_RANGE_RE,
    QUARTER_RE,
    QUARTER_WITH_YEAR,
    QUARTERLY_RE,
    RANGE_RE,
    RECENT_YEARS_RE,
    SEQUENTIAL_RE,
    SINCE_RE,
    SPLIT_YEAR_RE,
    TRAILING_RE,
    TREND_RE,
    YEAR_END_RE,
    YEAR_RE,
    YEAR_TO_DATE,
    YEARS_BACK_RE,
    YTD_RE,
)
from domain.written_dates import spelled_dates

MIN_FY, MAX_FY = 1990, 2100


@dataclass(frozen=True, order=True)
class Period:
    """A fiscal year (``fq is None``) or one fiscal quarter of it; ``to_date``: the year up
    to the end of that quarter ("the six months ended June 30": a 10-Q's year-to-date
    columns), not the quarter alone."""

    fy: int
    fq: int | None = None
    to_date: bool = False

    def shifted(self, years: int) -> Period:
        return Period(self.fy + years, self.fq, self.to_date)

    @property
    def label(self) -> str:
        """``FY2018`` or ``FY2023Q2`` (the calculator's reference syntax)."""
        return f"FY{self.fy}" if self.fq is None else f"FY{self.fy}Q{self.fq}"

    @property
    def name(self) -> str:
        """``FY2018`` or ``FY2023 Q2``, as reports and the grid page write it."""
        return f"FY{self.fy}" if self.fq is None else f"FY{self.fy} Q{self.fq}"


def slice_period(ref: SliceRef) -> Period:
    """A 10-K cell (Q4) is its fiscal year; a quarter cell is that quarter."""
    return Period(ref.fy, None if ref.fq == 4 else ref.fq)


def parse_fy(value: str | int) -> int:
    """``FY2018``, ``fiscal 2018``, ``FY18``, ``2018`` → 2018."""
    match = FY_WHOLE.match(str(value))
    if not match:
        raise ValueError(f"cannot read a fiscal year from {value!r} (try FY2018 or 2018)")
    year = match.group(1)
    return int("20" + year) if len(year) == 2 else int(year)


def parse_fq(value: str | int) -> int:
    """``Q3``, ``FQ3``, ``3`` → 3."""
    match = FQ_WHOLE.match(str(value))
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


def _count(raw: str) -> int:
    """``"3"``, ``"three"``, ``"couple of"`` -> the number."""
    raw = " ".join(raw.lower().split())
    return int(raw) if raw.isdigit() else NUMBER_WORDS[raw]


def _year_value(text: str) -> int:
    digits = re.search(r"\d+", text).group()
    return int("20" + digits) if len(digits) == 2 else int(digits)


@dataclass
class Periods:
    """The periods a text names."""

    fiscal_years: list[int] = field(default_factory=list)
    fiscal_quarters: list[int] = field(default_factory=list)
    last_n_years: int | None = None
    #: "the last four quarters": that many quarters back from the latest one filed.
    last_n_quarters: int | None = None
    #: "last year" 0, "the year before last" 1, "three years ago" 2: fiscal years counted
    #: back from the latest the filings report (the planner's anchor, not the calendar's).
    years_back: list[int] = field(default_factory=list)
    #: "TTM", "the last twelve months": the twelve months to the latest quarter filed.
    trailing: bool = False
    #: Asks for the year so far ("YTD", "H1", "six months ended …", "nine months ended …"):
    #: a 10-Q's year-to-date columns. With no quarter named ("YTD 2023"), the planner takes
    #: the latest filing of the year.
    year_to_date: bool = False
    since_fy: int | None = None
    deep: bool = False
    invalid: list[str] = field(default_factory=list)  # periods that cannot exist, as messages
    #: Quarters that dated events fall in ("on May 26, 2023" -> 2): a filing's cell.
    date_quarters: list[int] = field(default_factory=list)
    #: The text asks how something moved (improving, grew, year over year): the planner adds
    #: the prior period so both figures, and the change, can be cited.
    trend: bool = False
    #: The move asked about is from the quarter before ("quarter over quarter", "sequential"),
    #: not from the year before: the planner adds the prior quarter instead.
    sequential: bool = False
    #: ``(fy, fq)`` written together: :func:`domain.quarter_pairs.paired_cells`.
    quarter_cells: list[tuple[int, int]] = field(default_factory=list)
    #: Years written as their end ("the end of FY2022"): that year's last cell, whatever
    #: quarter another year is written with.
    year_ends: list[int] = field(default_factory=list)


def _date_parts(m: re.Match[str]) -> tuple[int, int, int]:
    """``(year, month, day)`` of a :data:`DATE_RE` match."""
    month = MONTHS[(m.group("m1") or m.group("m2")).lower()]
    day = int(re.search(r"\b\d{1,2}(?!\d)", m.group()).group())
    return int(re.findall(r"(?:19|20)\d{2}", m.group())[-1]), month, day


def date_quarters(text: str) -> list[int]:
    """The calendar quarters of the event dates ``text`` names (not "ended June 30, 2023")."""
    quarters = set()
    for m in DATE_RE.finditer(text):
        if PERIOD_END_RE.search(text[: m.start()]) or AS_OF_END_RE.search(text[: m.start()]):
            continue
        quarters.add((_date_parts(m)[1] - 1) // 3 + 1)
    return sorted(quarters)


def mentioned_years(text: str) -> list[int]:
    """The years ``text`` writes out (no ranges or relative periods), 2000-2099, sorted."""
    years = {_year_value(m.group()) for m in YEAR_RE.finditer(text)}
    years |= {fy for fy, _ in _quarters_with_years(text)[0]}
    return sorted(y for y in years if 2000 <= y <= 2099)


def speaks_of_quarters(text: str) -> bool:
    """Whether ``text`` mentions quarters at all (a quarter, ``Q3``, ``3Q23``, "deep", H1)."""
    return QUARTERLY_RE.search(text) is not None or bool(_year_to_date_quarters(text))


def speaks_of_recent_years(text: str) -> bool:
    """Whether ``text`` asks about a run of recent years ("the past few years", "the last
    three fiscal years"): only then may a model's count of years stand."""
    return RECENT_YEARS_RE.search(text) is not None


def speaks_of_trend(text: str) -> bool:
    """Whether ``text`` asks how something moved (see :attr:`Periods.trend`)."""
    return TREND_RE.search(text) is not None


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


def _to_date_quarter(m: re.Match[str]) -> int:
    """The quarter whose filing reports a :data:`HALF_WITH_YEAR_RE` match: the first half
    and six months in Q2's, nine months in Q3's, the second half in the annual filing's."""
    if months := m.group("months"):
        return int(months) // 3
    return 2 if (m.group("h") or m.group("h2")) == "1" else 4


def _quarters_with_years(text: str) -> tuple[list[tuple[int, int]], str]:
    """``(fy, fq)`` pairs written together, and ``text`` with their spans blanked."""
    cells: list[tuple[int, int]] = []
    for regex in QUARTER_WITH_YEAR:
        for m in regex.finditer(text):
            q = m.group("q") if "q" in regex.groupindex else None
            quarter = int(q) if q else ORDINALS[m.group("ord").lower()]
            cells.append((_year_value(m.group("y")), quarter))
            text = _blank(text, m.start(), m.end())
    for regex in MONTH_QUARTER:
        for m in regex.finditer(text):
            month = MONTHS[m.group("m").lower()]
            cells.append((int(m.group("y")), (month - 1) // 3 + 1))
            text = _blank(text, m.start(), m.end())
    for m in HALF_WITH_YEAR_RE.finditer(text):
        cells.append((_year_value(m.group("y")), _to_date_quarter(m)))
        text = _blank(text, m.start(), m.end())
    for m in DATE_RE.finditer(text):
        if QUARTER_END_RE.search(text[: m.start()]) or AS_OF_END_RE.search(text[: m.start()]):
            year, month, _ = _date_parts(m)
            cells.append((year, (month - 1) // 3 + 1))
    return cells, text


def _year_to_date_quarters(text: str) -> set[int]:
    return {q for regex, q in YEAR_TO_DATE if regex.search(text)}


def _years(text: str) -> set[int]:
    """Years named, ranges expanded, ``the prior year`` adding the year before each."""
    years: set[int] = set()
    spans: list[tuple[int, int]] = []
    for regex in (BETWEEN_RE, RANGE_RE):
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
    for m in YEAR_RE.finditer(text):
        if not any(s <= m.start() < e for s, e in spans):
            years.add(_year_value(m.group()))
    return years


def _years_back(text: str) -> list[int]:
    """The years ``text`` names by counting back from the latest filed (see
    :attr:`Periods.years_back`), sorted."""
    backs = set()
    for m in YEARS_BACK_RE.finditer(text):
        if m.group("before"):
            backs.add(1)
        elif count := m.group("n"):
            backs.add(0 if count.lower() == "a" else max(_count(count) - 1, 0))
        else:
            backs.add(0)
    return sorted(backs)


def _as_of_year(text: str) -> int | None:
    """The year an ``as of`` names (``as of FY2022``, ``as of Q2 of FY2023``), if any."""
    for m in AS_OF_RE.finditer(text):
        window = text[m.end() : m.end() + 40]
        for regex in (*QUARTER_WITH_YEAR, HALF_WITH_YEAR_RE):
            if period := regex.match(window):
                return _year_value(period.group("y"))
        if period := DATE_RE.match(window):
            return int(re.findall(r"(?:19|20)\d{2}", period.group())[-1])
        if period := YEAR_RE.match(window):
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

    text = spelled_dates(text)
    for m in reversed(list(DATE_RE.finditer(text))):
        if QUARTER_END_RE.search(text[: m.start()]) or AS_OF_END_RE.search(text[: m.start()]):
            text = text[: m.start()] + fiscal(*_date_parts(m)) + text[m.end() :]
    for regex in MONTH_QUARTER:  # a month's last week stands for its end
        text = regex.sub(
            lambda m: f"quarter {fiscal(int(m.group('y')), MONTHS[m.group('m').lower()], 28)}",
            text,
        )
    return text


def read_periods(text: str) -> Periods:
    """Every period expression in ``text`` (see the module docstring)."""
    found = Periods()
    text = text.replace("\u2013", "-").replace("\u2014", "-").replace("\u2019", "'")
    text = SPLIT_YEAR_RE.sub(_split_year, spelled_dates(text))
    cells, rest = _quarters_with_years(text)
    years = _years(rest) | {fy for fy, _ in cells}
    if years and PRIOR_RE.search(rest):
        years |= {y - 1 for y in years}
    if (anchor := _as_of_year(text)) is not None:
        years = {y for y in years if y <= anchor}  # later years are content, not periods
    found.fiscal_years = sorted(y for y in years if MIN_FY <= y <= MAX_FY)
    if m := SINCE_RE.search(rest):
        found.since_fy = _year_value(m.group("y"))
    for m in YEAR_RE.finditer(rest):
        year = _year_value(m.group())
        if m.group()[0].isalpha() and not MIN_FY <= year <= MAX_FY:  # "FY1850", not "in 1950"
            found.invalid.append(
                f"FY{year} is outside the fiscal years this tool reads ({MIN_FY}-{MAX_FY})."
            )
    for m in BAD_QUARTER_RE.finditer(rest):
        found.invalid.append(f"{m.group()} is not a fiscal quarter (quarters are Q1-Q4).")
    for m in FY_WRITTEN_RE.finditer(rest):
        if not (m.group("y").isdigit() and len(m.group("y")) in (2, 4)):
            written = " ".join(m.group().split())
            found.invalid.append(f"{written} is not a fiscal year (write one as FY2022 or FY22).")
    quarters = {fq for fy, fq in cells if fy in years}
    for m in QUARTER_RE.finditer(rest):
        q = m.group(1) or m.group(2)
        quarters.add(int(q) if q else ORDINALS[m.group(3).lower()])
    quarters |= _year_to_date_quarters(rest)
    for m in QUARTER_RANGE_RE.finditer(text):
        quarters |= set(range(int(m.group(1)), int(m.group(2)) + 1))
    found.fiscal_quarters = sorted(quarters)
    if m := LAST_N_RE.search(rest):
        found.last_n_years = _count(m.group(1) or m.group(2))
    elif HISTORICAL_RE.search(rest) and not quarters and len(found.fiscal_years) <= 1:
        # "historically, as of FY2022": that year and the two before it, as its 10-K prints
        last = found.fiscal_years[-1] if found.fiscal_years else None
        if last is None:
            found.last_n_years = HISTORY_YEARS
        else:
            found.fiscal_years = list(range(last - HISTORY_YEARS + 1, last + 1))
    if m := LAST_N_QUARTERS_RE.search(rest):
        found.last_n_quarters = _count(m.group(1) or m.group(2))
    elif not quarters and not SEQUENTIAL_RE.search(text) and LATEST_QUARTER_RE.search(rest):
        found.last_n_quarters = 1
    found.years_back = _years_back(rest)
    found.trailing = TRAILING_RE.search(rest) is not None
    to_date = any(_to_date_quarter(m) in (2, 3) for m in HALF_WITH_YEAR_RE.finditer(text))
    found.year_to_date = bool(
        YTD_RE.search(text) or _year_to_date_quarters(text) & {2, 3} or to_date
    )
    found.deep = bool(DEEP_RE.search(rest))
    found.date_quarters = date_quarters(text)
    found.sequential = SEQUENTIAL_RE.search(text) is not None
    found.quarter_cells = sorted({c for c in cells if c[0] in found.fiscal_years})
    ends = (_year_value(m["y"] or m["y2"]) for m in YEAR_END_RE.finditer(rest))
    found.year_ends = sorted({y for y in ends if y in found.fiscal_years})
    found.trend = found.sequential or speaks_of_trend(text)
    return found


def one_fiscal_period(text: str) -> tuple[int, int | None]:
    """``(fy, fq)`` of a text naming one fiscal year and at most one quarter ("FY2023 Q2",
    "Q2 2023", "FY2022": ``fq`` None); ``ValueError`` for anything else (a range, no year),
    saying what a period looks like. The run's period (``--period``) is read with it."""
    asked = read_periods(text)
    years, quarters = sorted(set(asked.fiscal_years)), sorted(set(asked.fiscal_quarters))
    if len(years) != 1 or len(quarters) > 1:
        raise ValueError("not one fiscal year or quarter (e.g. FY2023 Q2)")
    return years[0], (quarters[0] if quarters else None)
