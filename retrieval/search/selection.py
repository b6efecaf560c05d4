"""Choosing a passage's rows within a character budget, fast on long pages.

:mod:`retrieval.search.passages` scores the rows of a page; this module does the
choosing: the exact length of a selection as rows are added (:class:`_Selection`), the
greedy choice of matched rows by gain per character (:class:`_Greedy`), and the filling
of what budget is left around the matches (or from the top of a page that matched
nothing). It is apart because it is the part written for speed: each piece keeps what it
found between rounds so a page of thousands of rows stays near-linear.
"""

from __future__ import annotations

import math
import sys
from bisect import bisect_left, bisect_right, insort
from collections.abc import Sequence
from heapq import heappop, heappush

from retrieval.search.rows import Row, _options, _years_above

GAP = "…"


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
