"""Latest results and three-year trends, from statement facts, by code.

Figures are picked by the calculator's :class:`~calculator.resolution.FactResolver` (the
concept's home statement first, then the named document, an exact duration, the earliest
page), the choice ``research ask`` and ``research prices`` make. Comparisons read every
figure from the latest filing, so a year and the year before it are both as that filing
prints them (restated where the company restated), and both cite the same statement page.
Changes are plain arithmetic on the two facts; operating margin is the calculator's named
metric. A figure the grid lacks is left out of its sentence, never estimated.
"""

from __future__ import annotations

from collections.abc import Sequence

from calculator import Calculation, CalculationError, calculate
from calculator.resolution import FactResolver
from citations.markup import render_marker
from domain.periods import Period
from notes.model import CitedSentence, Section
from notes.sources import SourceBook
from retrieval.facts.display import printed_value
from retrieval.facts.model import Fact

#: The line items of both sections, in the order they are shown.
ITEMS = (
    ("revenue", "Revenue"),
    ("operating_income", "Operating income"),
    ("net_income_attributable", "Net income attributable to shareholders"),
    ("diluted_eps", "Diluted EPS"),
)
#: When a company prints only "Net income", that is what its shareholders earned.
FALLBACK = {"net_income_attributable": ("net_income", "Net income")}


def latest_year(facts: Sequence[Fact]) -> int | None:
    """The latest fiscal year with a full-year revenue fact."""
    years = [f.fy for f in facts if f.concept == "revenue" and f.fq is None]
    return max(years) if years else None


def latest_quarter(facts: Sequence[Fact]) -> Period | None:
    """The latest fiscal quarter with a three-month revenue fact."""
    found = {
        (f.fy, f.fq) for f in facts if f.concept == "revenue" and f.fq and f.duration == "quarter"
    }
    return Period(*max(found)) if found else None


def own_document(facts: Sequence[Fact], ticker: str, label: str) -> str | None:
    """The document name of the filing labelled ``label`` (``MMM 10-K FY2022``)."""
    return next((f.doc_name for f in facts if f.doc_label == label and f.ticker == ticker), None)


def _pick(resolver: FactResolver, concept: str, period: Period) -> tuple[Fact | None, str]:
    """The fact for ``concept`` (or its fallback) at ``period``, and the label to print."""
    title = dict(ITEMS)[concept]
    fact = resolver.pick(concept, period)
    if fact is None and concept in FALLBACK:
        concept, title = FALLBACK[concept]
        fact = resolver.pick(concept, period)
    return fact, title


def change_text(current: float, prior: float) -> str:
    """``up 3.2%`` / ``down 3.2%`` / ``unchanged``; not meaningful from a non-positive base."""
    if prior <= 0:
        return "a change that is not meaningful from a base that is not positive"
    change = current / prior - 1
    if abs(change) < 0.0005:
        return "unchanged"
    return f"{'up' if change > 0 else 'down'} {abs(change) * 100:.1f}%"


def _comparison(
    book: SourceBook,
    resolver: FactResolver,
    concept: str,
    period: Period,
    others: Sequence[tuple[Period, str]],
) -> CitedSentence | None:
    fact, title = _pick(resolver, concept, period)
    if fact is None:
        return None
    clauses, used = [], [fact]
    for other, why in others:
        before = resolver.pick(fact.concept or concept, other)
        if before is None:
            continue
        used.append(before)
        clauses.append(
            f"{change_text(fact.value, before.value)} from {printed_value(before)} in "
            f"{other.name}{why}"
        )
    if not clauses:
        return None
    text = f"{title} was {printed_value(fact)} in {period.name}, {' and '.join(clauses)}."
    return CitedSentence(text, book.cite_facts(*used), tuple(used), bullet=True)


def results_section(book: SourceBook, facts: Sequence[Fact], ticker: str) -> Section:
    """Latest fiscal year against the year before; latest quarter against the same quarter a
    year earlier and the quarter before, where the grid holds quarterly facts."""
    section = Section("results", "Latest results")
    year = latest_year(facts)
    if year is None:
        section.unavailable = f"The grid holds no full-year statement facts for {ticker}."
        return section
    annual = FactResolver(facts, own_document(facts, ticker, f"{ticker} 10-K FY{year}"))
    for concept, _ in ITEMS:
        found = _comparison(book, annual, concept, Period(year), [(Period(year - 1), "")])
        if found:
            section.sentences.append(found)
    quarter = latest_quarter(facts)
    if quarter is not None and quarter.fy >= year:
        doc = next(
            (f.doc_name for f in facts if f.fy == quarter.fy and f.fq == quarter.fq and f.fq),
            None,
        )
        resolver = FactResolver(facts, doc)
        prior = Period(quarter.fy, quarter.fq - 1) if quarter.fq and quarter.fq > 1 else None
        others = [(Period(quarter.fy - 1, quarter.fq), " (a year earlier)")]
        if prior is not None:
            others.append((prior, " (the quarter before)"))
        for concept, _ in ITEMS:
            found = _comparison(book, resolver, concept, quarter, others)
            if found:
                section.sentences.append(found)
    if not section.sentences:
        section.unavailable = f"The grid holds no comparable statement facts for {ticker}."
    return section


def _millions(fact: Fact) -> str:
    if fact.unit == "USD/share":
        return f"{fact.value:,.2f}"
    return f"{fact.value / 1e6:,.1f}".removesuffix(".0")


def trends_section(book: SourceBook, facts: Sequence[Fact], ticker: str) -> Section:
    """The line items over the latest three fiscal years, as the latest 10-K prints them,
    with operating margin; a table and one sentence per line."""
    section = Section("trends", "Three-year trends")
    year = latest_year(facts)
    if year is None:
        section.unavailable = f"The grid holds no full-year statement facts for {ticker}."
        return section
    doc = own_document(facts, ticker, f"{ticker} 10-K FY{year}")
    resolver = FactResolver(facts, doc)
    years = [Period(y) for y in (year - 2, year - 1, year)]
    rows = []
    for concept, _ in ITEMS:
        picked = [_pick(resolver, concept, p) for p in years]
        present = [(p, f) for p, (f, _) in zip(years, picked, strict=True) if f is not None]
        if len(present) < 2:
            continue
        title = next(t for f, t in picked if f is not None)
        unit = "USD per share" if present[0][1].unit == "USD/share" else "USD million"
        cells = [f"{_millions(f)}{_marker(book, f)}" if f is not None else "–" for f, _ in picked]
        rows.append(f"| {title} ({unit}) | " + " | ".join(cells) + " |")
        (first_p, first), (last_p, last) = present[0], present[-1]
        text = (
            f"{title} went from {printed_value(first)} in {first_p.name} to "
            f"{printed_value(last)} in {last_p.name}, {change_text(last.value, first.value)}."
        )
        used = (first, last)  # the facts the sentence states; the table shows the rest
        section.sentences.append(CitedSentence(text, book.cite_facts(*used), used, bullet=True))
    margins = [_margin(resolver, p) for p in years]
    if sum(m is not None for m in margins) >= 2:
        cells = [f"{m.value * 100:.1f}%{_marker(book, *m.inputs)}" if m else "–" for m in margins]
        rows.append("| Operating margin (operating income ÷ revenue) | " + " | ".join(cells) + " |")
        known = [m for m in margins if m is not None]
        first, last = known[0], known[-1]
        # The change between the margins as printed, so the reader's subtraction agrees.
        points = round(last.value * 100, 1) - round(first.value * 100, 1)
        text = (
            f"Operating margin (operating income ÷ revenue) went from {first.value * 100:.1f}% "
            f"in {first.period.name} to {last.value * 100:.1f}% in {last.period.name}, "
            f"{'up' if points >= 0 else 'down'} {abs(points):.1f} percentage points."
        )
        used = tuple(dict.fromkeys((*first.inputs, *last.inputs)))
        section.sentences.append(CitedSentence(text, book.cite_facts(*used), used, bullet=True))
    if not rows:
        section.unavailable = f"The grid holds fewer than two fiscal years of facts for {ticker}."
        return section
    head = "| line item | " + " | ".join(p.name for p in years) + " |"
    rule = "| --- | " + " | ".join("---:" for _ in years) + " |"
    section.table = "\n".join([head, rule, *rows])
    return section


def _margin(resolver: FactResolver, period: Period) -> Calculation | None:
    try:
        return calculate("operating_margin", resolver, period)
    except CalculationError:
        return None


def _marker(book: SourceBook, *facts: Fact) -> str:
    return render_marker(book.cite_facts(*facts))
