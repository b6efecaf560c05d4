"""One Sources list for a note, numbered once across every kind of source.

A note cites three kinds of thing: a filing page (the business description, a risk factor,
and the statement page a fact was read from), a price series (a provider, what it read and
the date of its last bar) and a web document (URL, title, publisher, when it was read).
Readers follow one sequence of superscript numbers, so the numbering is kept here, in the
order sources are first cited, whatever their kind.

A filing page's footnote is the citation protocol's own line (``citations.markup``:
``¹ MMM 10-K FY2022 p.48 (page_id: …, uid: …)``), so ``parse_cited_answer`` reads a note's
page citations like any report's. A price series and a web document have no page; their
lines say what they are in words and are left alone by that parser.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from calculator.result import fact_citation
from citations.markup import Citation, Footnote, to_superscript
from retrieval.facts.model import Fact
from retrieval.pages import Page


@dataclass(frozen=True)
class PriceCitation:
    """A price series: the provider, what it read (a file, a symbol) and the last bar's date."""

    provider: str
    detail: str
    as_of: date
    synthetic: bool = False

    def render(self) -> str:
        note = " (bundled SYNTHETIC sample prices, not market data)" if self.synthetic else ""
        return f"price series: {self.provider} ({self.detail}), as of {self.as_of}{note}"


@dataclass(frozen=True)
class WebCitation:
    """A web document or news item: what a reader needs to find it again."""

    uid: str
    url: str
    title: str
    publisher: str
    retrieved_at: datetime
    published: datetime | None = None

    def render(self) -> str:
        when = f", published {self.published.date()}" if self.published else ""
        read = self.retrieved_at.strftime("%Y-%m-%d %H:%M UTC")
        return f"web: “{self.title}”, {self.publisher}{when}, {self.url} (retrieved {read})"


Source = Citation | PriceCitation | WebCitation


def page_citation(page: Page) -> Citation:
    """The protocol citation of a grid page."""
    return Citation(
        uid=page.uid,
        doc_label=page.doc_label,
        page_index=page.page_index,
        page_id=page.page_id or 0,
    )


def _key(source: Source) -> tuple:
    if isinstance(source, Citation):
        return ("page", source.uid)
    if isinstance(source, PriceCitation):
        return ("price", source.provider, source.detail, source.as_of)
    return ("web", source.uid)


class SourceBook:
    """Numbers sources in order of first citation; citing one again returns its number."""

    def __init__(self) -> None:
        self.sources: list[Source] = []
        self._numbers: dict[tuple, int] = {}

    def cite(self, *sources: Source) -> tuple[int, ...]:
        """The numbers of ``sources`` (each numbered on first sight), in order, no repeats."""
        numbers = []
        for source in sources:
            key = _key(source)
            if key not in self._numbers:
                self.sources.append(source)
                self._numbers[key] = len(self.sources)
            numbers.append(self._numbers[key])
        return tuple(dict.fromkeys(numbers))

    def cite_facts(self, *facts: Fact) -> tuple[int, ...]:
        return self.cite(*(fact_citation(f) for f in facts))

    def number_of(self, source: Source) -> int | None:
        return self._numbers.get(_key(source))

    def lines(self) -> list[str]:
        """One footnote line per source, numbered 1, 2, …"""
        out = []
        for number, source in enumerate(self.sources, 1):
            if isinstance(source, Citation):
                out.append(Footnote(number=number, citation=source).render())
            else:
                out.append(f"{to_superscript(number)} {source.render()}")
        return out
