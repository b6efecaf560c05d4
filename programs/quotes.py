"""Copied passages are not answers: what a model pastes from its tool results is dropped.

A small model asked to answer from search hits often pastes them: the hit's header
(``BBY 10-K FY2021 p.24:``), its rows and the ``…`` that mark skipped rows. A pasted row
holds the page's own numbers and words, so code could cite it and an overlap judge would
score it, yet it answers nothing. So before a draft is read, every line that is a verbatim
row of a page the probe retrieved (or a hit header, or a gap mark) is removed; what the
model wrote in its own words stays, to be cited, reviewed and judged as the answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from citations.hit_numbers import HIT_MARK_RE
from citations.markup import DAGGER, MARKER_RE
from programs.observations import FACT_LINE_RE, HIT_HEADER_RE
from retrieval.passages import page_rows

#: A line this short that matches a page is as likely a phrase of the model's own.
MIN_COPIED_CHARS = 30
_GAP_RE = re.compile(r"^[\s…•.\-*|]*$")


def _squash(text: str) -> str:
    return " ".join(text.split()).lower()


def _without_marks(line: str) -> str:
    """``line`` without hit marks, superscript markers or daggers: what was pasted, if any."""
    line = HIT_MARK_RE.sub(" ", line)
    return MARKER_RE.sub(" ", line).replace(DAGGER, " ")


@dataclass(frozen=True)
class _Rows:
    """A page's rows as passages show them, squashed: each one, and all joined by newlines."""

    each: frozenset[str]
    joined: str


@lru_cache(maxsize=256)
def _rows_of(text: str) -> _Rows:
    rows = [_squash(row.text) for row in page_rows(text)]
    return _Rows(frozenset(rows), "\n".join(rows))


def is_copied(line: str, pages: Iterable[str]) -> bool:
    """Whether ``line`` is pasted from a tool result: a hit header, a fact line, a gap
    mark, a whole row of one of ``pages``, or ``MIN_COPIED_CHARS`` or more of one (citation
    marks aside)."""
    if HIT_HEADER_RE.match(line) or FACT_LINE_RE.match(line):
        return True
    if line.strip() and _GAP_RE.match(line):
        return True
    core = _squash(_without_marks(line)).strip(" -*")
    if not core:
        return False
    if len(core) < MIN_COPIED_CHARS:  # a short line is copied only if it is a whole row
        return any(core in _rows_of(text).each for text in pages)
    return any(core in _rows_of(text).joined for text in pages)


def drop_copied_lines(markdown: str, pages: Iterable[str]) -> tuple[str, int]:
    """``markdown`` without the lines pasted from ``pages``' text, and how many went."""
    texts = list(pages)
    kept, dropped = [], 0
    for line in markdown.split("\n"):
        if is_copied(line, texts):
            dropped += 1
        else:
            kept.append(line)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip(), dropped
