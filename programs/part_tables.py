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
cited to the table's page; nothing is written when no page of the slice adds up. This
module finds the table; :mod:`programs.part_answers` writes the answer.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from calculator.breakdown import Breakdown, Part, find_breakdown
from calculator.result import Calculation
from citations.markup import Citation
from domain.cells import SliceRef
from programs.figure_questions import PART_RE, SHARE_FROM_RE, asks_adjusted, names_a_part
from programs.page_hits import PageHit, page_citation
from retrieval.facts.headings import heading_statement

#: Searches the slice's pages for a query, best first.
PageSearch = Callable[[str, SliceRef], Sequence[PageHit]]
#: The slice's consolidated figure of a measure ("revenue") for the period a question asks,
#: and the year before's (:meth:`programs.figures.Figures.consolidated`).
Consolidated = Callable[[str, str, SliceRef], tuple[Calculation | None, Calculation | None]]

#: Parts that are lines of what a company sells: "which of its businesses", "product
#: categories", "lines of business", "revenue lines", "sources of revenue"; a table of
#: them is read before one of places ("segments" may be regions: McDonald's).
_LINES_OF_BUSINESS = (
    r"businesses|categor(?:y|ies)|product\s+lines?|business\s+(?:units?|lines?|groups?)|"
    r"lines?\s+of\s+business|(?<=which\s)business(?!\s+(?:model|day|strateg))|"
    r"(?:revenue|sales)\s+(?:lines?|streams?|sources?|types?)|sources?\s+of\s+(?:revenue|sales)|"
    # "Which of Apple's products had the highest net sales?": products ranked by a measure
    r"products?(?=\s+(?:had|has|have|was|were|brought|generated|contributed|grew|declined|saw"
    r"|accounted))"
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
#: "Which of them brought in more?": a choice between parts by a comparative, read as the
#: highest (or lowest) of the parts the question names.
_WHICH = re.compile(r"^\s*(?:which|what)\b", re.I)
_MORE = re.compile(r"\b(?:more|larger|bigger|higher|greater)\b", re.I)
_LESS = re.compile(r"\b(?:less|fewer|smaller|lower)\b", re.I)
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
#: "Which segments did Intel report in FY2020?", "What are Apple's reportable segments?":
#: the segments themselves, with no measure named.
_SEGMENTS_ASKED = re.compile(
    r"^\s*(?:which|what)\s+(?:are\s+|were\s+)?(?:the\s+)?(?:[\w&.'’-]+\s+){0,3}?"
    r"(?:reportable\s+|reporting\s+|operating\s+|business\s+)?segments\b",
    re.I,
)
_YES_NO = re.compile(r"^\s*(?:does|do|did|is|are|was|were|has|have|had)\b", re.I)
_FOOTNOTE_MARKS = re.compile(r"(?:\s*\((?:\d+|[a-z])\))+\s*$")


@dataclass(frozen=True)
class PartAsk:
    """What a question asks of a company's parts: ``kind`` is ``highest``, ``lowest`` (by
    size), ``fastest``, ``slowest`` (by change), ``above`` (a share ``threshold``, in %),
    ``declined``, ``listed``, ``offered`` (what the company sells) or ``named`` (the
    parts the question names by their labels, "how much of revenue came from Services?",
    with a ``threshold`` where it asks whether one's share is above it)."""

    kind: str
    measure: str  # "revenue", "operating income", "net income"
    threshold: float | None = None
    yes_no: bool = False
    #: A named part's question, for the way it asks the part moved ("higher or lower?").
    asked: str = field(default="", compare=False)


def read_part_ask(question: str) -> PartAsk | None:
    """The question's ask of the company's parts, or None when it names no part, no measure
    a breakdown table splits, or a measure the company adjusts itself."""
    if asks_adjusted(question):
        return None  # an organic or ex-M&A change is not the table's reported one
    measure = next((name for pattern, name in _MEASURES if pattern.search(question)), None)
    if measure is None and _OFFERINGS.search(question):
        return PartAsk("offered", "revenue")
    # "how much of revenue came from Services?", "its Services revenue" (a place or a
    # segment before the measure is read below, as any question about places is)
    named_before = names_a_part(question) and not PART_RE.search(question)
    ranked_part = _PART_NOUN.search(question) and (
        _HIGHEST.search(question) or _LOWEST.search(question)
    )  # "what share of revenue came from its largest segment?" names no part's label
    if measure is not None and (SHARE_FROM_RE.search(question) or named_before) and not ranked_part:
        # "Was its cloud revenue more than 70% of revenue?": that part's share, against it
        if above := _ABOVE.search(question):
            yes_no = _YES_NO.search(question) is not None
            return PartAsk("named", measure, float(above.group(1)), yes_no, question)
        return PartAsk("named", measure, asked=question)
    if not (_PART_NOUN.search(question) or PART_RE.search(question)):
        return None
    if measure is None and (
        _GROWTH.search(question) or _PRESENCE.search(question) or _SEGMENTS_ASKED.search(question)
    ):
        # "which segment dragged down growth": a company grows by sales; "the geographies
        # it has a presence in": the places its sales come from; "which segments does it
        # report?": the segments its sales are split by
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
    if ranked is None and _WHICH.search(question):
        more, less = _MORE.search(question), _LESS.search(question)
        ranked = "highest" if more else "lowest" if less else None
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
        total_label = next(pattern for pattern, name in _MEASURES if name == ask.measure)
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
            if (breakdown := find_breakdown(hit.text, total.value, prior_total, total_label))
            and (_places(breakdown) or not places_asked)  # places asked, places read
            and not (offered and _places(breakdown))  # what it sells is not where
        ]
        if ask.kind == "named":  # only a table that holds the part asked
            found = [f for f in found if _named(question, f[1])]
        # A table that adds up to the consolidated figure itself before one that foots to its
        # own total before reconciling items.
        found = [f for f in found if f[1].consolidated is None] or found
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
    """The parts whose labels the question writes out ("Americas", "Services"); a label
    whose words are all inside a longer one named is not named apart ("Services" in
    Oracle's "cloud services and license support")."""
    asked = _words(question)
    named = [(p, own) for p in breakdown.parts if (own := _words(part_label(p))) and own <= asked]
    return tuple(p for p, own in named if not any(own < other for _, other in named))


#: Names a question and a table write differently for one place ("the United States" asked,
#: eBay's table printing "U.S.").
_ALIASES = (
    (re.compile(r"\bunited\s+states(?:\s+of\s+america)?\b|\busa\b"), "us"),
    (re.compile(r"\bunited\s+kingdom\b"), "uk"),
)


def _words(text: str) -> set[str]:
    """A label's or a question's own words: ``U.S.``, ``USA`` and ``United States`` are
    ``us``, ``U.K.`` and ``United Kingdom`` ``uk``; common words left out."""
    plain = text.lower().replace(".", "")
    for alias, name in _ALIASES:
        plain = alias.sub(name, plain)
    return set(_WORD.findall(plain)) - _COMMON


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


def _title_kinds(heading: str) -> set[str]:
    """The kinds of part a table's title names: the heading's last line that names any
    ("Net revenue by country" under a sentence about "operating segments")."""
    for line in reversed(heading.splitlines()):
        if kinds := _kinds(line):
            return kinds
    return set()


def fit(question: str, text: str, breakdown: Breakdown) -> int:
    """How well a page's breakdown fits the question: the kinds of part the question names
    that the table's heading names too, geographic rows for a geographic question (and not
    for another kind, unless the table's title names that kind: McDonald's segments are
    places), each part the question names itself; a primary statement's own split
    (products and services on the income statement) is the last choice."""
    asked = _kinds(question)
    score = 2 * len(asked & _kinds(breakdown.heading))
    if _geographic(question) and _places(breakdown):
        score += 2
    elif asked and not asked & _title_kinds(breakdown.heading) and _places(breakdown):
        # "which segment": a table of countries lose to one of segments, whatever the
        # prose above it says ("sold by the CCG and DCG operating segments")
        score -= 3
    words = _words(question)
    score += sum(1 for p in breakdown.parts if _words(part_label(p)) & words)
    if _BUSINESS_NOUN.search(question) and _places(breakdown):
        score -= 3  # its businesses or categories: places only when nothing else adds up
    head = text.split("\n")[:15]
    return score - (2 if any(heading_statement(line) for line in head) else 0)


def part_label(part: Part) -> str:
    """The row label without its footnote marks: ``iPhone (1)`` -> ``iPhone``."""
    return _FOOTNOTE_MARKS.sub("", part.label).strip()
