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
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from retrieval.search.rows import page_rows

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

    def share(self, part: Part) -> float:
        """The part's share of the total (a fraction)."""
        return part.value / self.total

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
    the lines above it."""
    runs: list[tuple[str, Rows]] = []
    current: Rows = []
    seen: list[str] = []  # every row's text so far, for the headings
    start = 0
    for row in page_rows(text):
        # A change column prints "7.2 %" in its first row and "(4.2)" below: read alike.
        values = [amount(v.replace("%", "")) for v in row.values]
        usable = row.label and row.values and not row.is_year_header and values
        amounts = tuple(v for v in values if v is not None)
        if current and (
            not usable or len(amounts) != len(values) or len(current[-1][1]) != len(amounts)
        ):
            runs.append(("\n".join(seen[max(0, start - _HEADING_LINES) : start]), current))
            current = []
        if usable and len(amounts) == len(values):
            if not current:
                start = len(seen)
            current.append((row.label, amounts))
        seen.append(row.text)
    if current:
        runs.append(("\n".join(seen[max(0, start - _HEADING_LINES) : start]), current))
    return runs


def _adds_up(values: Sequence[float], total: float, scale: float) -> bool:
    """Whether printed ``values`` at ``scale`` add up to ``total`` within their rounding."""
    printed = total / scale
    if abs(printed) < _MIN_PRINTED:
        return False
    return abs(sum(values) - printed) <= 0.51 * len(values)


def find_breakdown(text: str, total: float, prior_total: float | None = None) -> Breakdown | None:
    """The longest run of a page's rows (two or more, none a total row) whose values in one
    column add up to ``total``; None when none does. ``prior_total`` reads each part's
    prior-period value from the column that adds up to it."""
    best: tuple[int, Breakdown] | None = None
    for heading, run in table_runs(text):
        for start in range(len(run)):
            for end in range(start + 2, len(run) + 1):
                rows = run[start:end]
                if any(_TOTAL.match(label) or _NOT_A_PART.search(label) for label, _ in rows):
                    break
                found = _read(rows, total, prior_total, heading)
                if found is not None and (best is None or len(rows) > best[0]):
                    best = (len(rows), found)
    return best[1] if best else None


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
    others = sorted(
        (c for c in range(len(rows[0][1])) if c != column), key=lambda c: abs(c - column)
    )
    return next((c for c in others if _adds_up([v[c] for _, v in rows], prior_total, scale)), None)
