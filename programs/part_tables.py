"""Questions about a company's parts (segments, regions, product lines), answered by code
from the filing's own breakdown table.

"Which geographic segment had the highest net sales?", "Does Boeing have product
categories above 20% of revenue?", "How did US sales growth compare with international?":
the embedded model reads a segment table badly (it gave Apple's consolidated net sales as
the Americas', and refused Boeing's categories with the table in its evidence). Code can
answer them: the consolidated figure is a statement fact, the breakdown is the run of rows
on a searched page that adds up to it (:mod:`calculator.breakdown`), and the choice the
question asks (the highest, the lowest, the parts above a share, the parts that declined)
is arithmetic. The answer states every part with its share and, where printed, its change,
cited to the table's page; nothing is written when no page of the slice adds up.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from calculator.breakdown import Breakdown, Part, find_breakdown
from calculator.result import Calculation, fact_citation
from citations.markup import Citation, CitedAnswer, Footnote, ReferenceList, render_marker
from domain.cells import SliceRef
from programs.comparisons import millions
from programs.figure_questions import PART_RE, SHARE_FROM_RE, asks_adjusted
from programs.page_hits import PageHit, page_citation
from retrieval.facts.headings import heading_statement
from signatures.probes import Probe
from signatures.synthesiser import Figure

#: Searches the slice's pages for a query, best first.
PageSearch = Callable[[str, SliceRef], Sequence[PageHit]]
#: The slice's consolidated figure of a measure ("revenue") for the period a question asks,
#: and the year before's (:meth:`programs.figures.Figures.consolidated`).
Consolidated = Callable[[str, str, SliceRef], tuple[Calculation | None, Calculation | None]]

#: Parts that are lines of what a company sells: "which of its businesses", "product
#: categories", "lines of business"; a table of them is read before one of places
#: ("segments" may be regions: McDonald's).
_LINES_OF_BUSINESS = (
    r"businesses|categor(?:y|ies)|product\s+lines?|business\s+(?:units?|lines?|groups?)|"
    r"lines?\s+of\s+business"
)
_BUSINESS_NOUN = re.compile(rf"\b(?:{_LINES_OF_BUSINESS})\b", re.IGNORECASE)
#: The parts a question names: segments, regions, lines of business (and the geographies
#: of :data:`programs.figure_questions.PART_RE`).
_PART_NOUN = re.compile(
    rf"\b(?:segments?|divisions?|regions?|geograph\w*|business\s+segments?|"
    rf"{_LINES_OF_BUSINESS})\b",
    re.IGNORECASE,
)
#: The measures a breakdown table splits, each as the statement line code reads.
_MEASURES = (
    (re.compile(r"\bnet\s+(?:income|earnings|profit)\b", re.I), "net income"),
    (
        re.compile(
            r"\boperating\s+(?:income|profit|earnings)\b|\b(?:income|earnings)\s+from\s+operations\b"
            r"|\bprofitab\w*",  # a segment's profit is its operating income
            re.I,
        ),
        "operating income",
    ),
    (re.compile(r"\b(?:revenues?|sales|top[\s-]?line)\b", re.I), "revenue"),
)
_HIGHEST = re.compile(
    r"\b(?:highest|largest|most|biggest|greatest|top|leading|strongest|primary|main)\b", re.I
)
_LOWEST = re.compile(r"\b(?:lowest|smallest|least|weakest|worst|slowest)\b", re.I)
#: A ranking by change, not by size: "grew fastest", "the worst topline performance".
_BY_CHANGE = re.compile(
    r"\b(?:gr[eo]w\w*|fastest|slowest|perform\w*|top[\s-]?line\s+performance)\b", re.I
)
_BEST = re.compile(r"\b(?:best|fastest)\b", re.I)
_ABOVE = re.compile(
    r"\b(?:more\s+than|over|above|greater\s+than|at\s+least|exceed\w*)\s+(\d+(?:\.\d+)?)\s*%",
    re.I,
)
_DECLINED = re.compile(
    r"\b(?:declin\w*|shr[aiu]nk\w*|fell|fall\w*|decreas\w*|drag\w*|drop\w*|contract\w*)\b", re.I
)
_GROWTH = re.compile(r"\bgr[eo]w(?:th|s|ing)?\b", re.I)
_PRESENCE = re.compile(r"\b(?:presence|operates?\s+in|does\s+business\s+in)\b", re.I)
#: "What are the major products and services Apple sells?": its offerings are the parts,
#: listed by the revenue each brings (a question naming a measure is read as that measure).
_OFFERINGS = re.compile(
    r"\b(?:products?|services?|offerings?)\b[^?.]*?\b(?:sells?|sold|offers?|provides?|makes?)\b"
    r"|\bwhat\s+(?:does|do|did)\b[^?.]*?\b(?:sell|offer)\b",
    re.I,
)
_YES_NO = re.compile(r"^\s*(?:does|do|did|is|are|was|were|has|have|had)\b", re.I)
#: Rows that reconcile the parts to the total rather than being a part of the business.
_ADJUSTMENT = re.compile(
    r"\b(?:eliminat\w*|unallocat\w*|intersegment|reconcil\w*|corporate|adjust\w*)\b", re.I
)
_FOOTNOTE_MARKS = re.compile(r"(?:\s*\((?:\d+|[a-z])\))+\s*$")


@dataclass(frozen=True)
class PartAsk:
    """What a question asks of a company's parts: ``kind`` is ``highest``, ``lowest`` (by
    size), ``fastest``, ``slowest`` (by change), ``above`` (a share ``threshold``, in %),
    ``declined``, ``listed``, ``offered`` (what the company sells) or ``named`` (the
    parts the question names by their labels, "how much of revenue came from Services?")."""

    kind: str
    measure: str  # "revenue", "operating income", "net income"
    threshold: float | None = None
    yes_no: bool = False


def read_part_ask(question: str) -> PartAsk | None:
    """The question's ask of the company's parts, or None when it names no part, no measure
    a breakdown table splits, or a measure the company adjusts itself."""
    if asks_adjusted(question):
        return None  # an organic or ex-M&A change is not the table's reported one
    measure = next((name for pattern, name in _MEASURES if pattern.search(question)), None)
    if measure is None and _OFFERINGS.search(question):
        return PartAsk("offered", "revenue")
    if measure is not None and SHARE_FROM_RE.search(question):
        return PartAsk("named", measure)  # "how much of revenue came from Services?"
    if not (_PART_NOUN.search(question) or PART_RE.search(question)):
        return None
    if measure is None and (_GROWTH.search(question) or _PRESENCE.search(question)):
        # "which segment dragged down growth": a company grows by sales; "the geographies
        # it has a presence in": the places its sales come from
        measure = "revenue"
    if measure is None:
        return None
    yes_no = _YES_NO.search(question) is not None
    if above := _ABOVE.search(question):
        return PartAsk("above", measure, float(above.group(1)), yes_no)
    # "the largest decline" asks for the parts that declined, the steepest first.
    if _DECLINED.search(question):
        return PartAsk("declined", measure, yes_no=yes_no)
    ranked = "highest" if _HIGHEST.search(question) or _BEST.search(question) else None
    ranked = "lowest" if _LOWEST.search(question) else ranked
    if ranked and _BY_CHANGE.search(question):  # "grew fastest", "worst performance"
        return PartAsk("fastest" if ranked == "highest" else "slowest", measure, yes_no=yes_no)
    if ranked:
        return PartAsk(ranked, measure, yes_no=yes_no)
    return PartAsk("listed", measure, yes_no=yes_no)


@dataclass(frozen=True)
class PartTable:
    """A question's breakdown in one slice: the ask, the parts, the page they were read
    from and the consolidated figure (and its prior year's) they add up to."""

    ask: PartAsk
    breakdown: Breakdown
    page: Citation
    total: Calculation
    prior: Calculation | None
    #: The parts the question names itself ("Americas" and "Europe"), in table order.
    named: tuple[Part, ...] = ()


class PartTables:
    """Finds a question's breakdown table among the slice's searched pages (once per
    question and slice: the probe and its answer ask for it again)."""

    def __init__(self, search: PageSearch) -> None:
        self._search = search
        self._cache: dict[tuple[str, SliceRef], PartTable | None] = {}
        self._lock = threading.Lock()

    def table(self, question: str, ref: SliceRef, figures: Consolidated) -> PartTable | None:
        """The breakdown the question asks about, or None (no part, no measure, no page
        whose rows add up to the slice's consolidated figure)."""
        key = (question, ref)
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        found = self._find(question, ref, figures)
        with self._lock:
            self._cache[key] = found
        return found

    def _find(self, question: str, ref: SliceRef, figures: Consolidated) -> PartTable | None:
        ask = read_part_ask(question)
        if ask is None:
            return None
        total, prior = figures(ask.measure, question, ref)
        if total is None or total.value <= 0:
            return None
        prior_total = prior.value if prior is not None else None
        # The question's own words, then the table's usual titles: a question about growth
        # finds the discussion first, and the table may sit on another page ("Net revenues
        # by geography", "by geographic area", "by segment").
        places_asked = _geographic(question)
        offered = ask.kind == "offered"
        # lines of business, or a part named by its label ("Services", "hardware")
        goods = offered or ask.kind == "named" or bool(_BUSINESS_NOUN.search(question))
        kinds = _PLACE_TITLES if places_asked else _OFFERING_TITLES if goods else _PART_TITLES
        hits = list(self._search(question, ref))
        for kind in kinds:
            hits += self._search(f"{ask.measure} by {kind}", ref)
        pages = {hit.uid: hit for hit in hits}.values()
        found = [
            (hit, breakdown)
            for hit in pages
            if (breakdown := find_breakdown(hit.text, total.value, prior_total))
            and (_places(breakdown) or not places_asked)  # places asked, places read
            and not (offered and _places(breakdown))  # what it sells is not where
        ]
        if ask.kind == "named":  # only a table that holds the part asked
            found = [f for f in found if _named(question, f[1])]
        if not found:
            return None
        # The best fit to the question's words; the search's order among equals.
        hit, breakdown = max(found, key=lambda f: fit(question, f[0].text, f[1]))
        page = page_citation(hit)
        kept = prior if breakdown.prior_total is not None else None
        return PartTable(ask, breakdown, page, total, kept, _named(question, breakdown))


#: How filings title a table of revenue by part, by place, and by what is sold.
_PART_TITLES = ("segment",)
_PLACE_TITLES = ("geographic area", "geography region country")
_OFFERING_TITLES = ("product category", "products and services", "segment")
#: The words that say which kind of parts a table lists ("net sales by category", "by
#: reportable segment", "geographic information").
_KIND_WORDS = re.compile(
    r"\b(segment|geograph|region|categor|product|service|division|business|countr)\w*", re.I
)
_WORD = re.compile(r"[a-z]+")
_COMMON = frozenset(
    "a an and as at by for from in of on or the to total other net sales revenue revenues "
    "income operating".split()
)


def _named(question: str, breakdown: Breakdown) -> tuple[Part, ...]:
    """The parts whose labels the question writes out ("Americas", "Services")."""
    asked = _words(question)
    return tuple(p for p in breakdown.parts if (own := _words(part_label(p))) and own <= asked)


def _words(text: str) -> set[str]:
    """A label's or a question's own words: ``U.S.`` is ``us``; common words left out."""
    return set(_WORD.findall(text.lower().replace(".", ""))) - _COMMON


#: Places a table of revenue by geography names, beyond the question's own geography words
#: (:data:`programs.figure_questions.PART_RE`): countries, regions, "rest of world".
_PLACE = re.compile(
    r"\b(?:kingdom|germany|france|italy|spain|netherlands|switzerland|canada|mexico|brazil|"
    r"australia|korea|taiwan|singapore|hong\s+kong|middle\s+east|africa|pacific|"
    r"(?:rest|other)\s+of\s+(?:the\s+)?world|other\s+countries|hemisphere|worldwide|"
    r"western|eastern|northern|southern|region\w*)\b",
    re.IGNORECASE,
)


def _places(breakdown: Breakdown) -> bool:
    """Whether at least half the parts are places ("Americas", "U.S.", "Germany",
    "Rest of world")."""
    labels = [part_label(p) for p in breakdown.parts]
    places = [label for label in labels if PART_RE.search(label) or _PLACE.search(label)]
    return 2 * len(places) >= len(labels)


def _kinds(text: str) -> set[str]:
    """The kinds of part ``text`` names; a category is a product ("net sales by category")."""
    return {"product" if k == "categor" else k for k in map(str.lower, _KIND_WORDS.findall(text))}


def _geographic(question: str) -> bool:
    """Whether the question asks about places (a region, a country, "international")."""
    named = PART_RE.search(_PART_NOUN.sub(" ", question))
    return bool(named or _kinds(question) & {"geograph", "region", "countr"})


def fit(question: str, text: str, breakdown: Breakdown) -> int:
    """How well a page's breakdown fits the question: the kinds of part the question names
    that the table's heading names too, geographic rows for a geographic question, each
    part the question names itself; a primary statement's own split (products and
    services on the income statement) is the last choice."""
    asked = _kinds(question)
    score = 2 * len(asked & _kinds(breakdown.heading))
    if _geographic(question) and _places(breakdown):
        score += 2
    words = _words(question)
    score += sum(1 for p in breakdown.parts if _words(part_label(p)) & words)
    if _BUSINESS_NOUN.search(question) and _places(breakdown):
        score -= 3  # its businesses or categories: places only when nothing else adds up
    head = text.split("\n")[:15]
    return score - (2 if any(heading_statement(line) for line in head) else 0)


def part_label(part: Part) -> str:
    """The row label without its footnote marks: ``iPhone (1)`` -> ``iPhone``."""
    return _FOOTNOTE_MARKS.sub("", part.label).strip()


def _change(breakdown: Breakdown, part: Part) -> str:
    """``, +7.0% from $191,973 million`` (none for a reconciling row: its size is no trend)."""
    change = None if _ADJUSTMENT.search(part.label) else breakdown.change(part)
    return "" if change is None else f", {change * 100:+.1f}% from {millions(part.prior or 0)}"


def part_probe(table: PartTable, ref: SliceRef) -> Probe:
    """The probe code answers: the measure by part, read from the filing's table."""
    measure, period = table.ask.measure, table.total.period.label
    return Probe(
        probe_title=f"{measure.capitalize()} by part (from the filing's table)",
        probe_question=f"How did {ref.ticker}'s {measure} in {period} split among its parts?",
    )


def part_answer(table: PartTable) -> tuple[CitedAnswer, Figure]:
    """The parts' figures in one cited sentence, after code's answer to the choice asked
    (the highest, the lowest, those above a share, those that declined)."""
    ask, breakdown = table.ask, table.breakdown
    fact_pages = _fact_pages(table)
    citations = list({c.uid: c for c in [table.page, *fact_pages]}.values())
    numbers = {c.uid: n for n, c in enumerate(citations, 1)}
    page_mark = render_marker([numbers[table.page.uid]])
    every_mark = render_marker(list(numbers.values()))
    total_mark = render_marker(sorted({numbers[c.uid] for c in fact_pages}))
    period = table.total.period.label
    listed = "; ".join(
        f"{part_label(p)} {millions(p.value)} ({breakdown.share(p) * 100:.1f}%"
        f"{_change(breakdown, p)})"
        for p in breakdown.parts
    )
    body = (
        f"{ask.measure.capitalize()} in {period} was {millions(breakdown.total)}{total_mark}, "
        f"split as: {listed}{page_mark}."
    )
    verdict, chosen = _verdict(ask, breakdown, table.named)
    if verdict:
        body = f"{verdict}{every_mark}. {body}"
    footnotes = [Footnote(number=n, citation=c) for n, c in enumerate(citations, 1)]
    answer = CitedAnswer(body=body, references=ReferenceList(footnotes=footnotes))
    figure = Figure(
        title=f"{ask.measure.capitalize()} of {part_label(chosen)}" if chosen else ask.measure,
        period=period,
        value=chosen.value if chosen else breakdown.total,
        unit="USD",
        text=millions(chosen.value if chosen else breakdown.total),
        uids=list(numbers),
        verdict=verdict,
    )
    return answer, figure


def _compared(ask: PartAsk, breakdown: Breakdown, named: Sequence[Part]) -> str:
    """``Americas grew faster than Europe: +10.7% against +6.5%`` for exactly two named
    parts whose change the table gives; empty otherwise."""
    changes = [(p, c) for p in named if (c := breakdown.change(p)) is not None]
    if len(named) != 2 or len(changes) != 2:
        return ""
    (first, a), (second, b) = sorted(changes, key=lambda pc: -pc[1])
    if a == b:
        return f"{part_label(first)} and {part_label(second)} changed alike: {a:+.1%}"
    better = "grew faster than" if b >= 0 else "grew while" if a >= 0 else "fell less than"
    if better == "grew while":
        return (
            f"{part_label(first)}{_possessive(first)} {ask.measure} grew {a:+.1%} while "
            f"{part_label(second)}{_possessive(second)} fell {b:+.1%}"
        )
    return f"{part_label(first)} {better} {part_label(second)}: {a:+.1%} against {b:+.1%}"


def _possessive(part: Part) -> str:
    return "’" if part_label(part).endswith("s") else "’s"


def _fact_pages(table: PartTable) -> list[Citation]:
    """The pages of the consolidated figure (and the prior year's) the parts add up to."""
    computed = [table.total, *([table.prior] if table.prior else [])]
    return [fact_citation(f) for c in computed for f in c.inputs]


def _verdict(
    ask: PartAsk, breakdown: Breakdown, asked_parts: Sequence[Part] = ()
) -> tuple[str, Part | None]:
    """Code's answer to the choice asked, and the part it names (None for a list); a list
    asked of two parts the question names ("How did Americas' growth compare with
    Europe's?") opens with their comparison."""
    parts = [p for p in breakdown.parts if not _ADJUSTMENT.search(p.label)]
    if not parts:
        return "", None
    if ask.kind == "listed" and (compared := _compared(ask, breakdown, asked_parts)):
        return compared, None
    if ask.kind == "named" and asked_parts:
        shares = "; ".join(
            f"{part_label(p)}: {millions(p.value)}, {breakdown.share(p) * 100:.1f}% of "
            f"{ask.measure}{_change(breakdown, p)}"
            for p in asked_parts
        )
        return shares, asked_parts[0]
    if ask.kind == "offered":
        ranked = sorted(parts, key=lambda p: -p.value)
        named = ", ".join(f"{part_label(p)} ({breakdown.share(p) * 100:.1f}%)" for p in ranked)
        return f"What it sells, by share of {ask.measure}: {named}", None
    if ask.kind in ("highest", "lowest"):
        pick = max if ask.kind == "highest" else min
        part = pick(parts, key=lambda p: p.value)
        share = breakdown.share(part) * 100
        line = (
            f"{part_label(part)} had the {ask.kind} {ask.measure}: {millions(part.value)}, "
            f"{share:.1f}% of the total"
        )
        return line, part
    if ask.kind == "above" and ask.threshold is not None:
        above = [p for p in parts if breakdown.share(p) * 100 > ask.threshold]
        named = ", ".join(f"{part_label(p)} ({breakdown.share(p) * 100:.1f}%)" for p in above)
        opening = ("Yes: " if above else "No: ") if ask.yes_no else ""
        if not above:
            return f"{opening}no part had more than {ask.threshold:g}% of {ask.measure}", None
        had = "each had" if len(above) > 1 else "had"
        return f"{opening}{named} {had} more than {ask.threshold:g}% of {ask.measure}", None
    changed = [p for p in parts if breakdown.change(p) is not None]
    if ask.kind in ("fastest", "slowest") and changed:
        pick = max if ask.kind == "fastest" else min
        part = pick(changed, key=lambda p: breakdown.change(p) or 0.0)
        change = breakdown.change(part) or 0.0
        moved = (
            f"grew fastest: {change:+.1%}"
            if ask.kind == "fastest"
            else f"changed least: {change:+.1%}"
            if change >= 0
            else f"fell the most: {change:+.1%}"
        )
        line = (
            f"{part_label(part)}{_possessive(part)} {ask.measure} {moved}, "
            f"from {millions(part.prior or 0)} to {millions(part.value)}"
        )
        return line, part
    if ask.kind == "declined" and breakdown.prior_total is not None:
        fell = sorted(
            (p for p in parts if (c := breakdown.change(p)) is not None and c < 0),
            key=lambda p: breakdown.change(p) or 0.0,
        )
        if not fell:
            return f"No part's {ask.measure} declined", None
        named = ", ".join(
            f"{part_label(p)} ({(breakdown.change(p) or 0) * 100:+.1f}%)" for p in fell
        )
        return f"{ask.measure.capitalize()} declined in {named}", fell[0]
    return "", None
