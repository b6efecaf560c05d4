"""What a statement table's columns are: their dates or years, their durations, the scale.

Read from the header text PyMuPDF prints above the first row: years on lines of their
own or in dates (``June 30, 2023``, ``6/17/2023``), duration phrases in column order
(``Three Months Ended`` ... ``Six Months Ended``; ``12 Weeks Ended``; ``Years ended``),
and scale words (``(Millions)``, ``in thousands, except per share data``). When the
header does not say enough to place every column, the table yields no facts: a missing
fact is a refusal downstream, a misplaced one would be a wrong number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_MONTHS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
    "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}  # fmt: skip
_MONTH = (
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)(?:uary|ruary|ch|il|e|y|ust|t|tember"
    r"|ober|ember)?\.?(?![a-z])"
)
_FULL_DATE = re.compile(_MONTH + r"\s*(\d{1,2})?\s*,?\s*((?:19|20)\d\d)\b", re.IGNORECASE)
_NUMERIC_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})/((?:19|20)?\d\d)\b")
_MONTH_MENTION = re.compile(_MONTH)

_SCALES = (("billion", 1e9), ("million", 1e6), ("thousand", 1e3))
_SCALE_WORD = re.compile(r"\b(billion|million|thousand)s?\b|\(000'?s\)|\$000s?\b")
#: A figure just before a scale word, "$2.8 billion" or "1.5 million": an amount, not a
#: unit. A bare integer is left alone: it may be the last year of a header joined into one
#: line before "Millions".
_AMOUNT_BEFORE = re.compile(r"(?:\$\s*\d[\d,.]*|\d+\.\d+)\s*$")

#: Duration phrases; weeks are classed by count (a retailer's quarter is 12-17 weeks).
_DURATION = re.compile(
    r"\b(three|six|nine|twelve|3|6|9|12)[\s-]+months?\b"
    r"|\b(\d{1,2})[\s-]+weeks?\b"
    r"|\b(quarters?|years?|fiscal)\s+(?:ended|ending)\b"
    r"|\b(fourth|first|second|third)\s+quarter\b"
)
#: Header words of columns that compare periods rather than report one.
_CHANGE = re.compile(r"inc\.?\s*/\s*\(?dec|increase|change|variance|%|percent", re.IGNORECASE)
#: Columns of shares ("Percent to Sales") interleaved with amounts: not trimmed.
_SHARE_OF = re.compile(r"(?:to|of) (?:net )?(?:sales|revenues?)", re.IGNORECASE)
_MONTH_COUNT = {"three": 3, "six": 6, "nine": 9, "twelve": 12}


@dataclass(frozen=True)
class Column:
    """One value column: the year it ends in, the month if printed, and its duration."""

    year: int
    month: int | None
    duration: str | None  # "year" | "quarter" | "ytd" | None (header does not say)
    header: str  # as printed: "2018", "June 30, 2023", "12 Weeks Ended 6/17/2023"


def _year(text: str) -> int:
    year = int(text)
    return year + 2000 if year < 100 else year


def header_dates(text: str) -> list[tuple[int, int | None, str]]:
    """(year, month, printed) of each full date in a header, in order."""
    found = []
    for match in _FULL_DATE.finditer(text):
        found.append((match.start(), _year(match[3]), _MONTHS[match[1].lower()], match[0].strip()))
    for match in _NUMERIC_DATE.finditer(text):
        month = int(match[1])
        if 1 <= month <= 12:
            found.append((match.start(), _year(match[3]), month, match[0]))
    return [(y, m, printed) for _, y, m, printed in sorted(found)]


def durations(text: str, count: int) -> list[str | None] | None:
    """The duration of each of ``count`` columns from the header's phrases, in order.

    No phrase: every column is ``None``. Phrases that do not divide the columns evenly
    (and are not all the same): None, the header cannot be read.
    """
    kinds = []
    for match in _DURATION.finditer(text.lower()):
        months, weeks, ended, ordinal = match.groups()
        if months:
            n = _MONTH_COUNT.get(months) or int(months)
            kinds.append("quarter" if n == 3 else "year" if n == 12 else "ytd")
        elif weeks:
            n = int(weeks)
            kinds.append("quarter" if n <= 17 else "year" if n >= 52 else "ytd")
        elif ended:
            kinds.append("quarter" if ended.startswith("quarter") else "year")
        elif ordinal:
            kinds.append("quarter")
    if not kinds:
        return [None] * count
    if len(set(kinds)) == 1:
        return [kinds[0]] * count
    if count % len(kinds):
        return None
    width = count // len(kinds)
    return [kinds[i // width] for i in range(count)]


def columns(header_lines: list[str], years: list[int], count: int) -> list[Column] | None:
    """The columns a header describes for rows of ``count`` values, or None when it cannot
    place them. Change columns after the periods ("Inc/(Dec)", "%") are left out, so
    fewer than ``count`` columns may come back: they are the first values of each row."""
    text = " ".join(header_lines)
    spans = durations(text, count)
    if spans is None:
        return None
    dates = header_dates(text)
    if years and len(years) < count:
        # "Years ended December 31, 2022" then "2021 2020": the first year sits in the text.
        printed = [int(y) for y in re.findall(r"\b((?:19|20)\d\d)\b", text)]
        if len(printed) + len(years) == count and printed and printed[-1] > years[0]:
            years = printed + years
    if (
        2 <= len(years) < count <= len(years) + 2
        and _CHANGE.search(text)
        and not _SHARE_OF.search(text)
    ):
        count = len(years)  # "2023  2022  Inc/(Dec)  %": the change columns are not periods
        spans = spans[:count]
    if len(years) == count:
        months: list[int | None]
        plain = _CHANGE.sub(" ", text.lower())  # "Inc/(Dec)" is no December
        mentioned = [_MONTHS[m[1]] for m in _MONTH_MENTION.finditer(plain)]
        if len(dates) == count:
            months = [m for _, m, _ in dates]
        elif len(set(mentioned)) == 1:
            months = [mentioned[0]] * count
        elif len(mentioned) == count:
            months = list(mentioned)
        else:
            months = [None] * count
        return [Column(y, m, d, str(y)) for y, m, d in zip(years, months, spans, strict=True)]
    if not years and len(dates) == count:
        return [Column(y, m, d, printed) for (y, m, printed), d in zip(dates, spans, strict=True)]
    return None


#: Lines at a page's top that still head its tables: a scale note printed above a
#: statement's heading ("(In millions)") is the table's.
HEAD_LINES = 12


def page_head(text: str) -> str:
    """The page's first :data:`HEAD_LINES` lines, where a scale note above a table sits."""
    return "\n".join(text.split("\n")[:HEAD_LINES])


def scale_of(text: str) -> float | None:
    """The multiplier a header's scale words ask for (``in millions`` -> 1e6), if any.

    A scale word right after a figure ("a fair value of $2.8 billion") is an amount in
    the prose above a table, not the table's unit: read as one, a notes table "in
    millions" below it was stored a thousand times too large."""
    lowered = text.lower()
    for match in _SCALE_WORD.finditer(lowered):
        if _AMOUNT_BEFORE.search(lowered, 0, match.start()):
            continue
        if match[1] is None:
            return 1e3  # (000's), $000s
        return dict(_SCALES)[match[1]]
    return None


def share_scale(text: str, value_scale: float) -> float:
    """The multiplier for share counts: stated ("shares in thousands"), else as printed
    when the scale note excepts share data, else the table's scale."""
    lowered = text.lower()
    stated = re.search(r"shares?(?: amounts)?(?: are)? in (billion|million|thousand)s?", lowered)
    if stated:
        return dict(_SCALES)[stated[1]]
    stated = re.search(r"(million|thousand)s? of shares", lowered)
    if stated:
        return dict(_SCALES)[stated[1]]
    exception = re.search(r"except([^)]*)", lowered)
    if exception and re.search(
        r"share", re.sub(r"per[ -](?:common |ordinary )?share", "", exception[1])
    ):
        return 1.0
    return value_scale
