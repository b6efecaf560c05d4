"""XBRL values as cited statement facts, and how they sit beside the table parser's.

Why look for the number on a page: a grid fact is cited like a page, by the ``uid`` of
the page it is printed on, so a reader can check it. An XBRL value is cited to the page
of its filing that prints it (the statement of its kind first, at the filing's scale:
millions, thousands or units); a value no page prints (a nil, or a number only the XBRL
holds) is cited to the filing's first page, which its column says.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from edgar.xbrl import XbrlFact
from retrieval.facts.headings import heading_statement
from retrieval.facts.model import Fact
from retrieval.pages import Page

_NUMBER = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})*(?:\.\d+)?(?![\d]|[.,]\d)")
#: Scales a statement is printed in, in the order a match is trusted.
_SCALES = (1e6, 1e3, 1.0, 1e9)
COVER_NOTE = "XBRL; no page prints it: cited to the filing's first page"


@dataclass
class _PageIndex:
    page: Page
    numbers: set[str]
    statements: set[str]


def _index(pages: Sequence[Page]) -> list[_PageIndex]:
    indexed = []
    for page in pages:
        statements = {s for line in page.text.split("\n") if (s := heading_statement(line.strip()))}
        indexed.append(_PageIndex(page, set(_NUMBER.findall(page.text)), statements))
    return indexed


def printed_forms(value: float, unit: str) -> list[tuple[str, int]]:
    """How ``value`` may be printed, each with its rank (lower is trusted first): ``1,577``
    for 1,577,000,000 USD in millions; ``3.23`` for a per-share value. Forms of fewer than
    three digits are left out: they match page numbers and footnotes, not the value."""
    amount = abs(value)
    if unit == "USD/share":
        text = f"{amount:.2f}"
        return [(text, 0)] if len(text.replace(".", "")) >= 3 else []
    forms = []
    for rank, scale in enumerate(_SCALES):
        scaled = amount / scale
        whole = round(scaled)
        if whole >= 100 and abs(scaled - whole) < 1e-6 * max(1.0, scaled):
            forms.append((f"{whole:,}", rank))
    return forms


def _page_for(fact: XbrlFact, indexed: list[_PageIndex]) -> Page | None:
    best: tuple | None = None
    for text, rank in printed_forms(fact.value, fact.unit):
        for entry in indexed:
            if text in entry.numbers:
                key = (fact.statement not in entry.statements, rank, entry.page.page_index)
                if best is None or key < best[0]:
                    best = (key, entry.page)
    return best[1] if best else None


def cite(facts: Sequence[XbrlFact], pages: Sequence[Page]) -> list[Fact]:
    """``facts`` as grid facts, each on the page that prints it (or the first page).

    ``pages`` are the stored pages of one document (``page_id`` set), in page order.
    """
    if not pages:
        return []
    indexed = _index(pages)
    first = min(pages, key=lambda p: p.page_index)
    cited = []
    for fact in facts:
        page = _page_for(fact, indexed)
        column = fact.column if page else f"{fact.column[: -len(' (XBRL)')]} ({COVER_NOTE})"
        page = page or first
        cited.append(
            Fact(
                uid=page.uid,
                page_id=page.page_id if page.page_id is not None else -1,
                doc_name=page.doc_name,
                doc_label=page.doc_label,
                page_index=page.page_index,
                ticker=page.ticker,
                statement=fact.statement,
                label=f"{fact.label} [{fact.tag}]",
                concept=fact.concept,
                fy=fact.fy,
                fq=fact.fq,
                duration=fact.duration,
                column=column,
                value=fact.value,
                unit=fact.unit,
            )
        )
    return cited


def fact_key(fact: Fact | XbrlFact) -> tuple[str | None, int, int | None, str]:
    return (fact.concept, fact.fy, fact.fq, fact.duration)


def merge(xbrl: Sequence[Fact], table: Sequence[Fact]) -> list[Fact]:
    """XBRL facts first; a table fact stays only where XBRL has no value of its concept
    and period (the fallback), or where it has no concept at all (``research facts --all``).
    First in the list also wins a tie when the calculator picks among facts on one page."""
    covered = {fact_key(f) for f in xbrl}
    return [*xbrl, *(f for f in table if f.concept is None or fact_key(f) not in covered)]


@dataclass
class Agreement:
    """How XBRL values and the table parser's values agree on the line items both give."""

    shared: int = 0
    agreeing: int = 0
    differing: list[str] = field(default_factory=list)  # "capex FY2023: -1,577,000,000 vs ..."

    @property
    def rate(self) -> float | None:
        return self.agreeing / self.shared if self.shared else None

    def add(self, other: Agreement) -> None:
        self.shared += other.shared
        self.agreeing += other.agreeing
        self.differing.extend(other.differing)


def _same(a: float, b: float, unit: str) -> bool:
    tolerance = max(1e-3 * max(abs(a), abs(b)), 0.005 if unit == "USD/share" else 0.0)
    return abs(a - b) <= tolerance


def agreement(xbrl: Sequence[XbrlFact], table: Sequence[Fact]) -> Agreement:
    """Compare each XBRL value with the table fact of the same concept and period that the
    calculator would prefer (its home statement, the earliest page)."""
    home = {f.concept: f.statement for f in xbrl}
    best: dict[tuple, Fact] = {}
    for fact in sorted(table, key=lambda f: (f.statement != home.get(f.concept), f.page_index)):
        if fact.concept is not None:
            best.setdefault(fact_key(fact), fact)
    result = Agreement()
    for fact in xbrl:
        other = best.get(fact_key(fact))
        if other is None:
            continue
        result.shared += 1
        if _same(fact.value, other.value, fact.unit):
            result.agreeing += 1
        else:
            period = f"FY{fact.fy}" + (f" Q{fact.fq}" if fact.fq else "")
            result.differing.append(
                f"{fact.concept} {period} {fact.duration}: XBRL {fact.value:,.2f} vs "
                f"table {other.value:,.2f} (page_index {other.page_index})"
            )
    return result
