"""Reading a statement table out of PyMuPDF page text.

PyMuPDF prints a table row as its label on one line (sometimes wrapped over two) and
then one line per column value; a ``$`` may sit on its own line or beside a value, and
an empty cell is a line of spaces. Column headers come before the first row: years on
lines of their own (``2018`` / ``2017``) or dates (``June 30, 2023``, ``6/17/2023``).

This module turns the lines into :class:`Segment` s — a header (its text lines and
year lines) and the rows under it — without deciding what the columns mean
(:mod:`retrieval.facts.columns`) or which statement it is (:mod:`retrieval.facts.headings`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from retrieval.facts.headings import heading_statement

_VALUE = re.compile(r"^\(?-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\)?%?$|^\(?-?\.\d+\)?%?$")
_DASH = re.compile(r"^[—–\-]+$")
#: A negative printed with a space inside its parentheses, "(5,768 )" or "( 259)" (Oracle,
#: Coca-Cola, Best Buy, Walmart, …): one value, not a text line.
_SPACED_PARENS = re.compile(r"\(\s*([\d][\d,.]*%?)\s*\)")
_YEAR = re.compile(r"^(?:19[89]\d|20[0-4]\d)$")
_FOOTNOTE = re.compile(r"^\([a-z]\)$|^\*+$")

#: A label line ending like this continues on the next line.
_CONTINUES = re.compile(r"(?:,|-|–|&|\b(?:and|of|to|for|in|from|on|by|net of|the|or|per))$", re.I)


@dataclass(frozen=True)
class Value:
    """One printed number: ``amount`` as printed (sign from parentheses), and its kind."""

    text: str
    amount: float
    percent: bool = False


@dataclass
class Row:
    label: str
    section: str  # the nearest heading-like line above with no values ("Current assets:")
    values: list[Value]
    statement: str


@dataclass
class Segment:
    """One table: the header above its rows, and the rows."""

    statement: str
    header_lines: list[str] = field(default_factory=list)
    years: list[int] = field(default_factory=list)  # from lines holding only years
    rows: list[Row] = field(default_factory=list)


def parse_value(token: str) -> Value | None:
    """``(1,577)`` -> -1577.0, ``3.23`` -> 3.23, ``—`` -> 0.0, ``12.5%`` -> 12.5 (percent)."""
    token = token.strip()
    if _DASH.match(token):
        return Value(token, 0.0)
    if not _VALUE.match(token):
        return None
    negative = token.startswith("(") or token.startswith("-")
    digits = token.strip("()%").lstrip("-").replace(",", "")
    try:
        amount = float(digits)
    except ValueError:
        return None
    return Value(token, -amount if negative else amount, token.endswith("%"))


def _line_values(line: str) -> list[Value] | None:
    """The values of a line made only of values and ``$`` signs; None for a text line."""
    values: list[Value] = []
    for token in _SPACED_PARENS.sub(r"(\1)", line).replace("$", " ").split():
        if token == "%" and values:  # "18 %": the sign printed apart from its number
            last = values.pop()
            values.append(Value(last.text + "%", last.amount, percent=True))
            continue
        value = parse_value(token)
        if value is None:
            return None
        values.append(value)
    return values


def year_line(line: str) -> list[int] | None:
    """The years a line holds and nothing else (``2022 2021 2020``), or None."""
    tokens = line.split()
    if tokens and all(_YEAR.match(t) for t in tokens):
        return [int(t) for t in tokens]
    return None


def _label(texts: list[str]) -> tuple[str, list[str]]:
    """Join a wrapped label; what is left above it are value-less lines (section heads)."""
    parts = [texts[-1]]
    rest = texts[:-1]
    while rest and (parts[0][:1].islower() or _CONTINUES.search(rest[-1])):
        parts.insert(0, rest.pop())
    return " ".join(parts), rest


def segments(text: str, carried: str | Segment | None = None) -> list[Segment]:
    """The statement tables on a page, in order; empty when no statement heading is found.
    ``carried`` is the statement the page before ended in: a page that goes on with it
    under no heading of its own reads as that statement until a heading says otherwise;
    given as the page before's table (a :class:`Segment`), its header and years head the
    page's rows where the page prints none of its own."""
    found: list[Segment] = []
    current: Segment | None = None
    if isinstance(carried, Segment):
        current = Segment(carried.statement, list(carried.header_lines), list(carried.years))
        found.append(current)
    elif carried is not None:
        current = Segment(carried)
        found.append(current)
    texts: list[str] = []  # text lines since the last row
    values: list[Value] = []
    section = ""

    def flush() -> None:
        nonlocal texts, values, section
        if not values:
            return  # lines without values stay: they are a header or a wrapped label
        if current is not None and texts:
            label, above = _label(texts)
            if not current.rows:
                current.header_lines.extend(above)  # dates and scale sit just above
            if above and (current.rows or current.years):
                section = _label(above)[0]
            current.rows.append(Row(label, section, values, current.statement))
        texts, values = [], []

    for raw in text.split("\n"):
        line = raw.strip()
        if not line or line == "$" or _FOOTNOTE.match(line):
            continue
        statement = heading_statement(line)
        if statement is not None:
            flush()
            texts, section = [], ""
            current = Segment(statement)
            found.append(current)
            continue
        if current is None:
            continue
        years = year_line(line)
        if years is not None:
            flush()
            if current.rows:  # a new header under the same heading: a new table
                current = Segment(current.statement, header_lines=list(current.header_lines))
                found.append(current)
            current.header_lines.extend(texts)
            current.years.extend(years)
            texts = []
            continue
        line_values = _line_values(line)
        if line_values is not None:
            values.extend(line_values)
            continue
        if values:
            flush()
        texts.append(line)
    flush()
    tables = [s for s in found if s.rows]
    if tables:
        _without_page_number(tables[-1], text)
    return tables


def column_count(segment: Segment) -> int:
    """How many values the table's rows most often carry (the wider count on a tie): its
    columns."""
    counts = Counter(len(row.values) for row in segment.rows)
    return max(counts, key=lambda n: (counts[n], n))


#: A page number as the page's last line prints it: one to three bare digits.
_PAGE_NUMBER = re.compile(r"\d{1,3}")


def _without_page_number(table: Segment, text: str) -> None:
    """The page number printed after a page's last row joins that row as one more value:
    eBay's FY2020 cash-flow statement ends its page with "Net cash (used in) financing
    activities (5,692) (7,091) (5,398)" and then "65", and the row, one value too wide
    for its three columns, was dropped with the financing total. A last row one value
    wider than the table's usual rows, whose last value is the page's last line and bare
    digits, loses that value."""
    row = table.rows[-1]
    usual = column_count(table)
    last_line = text.rstrip().rsplit("\n", 1)[-1].strip()
    printed = row.values[-1].text.strip() if row.values else ""
    if len(row.values) == usual + 1 and printed == last_line and _PAGE_NUMBER.fullmatch(printed):
        table.rows[-1] = Row(row.label, row.section, row.values[:-1], row.statement)
