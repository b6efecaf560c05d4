"""What a research note is: titled sections of cited sentences, and one Sources list.

A sentence keeps the numbers of the sources it cites and, where it states figures read
from statements, the facts themselves, so a test (or a reviewer) can check each figure
against the fact its citation points at. A section whose source is not configured or not
in the grid holds one plain line saying so (``unavailable``) instead of sentences without
citations. The review (``notes.review``) reads a built note and leaves its findings on it,
so the note prints them as its last section.
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
        parts += [f"_{line}_" for line in self.context]
        if self.unavailable:
            parts.append(self.unavailable)
            return "\n\n".join(parts)
        plain = [s.render() for s in self.sentences if not s.bullet]
        bullets = [s.render() for s in self.sentences if s.bullet]
        if plain:
            parts.append(" ".join(plain) if self.key == "snapshot" else "\n".join(plain))
        if self.table:
            parts.append(self.table)
        if bullets:
            parts.append("\n".join(bullets))
        return "\n\n".join(parts)


#: What the review prints when its checks find nothing.
NO_FINDINGS = "No issues found by the review checks."


@dataclass(frozen=True)
class Finding:
    """One thing the review found: which check (``precision``, ``one-sided``,
    ``hedging``), where (a section's title, or ``note``) and what, in one line."""

    check: str
    where: str
    message: str

    def render(self) -> str:
        return f"- {self.check}, {self.where}: {self.message}"


@dataclass
class ResearchNote:
    """The whole note: its sections in reading order and the book that numbers sources.

    ``annual_year`` is the fiscal year of the latest 10-K the grid holds for the ticker
    (None when it holds none): the review needs it to tell "no risks were found in the
    10-K" from "there was no 10-K to read". ``review`` is None until the note is reviewed.
    """

    ticker: str
    company: str
    sections: list[Section]
    book: SourceBook
    annual_year: int | None = None
    review: list[Finding] | None = None

    @property
    def sources(self) -> list[Source]:
        return list(self.book.sources)

    def section(self, key: str) -> Section:
        return next(s for s in self.sections if s.key == key)

    def review_markdown(self) -> str:
        """The ``## Review`` section: one line per finding, or the line saying there are none."""
        lines = [f.render() for f in self.review or []] or [NO_FINDINGS]
        return "## Review\n\n" + "\n".join(lines)

    def to_markdown(self, with_review: bool = True) -> str:
        """The note as Markdown; the review comes last, after the Sources, when the note has
        been reviewed (``with_review=False`` leaves it out, for a page that shows it apart)."""
        head = f"# {self.company} ({self.ticker}): research note"
        intro = (
            "_Built by code from the filing grid, its statement facts and the configured price "
            "and news sources; no language model wrote or computed any of it._"
        )
        parts = [head, intro, *(s.render() for s in self.sections)]
        if self.book.sources:
            parts.append(f"{SOURCES_HEADING}\n\n" + "\n".join(self.book.lines()))
        if with_review and self.review is not None:
            parts.append(self.review_markdown())
        return "\n\n".join(parts) + "\n"
