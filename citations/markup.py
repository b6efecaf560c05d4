"""Citation protocol: typed citations, inline superscript markers, and the Sources block.

Every agent writes the same format, so one parser and one renderer serve them all, and the
bookkeeping (merge, renumber, verify, daggers) is code rather than an LLM's job.

Inline markers are Unicode superscript numbers placed after a sentence or directly after a
numeric token. Several citations on one spot are joined with the superscript separator
``˒`` (U+02D2), because juxtaposed digits would be read as one number: ``¹²`` is twelve,
``¹˒²`` is one and two.

The Sources block is a ``**Sources**`` line followed by one footnote per line::

    ¹ MMM 10-K FY2018 p.61 (page_id: 60211, uid: 3f9c2a81d0e4)

i.e. ``<number> <doc_label> p.<page_index + 1> (page_id: <grid page id>, uid: <page uid>)``.
A web document an agent read (``research ask --web-sources``) has no page; its footnote says
what a reader needs to find it again, with the same kind of uid (12 hex digits of its URL)::

    ² web: “Capex up”, News Co, https://n.co/a (retrieved 2026-12-03 15:00 UTC; uid: 0a1b2c3d4e5f)

A report may end with a ``**Notes**`` block of dagger notes (see ``citations.daggers``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_serializer, model_validator

SUPERSCRIPT_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
MARKER_SEPARATOR = "˒"
DAGGER = "†"
SOURCES_HEADING = "**Sources**"
NOTES_HEADING = "**Notes**"
#: Blocks a report ends with that say how its figures were computed and what was and was not
#: researched: notes to the reader, not claims.
FORMULAS_HEADING = "**Formulas**"
SCOPE_HEADING = "**Scope**"
_REPORT_NOTES_RE = re.compile(
    rf"^(?:{re.escape(FORMULAS_HEADING)}|{re.escape(SCOPE_HEADING)})\s*$", re.MULTILINE
)
#: What a report says under a slice that has no cited finding: a note to the reader, not a
#: hedge of the answer above it.
NO_CITED_FINDINGS = "_No cited findings: the evidence gathered did not support any claim._"
_NO_FINDINGS_RE = re.compile(rf"^{re.escape(NO_CITED_FINDINGS)}\s*$\n?", re.MULTILINE)

_TO_SUPER = str.maketrans("0123456789", SUPERSCRIPT_DIGITS)
_FROM_SUPER = str.maketrans(SUPERSCRIPT_DIGITS, "0123456789")
_SUP = f"[{SUPERSCRIPT_DIGITS}]"
# One marker group: ¹ or ¹˒²˒¹⁰ (numbers >= 1; a lone ⁰ is never a citation).
MARKER_RE = re.compile(f"{_SUP}+(?:{MARKER_SEPARATOR}{_SUP}+)*")
UID_PATTERN = r"[0-9a-f]{8,16}"
FOOTNOTE_RE = re.compile(
    rf"^\s*(?:[-*]\s+)?(?P<num>{_SUP}+|\[\d+\]|\d+\.?)\s+(?P<label>.+?)\s+p\.\s?(?P<page>\d+)\s*"
    rf"\(page_id:\s*(?P<page_id>\d+),\s*uid:\s*(?P<uid>{UID_PATTERN})\)\s*$"
)
#: When a web document was read, as its footnote writes it (minutes, UTC).
RETRIEVED_PATTERN = r"\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC"
WEB_FOOTNOTE_RE = re.compile(
    rf"^\s*(?:[-*]\s+)?(?P<num>{_SUP}+|\[\d+\]|\d+\.?)\s+web:\s+“(?P<title>.+)”,\s+"
    rf"(?P<publisher>[^”\n]+),\s+(?P<url>https?://\S+)\s+\(retrieved\s+"
    rf"(?P<retrieved>{RETRIEVED_PATTERN});\s*uid:\s*(?P<uid>{UID_PATTERN})\)\s*$"
)
_WEB_FIELDS = ("url", "publisher", "retrieved")
# ``**Sources**``, ``Sources:``, ``**Sources:**``, ``## Notes``: however a model heads the block.
_HEADING_RE = re.compile(r"^\s*(?:#{1,6}\s*)?\**(?P<name>Sources|Notes)\**:?\**\s*$", re.IGNORECASE)


def without_report_notes(markdown: str) -> str:
    """``markdown`` up to its Formulas or Scope block, without the note under a slice that
    has no cited finding. A report with no cited answer has no Sources block, so its Scope
    notes would read as its body, and they quote the question ("insufficient evidence on
    “What was MGM's interest coverage ratio …”"): a metric judging the answer would find the
    question's words there and count them as said. And a slice's "No cited findings: the
    evidence gathered did not support any claim" under a cited answer read as the answer's
    own hedge: Lockheed Martin's revenue CAGR, right and cited, was counted a refusal."""
    found = _REPORT_NOTES_RE.search(markdown)
    body = markdown[: found.start()].rstrip() if found else markdown
    return _NO_FINDINGS_RE.sub("", body)


def to_superscript(number: int) -> str:
    """Render ``12`` as ``¹²``."""
    if number < 0:
        raise ValueError("citation numbers are positive")
    return str(number).translate(_TO_SUPER)


def from_superscript(text: str) -> int:
    """Parse ``¹²`` as ``12``."""
    return int(text.translate(_FROM_SUPER))


def render_marker(numbers: Iterable[int]) -> str:
    """Render a marker group: ``[1, 2]`` -> ``¹˒²``."""
    return MARKER_SEPARATOR.join(to_superscript(n) for n in numbers)


def parse_marker(marker: str) -> list[int]:
    """Parse a marker group: ``¹˒¹⁰`` -> ``[1, 10]``."""
    return [from_superscript(part) for part in marker.split(MARKER_SEPARATOR) if part]


def iter_markers(text: str) -> Iterator[tuple[re.Match[str], list[int]]]:
    """Yield each marker group in ``text`` with the numbers it holds, in reading order."""
    for match in MARKER_RE.finditer(text):
        yield match, parse_marker(match.group())


class Citation(BaseModel):
    """One cited page of the retrieval grid, or one web document an agent read (``url``
    set: ``doc_label`` is its title, and it has no page); identity is the ``uid``."""

    model_config = ConfigDict(frozen=True)

    uid: str = Field(pattern=f"^{UID_PATTERN}$", description="stable page id, lowercase hex")
    doc_label: str = Field(pattern=r"^\S(?:[^\n]*\S)?$", description="e.g. 'MMM 10-K FY2018'")
    page_index: int = Field(ge=0, description="zero-based page in the document")
    page_id: int = Field(ge=0, description="sequential page number in the store")
    url: str | None = Field(None, pattern=r"^https?://\S+$", description="a web document's URL")
    publisher: str | None = Field(
        None, pattern=r"^[^\s”](?:[^\n”]*[^\s”])?$", description="a web document's publisher"
    )
    retrieved: str | None = Field(
        None, pattern=f"^{RETRIEVED_PATTERN}$", description="when a web document was read"
    )

    @model_validator(mode="after")
    def _web_fields_together(self) -> Citation:
        """A web citation needs all three of its fields (its footnote prints them all)."""
        given = [getattr(self, name) is not None for name in _WEB_FIELDS]
        if any(given) and not all(given):
            raise ValueError("a web citation needs its url, publisher and retrieval time")
        if self.url is not None and (self.page_index or self.page_id):
            raise ValueError("a web citation has no page (page_index and page_id are 0)")
        return self

    @model_serializer(mode="wrap")
    def _without_empty_web_fields(self, handler: Any) -> Any:
        """A page's record stays as it was before web citations existed."""
        data = handler(self)
        if self.url is None and isinstance(data, dict):
            for name in _WEB_FIELDS:
                data.pop(name, None)
        return data

    @property
    def is_web(self) -> bool:
        return self.url is not None

    def render(self) -> str:
        """Footnote body without its number (display page is 1-based)."""
        if self.url is not None:
            return (
                f"web: “{self.doc_label}”, {self.publisher}, {self.url} "
                f"(retrieved {self.retrieved}; uid: {self.uid})"
            )
        return (
            f"{self.doc_label} p.{self.page_index + 1} (page_id: {self.page_id}, uid: {self.uid})"
        )


class Footnote(BaseModel):
    """A numbered entry of a Sources block."""

    model_config = ConfigDict(frozen=True)

    number: int = Field(ge=1)
    citation: Citation

    def render(self) -> str:
        return f"{to_superscript(self.number)} {self.citation.render()}"


class ReferenceList(BaseModel):
    """The Sources block: footnotes in the order they are listed."""

    footnotes: list[Footnote] = Field(default_factory=list)

    def by_number(self) -> dict[int, Citation]:
        """Number -> citation (the first footnote wins if an LLM repeated a number)."""
        out: dict[int, Citation] = {}
        for foot in self.footnotes:
            out.setdefault(foot.number, foot.citation)
        return out

    def uids(self) -> set[str]:
        return {f.citation.uid for f in self.footnotes}

    def __len__(self) -> int:
        return len(self.footnotes)


class DaggerNote(BaseModel):
    """Explains one dagger: which slice's evidence is incomplete, and where to look."""

    model_config = ConfigDict(frozen=True)

    slice_label: str = Field(min_length=1, description="e.g. 'KO FY2024 Q1'")
    reason: str = Field(min_length=1, description="e.g. 'the filing pages found do not answer “…”'")

    def render(self) -> str:
        return f"{DAGGER} Evidence incomplete for {self.slice_label} – {self.reason}"


_NOTE_RE = re.compile(
    rf"^\s*{DAGGER}\s*Evidence incomplete for (?P<label>.+?) – (?P<reason>.+?)\s*$"
)


class CitedAnswer(BaseModel):
    """Markdown prose with inline markers, its Sources block, and optional dagger notes."""

    body: str = ""
    references: ReferenceList = Field(default_factory=ReferenceList)
    dagger_notes: list[DaggerNote] = Field(default_factory=list)

    def citation_for(self, number: int) -> Citation | None:
        return self.references.by_number().get(number)

    def to_markdown(self) -> str:
        return render_cited_answer(self)

    def cited_only(self) -> CitedAnswer:
        """This answer without the footnotes its body no longer marks: a check that removes
        a sentence leaves its footnote, and an answer of footnotes alone cites nothing."""
        marked = {n for _, numbers in iter_markers(self.body) for n in numbers}
        kept = [f for f in self.references.footnotes if f.number in marked]
        if len(kept) == len(self.references.footnotes):
            return self
        return self.model_copy(update={"references": ReferenceList(footnotes=kept)})

    @classmethod
    def from_markdown(cls, markdown: str) -> CitedAnswer:
        return parse_cited_answer(markdown)


def render_cited_answer(answer: CitedAnswer) -> str:
    """Objects -> Markdown. Canonical form: body, blank line, Sources, blank line, Notes."""
    parts = [answer.body.rstrip()] if answer.body.strip() else []
    if answer.references.footnotes:
        lines = "\n".join(f.render() for f in answer.references.footnotes)
        parts.append(f"{SOURCES_HEADING}\n\n{lines}")
    if answer.dagger_notes:
        lines = "\n".join(n.render() for n in answer.dagger_notes)
        parts.append(f"{NOTES_HEADING}\n\n{lines}")
    return "\n\n".join(parts)


def _footnote_number(raw: str) -> int:
    raw = raw.strip("[].")
    return from_superscript(raw) if raw[0] in SUPERSCRIPT_DIGITS else int(raw)


def _parse_web_footnote(line: str) -> Footnote | None:
    m = WEB_FOOTNOTE_RE.match(line)
    if m is None or (number := _footnote_number(m.group("num"))) < 1:
        return None
    try:
        citation = Citation(
            uid=m.group("uid"),
            doc_label=m.group("title"),
            page_index=0,
            page_id=0,
            url=m.group("url"),
            publisher=m.group("publisher"),
            retrieved=m.group("retrieved"),
        )
    except ValueError:  # e.g. a title with surrounding spaces: not a footnote code wrote
        return None
    return Footnote(number=number, citation=citation)


def parse_footnote(line: str) -> Footnote | None:
    """Parse one footnote line; accepts ``¹``, ``[1]`` or ``1.`` numbering and a list bullet."""
    m = FOOTNOTE_RE.match(line)
    if m is None:
        return _parse_web_footnote(line)
    number = _footnote_number(m.group("num"))
    page = int(m.group("page"))
    if number < 1 or page < 1:
        return None
    return Footnote(
        number=number,
        citation=Citation(
            uid=m.group("uid"),
            doc_label=m.group("label").strip(),
            page_index=page - 1,
            page_id=int(m.group("page_id")),
        ),
    )


def parse_cited_answer(markdown: str) -> CitedAnswer:
    """Markdown -> objects.

    The body is everything before the first ``Sources``/``Notes`` heading; if there is no
    heading, trailing footnote lines are taken as the Sources block (LLMs often drop the
    heading). Lines in those blocks that are not footnotes or notes are ignored.
    """
    lines = markdown.splitlines()
    start = next((i for i, line in enumerate(lines) if _HEADING_RE.match(line)), None)
    if start is None:
        start = len(lines)
        while start > 0 and (not lines[start - 1].strip() or parse_footnote(lines[start - 1])):
            start -= 1
        while start < len(lines) and not lines[start].strip():
            start += 1
    body = "\n".join(lines[:start]).rstrip()
    footnotes: list[Footnote] = []
    notes: list[DaggerNote] = []
    for line in lines[start:]:
        if (foot := parse_footnote(line)) is not None:
            footnotes.append(foot)
        elif (m := _NOTE_RE.match(line)) is not None:
            notes.append(DaggerNote(slice_label=m.group("label"), reason=m.group("reason")))
    return CitedAnswer(body=body, references=ReferenceList(footnotes=footnotes), dagger_notes=notes)
