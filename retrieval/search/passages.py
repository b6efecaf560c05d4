"""The passage of a page that matched a query: its rows, with the table header kept.

A page is read back into rows (:mod:`retrieval.search.rows`: a table row's label with its
values, or one sentence of prose); this module scores each row against the query's terms
and assembles a passage from the best rows inside a character budget
(:mod:`retrieval.search.selection` does the choosing), always with the column header
above the chosen table rows and the page's title, so a figure never reaches the model
without the year and unit it belongs to. It is the one entry point callers need:
:func:`select_passage` and :data:`DEFAULT_BUDGET`.

Ranking uses the same query stems for its passage-level signal (``retrieval.search.rerank``);
the page stays the unit of citation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from retrieval.search.rows import Row, _row_stems, _title, page_rows, query_stems, word_stems
from retrieval.search.selection import GAP, _fill_around, _fill_top, _Greedy, _parts, _Selection

#: Stems of query words too common on filing pages to pick a row by.
_WEAK = frozenset({"net", "total", "other", "income", "compan", "consol"})
DEFAULT_BUDGET = 500


def _term_weights(stems: Sequence[str], row_stems: Sequence[set[str]]) -> dict[str, float]:
    """Rarer on the page, worth more: a word on every row picks none of them."""
    n = len(row_stems) or 1
    weights = {}
    for s in stems:
        df = sum(1 for rs in row_stems if s in rs)
        idf = math.log(1 + n / (df + 0.5)) if df else 0.0
        weights[s] = idf * (0.4 if s in _WEAK else 1.0)
    return weights


def _pairs_in(stems: Sequence[str], words: Sequence[str]) -> int:
    """Adjacent query word pairs that appear adjacent in ``words`` (line items)."""
    seen = set(pairwise(words))
    return sum(1 for pair in pairwise(stems) if pair in seen)


def _row_scores(
    rows: Sequence[Row], stems: Sequence[str], row_stems: Sequence[set[str]] | None = None
) -> list[tuple[float, set[str]]]:
    row_stems = _row_stems(rows) if row_stems is None else row_stems
    weights = _term_weights(stems, row_stems)
    scored = []
    for row, rs in zip(rows, row_stems, strict=True):
        matched = {s for s in stems if s in rs and weights[s] > 0}
        if not matched:
            scored.append((0.0, matched))
            continue
        base = sum(weights[s] for s in matched)
        pairs = _pairs_in(stems, word_stems(row.label))
        scored.append((base * (1 + 0.5 * pairs), matched))
    return scored


@dataclass(frozen=True)
class Passage:
    text: str
    rows: tuple[int, ...]  # indexes into page_rows(page text), in page order
    score: float  # the summed scores of the matched rows chosen


def _render(rows: Sequence[Row], chosen: set[int], limit: int) -> str:
    text = "\n".join(_parts(rows, sorted(chosen)))
    return text if len(text) <= limit else text[: limit - 1].rstrip() + GAP


def select_passage(text: str, terms: Sequence[str], budget: int = DEFAULT_BUDGET) -> Passage:
    """The rows of ``text`` that best answer ``terms``, within ``budget`` characters.

    Rows are taken greedily by gain per character (a word already shown counts half
    again each time, so one repeated word cannot fill the budget); a table row brings its
    column header, a table's section label the rows under it. What is left of the budget
    goes to the rows nearest the matches; a page that matches nothing gives its top.
    """
    rows = page_rows(text)
    if not rows:
        return Passage("", (), 0.0)
    stems = query_stems(terms)
    row_stems = _row_stems(rows)
    scored = _row_scores(rows, stems, row_stems)
    weights = _term_weights(stems, row_stems)
    selection = _Selection(rows)
    selection.add(set(_title(rows)))
    total = _Greedy(rows, scored, weights, selection, budget).run()
    anchors = sorted((i for i in selection.chosen if scored[i][0] > 0), key=lambda i: -scored[i][0])
    if anchors:
        _fill_around(selection, anchors, budget)
    else:
        _fill_top(selection, budget)
    return Passage(_render(rows, selection.chosen, budget), tuple(sorted(selection.chosen)), total)
