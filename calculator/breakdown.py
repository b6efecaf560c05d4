"""The parts of a consolidated figure, read from a filing page's table by their sum.

A segment note, a revenue-by-geography table or a product-category table prints one row
per part ("Commercial Airplanes | 25,867 | 19,493"), and the parts add up to the company's
consolidated figure, which statement facts already hold. That sum is what identifies the
table: a run of consecutive rows of one table whose values in one column add up, within
the rounding of their printed digits, to the consolidated figure is a breakdown of it, and
the column is that figure's period. No row label is read for meaning, so the reader works
the same for segments, regions and product lines; a second column is read as the prior
period only where its sum is the prior period's consolidated figure too.

Rows labelled as totals are never parts (they are subtotals of the rows above), nor are a
statement's own lines (a cost and a profit add up to revenue), and a sum must have four
printed digits or more, so that small numbers do not add up by chance.

Some segment tables foot to their own total before the eliminations that reconcile it to
the consolidated figure, printed below or in another table: Intel's FY2022 release adds
its segments to "Total operating segment revenue" of $63,574 million, less $520 million of
one segment's intersegment revenue, $63,054 million. Where no run adds up to the
consolidated figure, a run that foots exactly to the total row printed right after it is
read, as long as that total lies above the consolidated figure by at most
:data:`_RECONCILED` and its row names the measure ("Total operating segment revenue"; a
sweep of the grid without that found cash equivalents, receivables and debt maturities
footing near net income); the breakdown keeps both, so shares are of the parts' own
total and the answer can say so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from retrieval.search.rows import Row, page_rows

#: A printed amount: ``$25,867``, ``(231)``, ``1.5``; a dash is zero.
_AMOUNT = re.compile(r"^\(?-?\$?\d[\d,]*(?:\.\d+)?\)?$")
_DASH = re.compile(r"^[—–-]+$")
_TOTAL = re.compile(r"^\s*(?:total|consolidated|net\s+(?:sales|revenues?)\s*$)", re.IGNORECASE)
#: A statement's own lines (a cost, a profit, a tax) add up to revenue without being parts
#: of the company: "cost of products sold" and "gross profit".
_NOT_A_PART = re.compile(
    r"\b(?:costs?|expenses?|profits?|margins?|income|earnings|tax(?:es)?)\b", re.IGNORECASE
)
#: The scales a page prints in (thousands, millions, billions, units).
SCALES = (1e6, 1e3, 1e9, 1.0)
#: The smallest printed sum trusted as a total: four digits.
_MIN_PRINTED = 1000
#: How far a footed sum may be from its total, in printed units: the total's own rounding.
_EXACT = 0.51
#: How far above the consolidated figure a table's own total may lie, before the items
#: that reconcile the two (intersegment eliminations, unallocated costs), as a fraction.
_RECONCILED = 0.015


@dataclass(frozen=True)
class Part:
    """One part's row: its label as printed and its value in base units (per column read)."""

    label: str
    value: float
    prior: float | None = None


@dataclass(frozen=True)
class Breakdown:
    """Parts whose values add up to ``total`` (base units); ``prior_total`` where the prior
    period's column was read too."""

    parts: tuple[Part, ...]
    total: float
    prior_total: float | None = None
    heading: str = ""  # the lines just above the rows: the table's title, its section
    #: The consolidated figure, where the parts add up to the table's own total instead.
    consolidated: float | None = None

    def share(self, part: Part) -> float:
        """The part's share of the total (a fraction)."""
        return part.value / self.total

    def prior_share(self, part: Part) -> float | None:
        """The part's share of the prior period's total (a fraction); None without a prior
        value or where the prior total is not above zero."""
        if part.prior is None or not self.prior_total or self.prior_total <= 0:
            return None
        return part.prior / self.prior_total

    def change(self, part: Part) -> float | None:
        """The part's relative change from the prior period; None without a prior value or
        where the prior value is not above zero."""
        if part.prior is None or part.prior <= 0:
            return None
        return part.value / part.prior - 1


def amount(text: str) -> float | None:
    """``$25,867`` -> 25867.0, ``(231)`` -> -231.0, ``—`` -> 0.0; None for anything else
    (a percentage, a footnote mark, words)."""
    token = text.strip()
    if _DASH.match(token):
        return 0.0
    if not _AMOUNT.match(token):
        return None
    negative = token.startswith("(") or token.startswith("-")
    value = float(token.strip("()").replace("$", "").replace(",", "").lstrip("-"))
    return -value if negative else value


Rows = list[tuple[str, tuple[float, ...]]]
#: How many lines above a run are read as its heading.
_HEADING_LINES = 6


def table_runs(text: str) -> list[tuple[str, Rows]]:
    """The page's runs of consecutive table rows with the same number of amounts (a label
    line without values, a year header or a row of another width ends a run), each with
    the lines above it.

    One label line does not end a run: a group's name above the group's rows, whose
    subtotal the segment note prints unlabelled after the last of them, so the page's text
    joins it to that row ("Mobileye | 241 | 245 | 143 | 738 | 1,342 | 1,123"). The group
    becomes one row, its name with its subtotal: Intel's Internet of Things segment is one
    part of operating income, not its IOTG and Mobileye lines. Nor does a part's share on
    a line of its own ("Percentage of total revenue | 73% | 73%"), which is left out."""
    rows = [r for r in map(_TableRow.read, page_rows(text)) if not r.share]
    runs: list[tuple[str, Rows]] = []
    current: Rows = []
    seen: list[str] = []  # every row's text so far, for the headings
    start = 0
    group: tuple[str, int] | None = None  # an open group's name and its first row's index
    for index, row in enumerate(rows):
        seen.append(row.text)
        width = len(current[-1][1]) if current else 0
        if row.heading and current and _closes_group(rows, index + 1, width):
            group = (row.heading, len(current))
            continue
        if row.heading and _closes_group(rows, index + 1, 0):  # a new table's first group
            if current:
                runs.append((_heading(seen, start), current))
            current, group = [], (row.heading, 0)
            continue
        subtotal = bool(current) and group is not None and len(row.amounts) == 2 * width
        own = row.amounts[:width] if subtotal else row.amounts
        if current and (not row.whole or len(own) != width):
            runs.append((_heading(seen, start), current))
            current, group = [], None
        if not row.whole:
            continue
        if not current:
            start = len(seen) - 1
        current.append((row.label, own))
        if subtotal and group is not None:
            if len(current) - group[1] >= 2:
                current[group[1] :] = [(group[0], row.amounts[width:])]
            group = None
    if current:
        runs.append((_heading(seen, start), current))
    return runs


def _heading(seen: Sequence[str], start: int) -> str:
    """The lines just above a run that starts at line ``start``: its title, its section."""
    return "\n".join(seen[max(0, start - _HEADING_LINES) : start])


#: A part's share printed on a line of its own under it ("Percentage of total revenue |
#: 73% | 73%"): Adobe's segment note interleaves one after every segment.
_SHARE_LINE = re.compile(
    r"^\s*(?:as\s+a\s+)?(?:percent(?:age)?|%)\s+of\s+(?:total|consolidated|net)\b", re.I
)
#: A group's name: short, starting with a letter, with no colon or digit.
_GROUP_NAME = re.compile(r"^[A-Za-z][^:\d]{1,60}$")


@dataclass(frozen=True)
class _TableRow:
    """A page row as :func:`table_runs` reads it."""

    text: str
    label: str
    amounts: tuple[float, ...]
    whole: bool  # a labelled row whose every value is an amount
    heading: str  # the label of a line with no values ("Internet of Things"), else ""
    share: bool = False  # the part above's share of the total, every value a percentage

    @classmethod
    def read(cls, row: Row) -> _TableRow:
        # A change column prints "7.2 %" in its first row and "(4.2)" below: read alike.
        values = [amount(v.replace("%", "")) for v in row.values]
        amounts = tuple(v for v in values if v is not None)
        whole = bool(row.label and values and not row.is_year_header) and len(amounts) == len(
            values
        )
        named = row.label and not row.values and not row.is_header_part
        # a group's name: words, not a section's label ("Operating income (loss):") or a
        # column's ("2016(c)")
        heading = row.label if named and _GROUP_NAME.match(row.label) else ""
        share = bool(_SHARE_LINE.match(row.label)) and all("%" in v for v in row.values)
        return cls(row.text, row.label, amounts, whole, heading, share and bool(row.values))


def _closes_group(rows: Sequence[_TableRow], index: int, width: int) -> bool:
    """Whether the rows from ``index`` are a group closed by its subtotal: two or more rows
    of ``width`` amounts (any width at a table's start), the last of them twice as wide."""
    for end in range(index, len(rows)):
        row = rows[end]
        if not row.whole or _TOTAL.match(row.label):
            return False
        if width == 0:
            width = len(row.amounts)
        elif len(row.amounts) == 2 * width:
            return end > index
        elif len(row.amounts) != width:
            return False
    return False


def _adds_up(values: Sequence[float], total: float, scale: float) -> bool:
    """Whether printed ``values`` at ``scale`` add up to ``total`` within their rounding."""
    printed = total / scale
    if abs(printed) < _MIN_PRINTED:
        return False
    return abs(sum(values) - printed) <= 0.51 * len(values)


def find_breakdown(
    text: str,
    total: float,
    prior_total: float | None = None,
    total_label: re.Pattern[str] | None = None,
) -> Breakdown | None:
    """The longest run of a page's rows (two or more, none a total row) whose values in one
    column add up to ``total``; else, given the measure's ``total_label``, the longest that
    foots to its own total row so labelled, near ``total`` (see the module's docstring);
    None when none does. ``prior_total`` reads each part's prior-period value from the
    column that adds up to it."""
    best: tuple[int, Breakdown] | None = None
    footed: tuple[int, Breakdown] | None = None
    for heading, run in table_runs(text):
        for start in range(len(run)):
            for end in range(start + 2, len(run) + 1):
                rows = run[start:end]
                if any(_TOTAL.match(label) or _NOT_A_PART.search(label) for label, _ in rows):
                    found = _footed(rows, total, prior_total, heading, total_label)
                    if found is not None and (footed is None or len(rows) > footed[0]):
                        footed = (len(rows), found)
                    break
                found = _read(rows, total, prior_total, heading)
                if found is not None and (best is None or len(rows) > best[0]):
                    best = (len(rows), found)
    chosen = best or footed
    return chosen[1] if chosen else None


def _footed(
    rows: Rows,
    total: float,
    prior_total: float | None,
    heading: str,
    total_label: re.Pattern[str] | None,
) -> Breakdown | None:
    """``rows`` as parts footing exactly to the total row that closes them, labelled as a
    total of the measure, above the consolidated ``total`` by at most :data:`_RECONCILED`
    (the prior column's near ``prior_total``, where one foots too); None otherwise.

    Above it, as eliminations and unallocated costs come off a segments' total; in one
    column only, and none where a column is the consolidated figure itself: Nike's FY2019
    brand revenues ($37,218 million) came within 0.5% of its FY2020 revenue, Amcor's FY2018
    segments within 1.5% of its FY2019 net sales beside their own year's, and Walmart's
    total revenues of three years within 1.5% of its FY2017 net sales."""
    *parts, (label, printed) = rows
    if total_label is None or len(parts) < 2:
        return None
    if not (_TOTAL.match(label) and total_label.search(label)):
        return None
    if any(_TOTAL.match(name) or _NOT_A_PART.search(name) for name, _ in parts):
        return None
    for scale in SCALES:
        totals = [own * scale for own in printed]
        if any(abs(t - total) <= _EXACT * len(parts) * scale for t in totals):
            return None  # a column that is the consolidated figure: read as such, or not
        near = [c for c, t in enumerate(totals) if _near(t, total)]
        if len(near) != 1:
            continue  # none, or several years' columns alike: which is the year is unknown
        column = near[0]
        found = _read(parts, totals[column], None, heading)
        if found is None:
            continue
        prior = _footed_prior(parts, printed, column, prior_total, scale)
        values = [
            Part(p.label, p.value, None if prior is None else v[prior] * scale)
            for p, (_, v) in zip(found.parts, parts, strict=True)
        ]
        prior_own = None if prior is None else totals[prior]
        return Breakdown(tuple(values), totals[column], prior_own, heading, total)
    return None


def _near(own: float, consolidated: float) -> bool:
    """Whether a table's own total may be the consolidated figure before reconciling items."""
    return consolidated <= own <= consolidated * (1 + _RECONCILED)


def _footed_prior(
    parts: Rows, printed: tuple[float, ...], column: int, prior_total: float | None, scale: float
) -> int | None:
    """The other column whose parts foot to the total row's value there, that value near
    ``prior_total``, nearest ``column`` first."""
    if prior_total is None:
        return None
    return next(
        (
            c
            for c in _others(len(printed), column)
            if _near(printed[c] * scale, prior_total)
            and _adds_up([v[c] for _, v in parts], printed[c] * scale, scale)
        ),
        None,
    )


def _read(rows: Rows, total: float, prior_total: float | None, heading: str) -> Breakdown | None:
    """The rows as a breakdown of ``total``: the first column and scale they add up in.

    A sum off by its rows' rounding is trusted only where another column adds up to the
    prior period's figure too, or the table has no other column: companies foot their
    tables, and four expense lines of Activision Blizzard's statement (3,257 against
    operating income of 3,259) were read as its "segments" by the slack alone."""
    width = len(rows[0][1])
    for scale in SCALES:
        for column in range(width):
            values = [v[column] for _, v in rows]
            if not _adds_up(values, total, scale):
                continue
            prior = _prior_column(rows, column, prior_total, scale)
            if prior is None and width > 1 and abs(sum(values) - total / scale) > _EXACT:
                continue
            parts = tuple(
                Part(label, v[column] * scale, None if prior is None else v[prior] * scale)
                for label, v in rows
            )
            if _whole_in_one(parts, total, scale):
                return None
            found = prior is not None
            return Breakdown(parts, total, prior_total if found else None, heading)
    return None


def _whole_in_one(parts: Sequence[Part], total: float, scale: float) -> bool:
    """Whether one row is the whole and the others nothing: a total beside empty lines
    ("GAAP net revenue" and a "NAND memory business" of zero), no split of it."""
    return sum(1 for p in parts if abs(p.value) >= scale) < 2 or any(
        abs(p.value - total) < scale for p in parts
    )


def _prior_column(rows: Rows, column: int, prior_total: float | None, scale: float) -> int | None:
    """The other column whose values add up to ``prior_total``, nearest ``column`` first."""
    if prior_total is None:
        return None
    others = _others(len(rows[0][1]), column)
    return next((c for c in others if _adds_up([v[c] for _, v in rows], prior_total, scale)), None)


def _others(width: int, column: int) -> list[int]:
    """The columns of a ``width``-wide table other than ``column``, nearest it first."""
    return sorted((c for c in range(width) if c != column), key=lambda c: abs(c - column))
