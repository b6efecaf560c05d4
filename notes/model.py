"""What a research note is: titled sections of cited sentences, and one Sources list.

A sentence keeps the numbers of the sources it cites and, where it states figures read
from statements, the facts themselves, so a test (or a reviewer) can check each figure
against the fact its citation points at. A section whose source is not configured or not
in the grid holds one plain line saying so (``unavailable``) instead of sentences without
citations.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from citations.markup import SOURCES_HEADING, render_marker
from notes.sources import Source, SourceBook
from retrieval.facts.model import Fact


@dataclass(frozen=True)
class CitedSentence:
    """One claim and the numbers of the sources that back it (never empty)."""

    text: str
    sources: tuple[int, ...]
    facts: tuple[Fact, ...] = ()
    bullet: bool = False

    def __post_init__(self) -> None:
        if not self.sources:
            raise ValueError(f"a note sentence needs a citation: {self.text!r}")

    def render(self) -> str:
        """The sentence with its marker after the closing punctuation, as the protocol has it."""
        line = f"{self.text}{render_marker(sorted(self.sources))}"
        return f"- {line}" if self.bullet else line


@dataclass
class Section:
    """A titled part of the note: cited sentences and an optional table, or one line that
    says why the section is empty."""

    key: str  # "snapshot", "results", "trends", "market", "catalysts", "risks"
    title: str
    sentences: list[CitedSentence] = field(default_factory=list)
    table: str = ""  # Markdown, its cells carrying markers
    context: list[str] = field(default_factory=list)  # uncited lines about the tool itself
    unavailable: str | None = None

    def render(self) -> str:
        parts = [f"## {self.title}"]
        if self.unavailable:
            parts.append(self.unavailable)
            return "\n\n".join(parts)
        parts += [f"_{line}_" for line in self.context]
        plain = [s.render() for s in self.sentences if not s.bullet]
        bullets = [s.render() for s in self.sentences if s.bullet]
        if plain:
            parts.append(" ".join(plain) if self.key == "snapshot" else "\n".join(plain))
        if self.table:
            parts.append(self.table)
        if bullets:
            parts.append("\n".join(bullets))
        return "\n\n".join(parts)


@dataclass
class ResearchNote:
    """The whole note: its sections in reading order and the book that numbers sources."""

    ticker: str
    company: str
    sections: list[Section]
    book: SourceBook

    @property
    def sources(self) -> list[Source]:
        return list(self.book.sources)

    def section(self, key: str) -> Section:
        return next(s for s in self.sections if s.key == key)

    def to_markdown(self) -> str:
        head = f"# {self.company} ({self.ticker}): research note"
        intro = (
            "_Built by code from the filing grid, its statement facts and the configured price "
            "and news sources; no language model wrote or computed any of it._"
        )
        parts = [head, intro, *(s.render() for s in self.sections)]
        if self.book.sources:
            parts.append(f"{SOURCES_HEADING}\n\n" + "\n".join(self.book.lines()))
        return "\n\n".join(parts) + "\n"
