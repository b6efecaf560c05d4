"""A filing page read back into rows, and the table structure around a row.

PyMuPDF prints a table row as a label line followed by one line per column value, and a
table's column header as a few lines ("Years ended December 31", "(Millions)", "2018",
"2017"). This module turns a page's text into **rows** (a label with its values, or one
sentence of prose) and finds what a row belongs to: the column header above it, the
page's title, the rows a section label heads. It exists apart from
:mod:`retrieval.search.passages` because quotes and search tools read rows without
choosing a passage, and the query stems here are shared with the rerank.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

_WORD = re.compile(r"[a-z0-9]+")
_LETTER = re.compile(r"[A-Za-z]")
_VALUE_LINE = re.compile(r"^[\s$€£¥()%.,—–\-\d]*$")
_VALUE = re.compile(r"\(?-?\d[\d,]*(?:\.\d+)?\)?(?:\s*%)?|[—–]")
_YEAR = re.compile(r"^\(?(?:19[5-9]\d|20[0-4]\d)\)?$")
_NOISE_LINE = re.compile(
    r"^(?:table of contents|index|page \d+(?: of \d+)?|\(?continued\)?)$", re.IGNORECASE
)
_PERIOD_WORDS = re.compile(
    r"\b(?:years?|months?|weeks?|quarters?|periods?) ended\b|\bended\b|\bas of\b|"
    r"\b(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december) \d|\bfiscal\b|\bin (?:millions|thousands|billions)\b|"
    r"^\((?:dollars |amounts |\$ )?(?:in )?(?:millions|thousands|billions)\b|"
    r"except (?:per share|share)",
    re.IGNORECASE,
)

_SENTENCE = re.compile(r"(?<=[a-z0-9)%][.!?])\s+(?=[A-Z(\"“])")
#: Characters from which a line without a full stop is taken for wrapped prose.
_WRAPPED_LINE = 60


def word_stems(text: str) -> list[str]:
    """Lower-cased words cut to six letters: "inventories" and "inventory" meet."""
    return [w[:6] for w in _WORD.findall(text.lower())]


@dataclass(frozen=True)
class Row:
    """One table row (label and column values) or one line of prose."""

    label: str
    values: tuple[str, ...]

    @cached_property
    def text(self) -> str:
        if not self.values:
            return self.label
        cells = " | ".join(self.values)
        return f"{self.label} | {cells}" if self.label else cells

    @cached_property
    def is_year_header(self) -> bool:
        """Column headings such as "2022 | 2021", alone or after a label."""
        if not self.values or not all(_YEAR.match(v) for v in self.values):
            return False
        return len(self.values) >= 2 or not self.label or bool(_PERIOD_WORDS.search(self.label))

    @cached_property
    def is_header_part(self) -> bool:
        """A line that belongs to a column header: the years, the period, the unit."""
        if self.is_year_header:
            return True
        return not self.values and len(self.label) <= 90 and bool(_PERIOD_WORDS.search(self.label))


def _line_rows(text: str) -> list[Row]:
    """Each line with letters starts a row; the value lines after it are its values."""
    rows: list[Row] = []
    label: str | None = None
    values: list[str] = []
    for raw in text.splitlines():
        line = " ".join(raw.split())
        if not line or _NOISE_LINE.match(line):
            continue
        if _VALUE_LINE.match(line) and not _LETTER.search(line):
            values.extend(v.replace(" ", "") for v in _VALUE.findall(line))
            continue
        if label is not None or values:
            rows.append(Row(label or "", tuple(values)))
        label, values = line, []
    if label is not None or values:
        rows.append(Row(label or "", tuple(values)))
    return rows


def _continues(line: str) -> bool:
    """A wrapped line of prose: long, and not ended by a full stop or a colon."""
    return len(line) >= _WRAPPED_LINE and not line.endswith((".", ":", "?", "!"))


def page_rows(text: str) -> list[Row]:
    """The page as rows: table rows (a label and its values) and prose sentences.

    Wrapped prose lines are joined back into paragraphs and cut at sentence ends, so a
    sentence is shown whole or not at all.
    """
    rows: list[Row] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            for sentence in _SENTENCE.split(" ".join(paragraph)):
                if sentence.strip():
                    rows.append(Row(sentence.strip(), ()))
            paragraph.clear()

    for row in _line_rows(text):
        if row.values:
            flush()
            rows.append(row)
            continue
        paragraph.append(row.label)
        if not _continues(row.label):
            flush()
    flush()
    return rows


def _row_stems(rows: Sequence[Row]) -> list[set[str]]:
    return [set(word_stems(r.label)) for r in rows]


def query_stems(terms: Sequence[str]) -> list[str]:
    """The query's words as stems, without years and bare numbers (every header has them)."""
    stems = [s for s in word_stems(" ".join(terms)) if not s.isdigit()]
    return list(dict.fromkeys(stems))


def _years_above(rows: Sequence[Row]) -> list[int]:
    """For each row, the index of the nearest year header above it (-1 where none).

    Found in one pass for the page: looking upwards from every matched row was quadratic
    on a long table with no year header (a second at 200 KB, minutes at 2 MB).
    """
    above: list[int] = []
    last = -1
    for i, row in enumerate(rows):
        above.append(last)
        if row.is_year_header:
            last = i
    return above


def _header_for(
    rows: Sequence[Row], index: int, years_above: Sequence[int] | None = None
) -> list[int]:
    """Indexes of the column header above row ``index``: the nearest year row, with the
    period and unit lines around it (``years_above`` from :func:`_years_above`, if known)."""
    if years_above is not None:
        anchor: int | None = years_above[index] if years_above[index] >= 0 else None
    else:
        anchor = next((i for i in range(index - 1, -1, -1) if rows[i].is_year_header), None)
    if anchor is None:
        return []
    start = anchor
    while start > 0 and anchor - start < 3 and rows[start - 1].is_header_part:
        start -= 1
    end = anchor
    while end + 1 < index and end - anchor < 2 and rows[end + 1].is_header_part:
        end += 1
    return list(range(start, end + 1))


def _title(rows: Sequence[Row]) -> list[int]:
    """The page's opening short label lines (company, statement name), at most two."""
    picked = []
    for i, row in enumerate(rows[:3]):
        if row.values or len(row.label) > 70 or row.is_header_part:
            break
        picked.append(i)
        if len(picked) == 2:
            break
    return picked


def _section(rows: Sequence[Row], index: int, limit: int = 8) -> list[int]:
    """The value rows under a label-only row ("Revenues:"): the lines it heads."""
    children = []
    for j in range(index + 1, min(len(rows), index + 1 + limit)):
        if not rows[j].values:
            break
        children.append(j)
    return children


def _options(
    rows: Sequence[Row], index: int, years_above: Sequence[int] | None = None
) -> list[set[int]]:
    """What choosing row ``index`` may bring, most first: a table row its column header,
    a table's section label the rows it heads (and their header)."""
    row = rows[index]
    if row.values:
        return [{index, *_header_for(rows, index, years_above)}, {index}]
    children = _section(rows, index)
    if not children:
        return [{index}]
    header = _header_for(rows, children[0], years_above)
    return [{index, *header, *children[:n]} for n in range(len(children), 0, -1)] + [{index}]
