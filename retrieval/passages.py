"""The passage of a page that matched a query: its rows, with the table header kept.

PyMuPDF prints a table row as a label line followed by one line per column value, and a
table's column header as a few lines ("Years ended December 31", "(Millions)", "2018",
"2017"). This module reads a page back into **rows** (a label with its values, or one
line of prose), scores each row against the query's terms, and assembles a passage
from the best rows inside a character budget, always with the column header above the
chosen table rows and the page's title, so a figure never reaches the model without
the year and unit it belongs to.

Ranking uses the same query stems for its passage-level signal (``retrieval.rerank``);
the page stays the unit of citation.
"""

from __future__ import annotations

import math
import re
import sys
from bisect import bisect_left, bisect_right, insort
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from heapq import heappop, heappush
from itertools import pairwise

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
#: Stems of query words too common on filing pages to pick a row by.
_WEAK = frozenset({"net", "total", "other", "income", "compan", "consol"})

_SENTENCE = re.compile(r"(?<=[a-z0-9)%][.!?])\s+(?=[A-Z(\"“])")
#: Characters from which a line without a full stop is taken for wrapped prose.
_WRAPPED_LINE = 60
DEFAULT_BUDGET = 500
GAP = "…"


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


@dataclass(frozen=True)
class Passage:
    text: str
    rows: tuple[int, ...]  # indexes into page_rows(page text), in page order
    score: float  # the summed scores of the matched rows chosen


def _parts(rows: Sequence[Row], chosen: Sequence[int]) -> list[str]:
    """The chosen rows in page order, with a gap mark wherever rows were skipped."""
    parts: list[str] = []
    previous = -1
    for i in sorted(chosen):
        if i != previous + 1:
            parts.append(GAP)
        parts.append(rows[i].text)
        previous = i
    if chosen and previous < len(rows) - 1:
        parts.append(GAP)
    return parts


class _Selection:
    """Chosen rows and the exact length of their rendering, kept as rows are added.

    The rendering is the rows joined by newlines with one gap mark per run of skipped
    rows, so adding a row changes the length by its own text plus or minus one mark.
    """

    def __init__(self, rows: Sequence[Row]) -> None:
        self.rows = rows
        self.chosen: set[int] = set()
        self.size = 0
        # read for every row priced, many times over on a long page
        self.lengths = [len(row.text) for row in rows]

    def cost(self, indexes: set[int]) -> int:
        """Characters the rendering grows by if ``indexes`` are added."""
        chosen = self.chosen
        if not chosen:
            if indexes:
                return self._fresh_length(indexes)
            # nothing chosen, nothing added: no newline, but the gap mark(s) still start
            return -1 + (0 if indexes >= {0, len(self.rows) - 1} else 2)
        lengths = self.lengths
        last = len(lengths) - 1
        extra: set[int] = set()
        grow = 0
        for j in sorted(indexes - chosen):
            left = j == 0 or j - 1 in chosen or j - 1 in extra
            right = j == last or j + 1 in chosen or j + 1 in extra
            marks = -1 if left and right else (1 if not left and not right else 0)
            grow += lengths[j] + 1 + marks * (len(GAP) + 1)
            extra.add(j)
        return grow

    def _fresh_length(self, indexes: set[int]) -> int:
        parts = _parts(self.rows, sorted(indexes))
        return sum(len(p) for p in parts) + max(0, len(parts) - 1)

    def add(self, indexes: set[int]) -> None:
        self.size += self.cost(indexes)
        self.chosen |= indexes

    def fits(self, indexes: set[int], budget: int) -> bool:
        return self.size + self.cost(indexes) <= budget


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


class _Greedy:
    """The greedy choice of matched rows: each round, of the matched rows with an option
    that fits what is left of the budget, the one of most gain per character is added.

    Asking every matched row for its cost and gain every round was quadratic on a long
    page (thousands of matched rows, each priced again for every row taken), so what
    each round would find is kept and only what a round changes is priced again; the
    rows chosen are exactly those of the plain loop:

    - a row's first fitting option and its cost are kept until a row inside that
      option's rows (or next to one) is chosen, or the room left falls below the cost:
      nothing else changes a cost, and the room only shrinks, so an option that did not
      fit never fits later (a row none of whose options fits is dropped, as before);
    - rows matching the same words with the same score have the same gain, so within
      such a group the best is the cheapest (then the first): each group keeps a heap,
      and a round compares one row per group.
    """

    def __init__(
        self,
        rows: Sequence[Row],
        scored: Sequence[tuple[float, set[str]]],
        weights: dict[str, float],
        selection: _Selection,
        budget: int,
    ) -> None:
        self.rows = rows
        self.scored = scored
        self.weights = weights
        self.selection = selection
        self.budget = budget
        self.shown: dict[str, int] = {}
        candidates = [i for i, (score, _) in enumerate(scored) if score > 0]
        years_above = _years_above(rows) if candidates else []
        self.options = {i: _options(rows, i, years_above) for i in candidates}
        # rows whose choice changes a candidate's costs: its options' rows and their neighbours
        self.watchers: dict[int, list[int]] = {}
        group_ids: dict[tuple[tuple[str, ...], float], int] = {}
        self.group: dict[int, int] = {}
        for i in candidates:
            near = {j + d for option in self.options[i] for j in option for d in (-1, 0, 1)}
            for j in near:
                self.watchers.setdefault(j, []).append(i)
            score, matched = scored[i]
            key = (tuple(matched), score)  # the order gain() sums in, so equal floats
            self.group[i] = group_ids.setdefault(key, len(group_ids))
        self.members: list[list[int]] = [[] for _ in group_ids]
        for i in candidates:
            self.members[self.group[i]].append(i)
        self.heaps: list[list[tuple[int, int, int]]] = [[] for _ in group_ids]
        self.by_cost: list[tuple[int, int, int]] = []  # (-cost, row, version): the dearest first
        # row -> (its first option that fits, the option's cost, the option's place)
        self.fit: dict[int, tuple[set[int], int, int]] = {}
        self.version: dict[int, int] = dict.fromkeys(candidates, 0)
        for i in candidates:
            self._price(i)

    def gain(self, i: int) -> float:
        score, matched = self.scored[i]
        base = sum(self.weights[s] for s in matched) or 1.0
        fresh = sum(self.weights[s] * 0.5 ** self.shown.get(s, 0) for s in matched)
        return score * fresh / base

    def _price(self, i: int, start: int = 0) -> None:
        """Find row ``i``'s first option that fits now (or drop the row: none ever will);
        ``start`` skips options known not to fit (costs unchanged, the room smaller)."""
        self.version[i] += 1
        room = self.budget - self.selection.size
        for place in range(start, len(self.options[i])):
            option = self.options[i][place]
            cost = self.selection.cost(option)
            if cost <= room:
                self.fit[i] = (option, cost, place)
                heappush(self.heaps[self.group[i]], (max(1, cost), i, self.version[i]))
                heappush(self.by_cost, (-cost, i, self.version[i]))
                return
        self.fit.pop(i, None)

    def _current(self, entry: tuple[int, int, int]) -> bool:
        return entry[1] in self.fit and self.version[entry[1]] == entry[2]

    def _best(self) -> int:
        """The row the plain loop's ``max`` by (gain per character, first row) picks."""
        best, best_key = -1, (-math.inf, 0)
        floor = sys.float_info.min * max(1, self.budget) * 4
        for g, heap in enumerate(self.heaps):
            while heap and not self._current(heap[0]):
                heappop(heap)
            if not heap:
                continue
            i = heap[0][1]
            gain = self.gain(i)
            if gain > floor:  # gain / cost strictly falls with the cost: the cheapest wins
                key = (gain / heap[0][0], -i)
            else:  # a vanishing gain: quotients may tie, so compare as the loop did
                alive = (j for j in self.members[g] if j in self.fit)
                key = max((gain / max(1, self.fit[j][1]), -j) for j in alive)
            if key > best_key:
                best, best_key = -key[1], key
        return best

    def run(self) -> float:
        """Add the chosen rows to the selection; the summed scores of the matched ones."""
        total = 0.0
        selection = self.selection
        while self.fit:
            best = self._best()
            option = self.fit.pop(best)[0]
            was_empty = not selection.chosen
            new = option - selection.chosen
            selection.add(option)
            total += self.scored[best][0]
            for s in self.scored[best][1]:
                self.shown[s] = self.shown.get(s, 0) + 1
            if was_empty:  # the first rows: every cost was the length of a fresh rendering
                stale = set(self.fit)
            else:  # costs changed where a new row is in an option or next to one
                stale = {i for j in new for i in self.watchers.get(j, ()) if i in self.fit}
            room = self.budget - selection.size
            too_dear: dict[int, int] = {}  # costs unchanged, but over the room now
            while self.by_cost and -self.by_cost[0][0] > room:
                entry = heappop(self.by_cost)
                if self._current(entry) and entry[1] not in stale:
                    too_dear[entry[1]] = self.fit[entry[1]][2] + 1
            for i in sorted(stale):
                self._price(i)
            for i, start in too_dear.items():
                self._price(i, start)
        return total


def _fill_top(selection: _Selection, budget: int) -> None:
    """A page that matched nothing shows its opening rows (the first one cut if too long)."""
    for i in range(len(selection.rows)):
        if i in selection.chosen:
            continue
        if not selection.fits({i}, budget):
            if not selection.chosen:
                selection.add({i})  # rendered cut to the budget
            return
        selection.add({i})


def _fill_around(selection: _Selection, anchors: list[int], budget: int) -> None:
    """Spend what is left of the budget on the rows nearest the matched ones (the rest of
    their table or paragraph), the best match first.

    Rows are visited by distance from the anchors, anchor by anchor, below then above.
    Only a row that fits can be taken, so the rows that fit are kept in order and the
    distances at which no anchor meets one are skipped: walking every distance up to the
    page's length was quadratic on a long page. A row that does not fit can fit later
    only once a neighbour is taken (its gap mark goes; the room only shrinks), so that
    is when it is looked at again.
    """
    rows = selection.rows
    n = len(rows)
    chosen = selection.chosen
    room = budget - selection.size
    fitting = [
        j
        for j in range(n)
        if len(rows[j].text) - 1 <= room and j not in chosen and selection.fits({j}, budget)
    ]
    in_fitting = set(fitting)

    def fits(j: int) -> bool:
        return j not in chosen and selection.fits({j}, budget)

    def drop(at: int) -> None:
        in_fitting.discard(fitting.pop(at))

    def take(j: int) -> None:
        selection.add({j})
        if j in in_fitting:
            drop(bisect_left(fitting, j))
        for k in (j - 1, j + 1):
            if 0 <= k < n and k not in in_fitting and fits(k):
                insort(fitting, k)
                in_fitting.add(k)

    def next_radius(radius: int) -> int:
        """The least distance from ``radius`` on at which an anchor meets a fitting row."""
        least = n + 1
        for anchor in anchors:
            at = bisect_left(fitting, anchor + radius)
            while at < len(fitting) and not fits(fitting[at]):
                drop(at)
            if at < len(fitting):
                least = min(least, fitting[at] - anchor)
            at = bisect_right(fitting, anchor - radius) - 1
            while at >= 0 and not fits(fitting[at]):
                drop(at)
                at -= 1
            if at >= 0:
                least = min(least, anchor - fitting[at])
        return least

    radius = 1
    while radius <= n:
        for anchor in anchors:
            for j in (anchor + radius, anchor - radius):
                if j in in_fitting and fits(j):
                    take(j)
        if budget - selection.size < 8:
            return
        radius = next_radius(radius + 1)
