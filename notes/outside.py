"""The two sections whose sources live outside the grid: market data and news.

The layering lets only the front ends import ``market`` and ``websources`` (the grid and the
calculator stay offline; ``tests/test_layering.py``, ``tests/test_market_layering.py``), so
this module takes their results by shape: any object with the fields of
``market.indicators.Indicator``, ``market.multiples.Multiple`` or ``websources.NewsItem``.
The command (``cli/note_command.py``) asks the providers and hands the results in, or a
one-line reason when a source is not configured or does not have the ticker; that line is
the whole section, so an unconfigured source costs the reader one line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Protocol

from calculator.result import fact_citation
from notes.model import CitedSentence, Section
from notes.sources import PriceCitation, SourceBook, WebCitation
from retrieval.facts.model import Fact


class PriceSourceLike(Protocol):
    provider: str
    detail: str
    as_of: date


class IndicatorLike(Protocol):
    key: str
    label: str
    value: float | None
    unit: str
    source: Any  # PriceSourceLike
    reason: str | None


class MultipleLike(Protocol):
    key: str
    label: str
    formula: str
    value: float | None
    inputs: Sequence[Any]  # each with name, value, unit, source (a price or a fact source)
    fiscal_year: int | None
    reason: str | None


class NewsLike(Protocol):
    uid: str
    url: str
    title: str
    publisher: str
    published: datetime | None
    retrieved_at: datetime


@dataclass
class OutsideSources:
    """What the command gathered from price and news providers, or why it has nothing."""

    indicators: Sequence[Any] = ()
    multiples: Sequence[Any] = ()
    synthetic_prices: bool = False
    market_unavailable: str | None = None
    news: Sequence[Any] = field(default_factory=list)
    news_query: str = ""
    news_unavailable: str | None = "News is not configured."
    news_limit: int = 5


def _value(value: float, unit: str, signed: bool = False) -> str:
    if unit == "fraction":
        return f"{value * 100:+.2f}%" if signed else f"{value * 100:.2f}%"
    if unit == "index":
        return f"{value:.1f}"
    return f"{value:,.2f}"


def market_section(
    book: SourceBook, outside: OutsideSources, facts_by_uid: dict[str, Fact]
) -> Section:
    """Last close, returns, moving averages, RSI, volatility and the multiples, each cited
    to the price series (and, for a multiple, the statement pages of its facts)."""
    section = Section("market", "Market data and valuation")
    if outside.market_unavailable or not outside.indicators:
        section.unavailable = outside.market_unavailable or "No price source has this ticker."
        return section
    first = outside.indicators[0].source
    price = PriceCitation(first.provider, first.detail, first.as_of, outside.synthetic_prices)
    cite = book.cite(price)
    if outside.synthetic_prices:
        section.sentences.append(
            CitedSentence(
                "These prices are the bundled synthetic sample (market/sample/README.md), not "
                "the company's market prices, so every price-based figure below is illustrative.",
                cite,
            )
        )
    for item in outside.indicators:
        if item.value is None:
            text = f"{item.label} is not available: {item.reason}."
        elif item.key == "last_close":
            text = f"The last close was {_value(item.value, item.unit)} on {item.source.as_of}."
        else:
            shown = _value(item.value, item.unit, signed=item.key.startswith("return"))
            text = f"{item.label} is {shown} as of {item.source.as_of}."
        section.sentences.append(CitedSentence(text, cite, bullet=True))
    for multiple in outside.multiples:
        facts = [
            facts_by_uid.get(i.source.uid)
            for i in multiple.inputs
            if hasattr(i.source, "uid") and i.source.uid in facts_by_uid
        ]
        pages = [fact_citation(f) for f in facts if f is not None]
        numbers = book.cite(price, *pages)
        inputs = ", ".join(f"{i.name} {_input(i.value, i.unit)}" for i in multiple.inputs)
        year = f" FY{multiple.fiscal_year}" if multiple.fiscal_year else ""
        if multiple.value is None:
            text = f"{multiple.label} is not available: {multiple.reason}."
        else:
            text = (
                f"{multiple.label} is {multiple.value:.2f}x ({multiple.formula}{year}; {inputs})."
            )
        section.sentences.append(CitedSentence(text, numbers, bullet=True))
    return section


def _input(value: float, unit: str) -> str:
    if unit in ("USD", "shares") and abs(value) >= 1e6:
        return f"{value / 1e6:,.1f}".removesuffix(".0") + f" million {unit}"
    return f"{value:,.2f} {unit}"


def catalysts_section(book: SourceBook, outside: OutsideSources) -> Section:
    """Recent news items, newest first, each cited to its web source; or one line."""
    section = Section("catalysts", "Recent catalysts (news)")
    if outside.news_unavailable:
        section.unavailable = outside.news_unavailable
        return section
    items = list(outside.news)[: outside.news_limit]
    if not items:
        section.unavailable = f"The news provider found nothing for “{outside.news_query}”."
        return section
    section.context.append(
        f"Headlines found for “{outside.news_query}”; listed, not read or judged by the note."
    )
    for item in items:
        web = WebCitation(
            item.uid, item.url, item.title, item.publisher, item.retrieved_at, item.published
        )
        when = f"{item.published.date()}, " if item.published else ""
        text = f"{when}{item.publisher}: “{item.title.rstrip('.')}”."
        section.sentences.append(CitedSentence(text, book.cite(web), bullet=True))
    return section
