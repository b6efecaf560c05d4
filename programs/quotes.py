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
from functools import lru_cache

from retrieval.passages import page_rows

#: A line this short that matches a page is as likely a phrase of the model's own.
MIN_COPIED_CHARS = 30
_HIT_HEADER_RE = re.compile(
    r"^\s*(?:[-*]\s+)?(?:\[\d+\]\s*)*[A-Z][A-Z0-9.&-]*\s+(?:10-K|10-Q|8-K|Earnings|Annual Report)"
    r"[^:\n]{0,24}?\s+p\.\s?\d+:"
)
#: A statement fact as the number tools show it: ``[4] capex FY2031: -4,817.3 million USD
#: ('Capital expenditures', CTSO 10-K FY2031 p.48)``.
_FACT_LINE_RE = re.compile(r"^\s*(?:[-*]\s+)?(?:\[\d+\]\s*)*\S+ FY\d{4}[^:\n]*: .*\bp\.\d+\)\s*$")
_GAP_RE = re.compile(r"^[\s…•.\-*|]*$")
_MARKS_RE = re.compile(r"\[\s*\d{1,3}(?:\s*[,;]\s*\d{1,3})*\s*\]|[⁰¹²³⁴⁵⁶⁷⁸⁹˒†]")


def _squash(text: str) -> str:
    return " ".join(text.split()).lower()


@lru_cache(maxsize=256)
def _rows_of(text: str) -> str:
    """A page's rows as passages show them, squashed, one per line."""
    return "\n".join(_squash(row.text) for row in page_rows(text))


def is_copied(line: str, pages: Iterable[str]) -> bool:
    """Whether ``line`` is pasted from a tool result: a hit header, a fact line, a gap
    mark, a whole row of one of ``pages``, or ``MIN_COPIED_CHARS`` or more of one (citation
    marks aside)."""
    if _HIT_HEADER_RE.match(line) or _FACT_LINE_RE.match(line):
        return True
    if line.strip() and _GAP_RE.match(line):
        return True
    core = _squash(_MARKS_RE.sub(" ", line)).strip(" -*")
    if not core:
        return False
    if len(core) < MIN_COPIED_CHARS:  # a short line is copied only if it is a whole row
        return any(core in _rows_of(text).split("\n") for text in pages)
    return any(core in _rows_of(text) for text in pages)


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
