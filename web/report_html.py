"""A cited Markdown report as safe HTML: superscripts link to pages, daggers to their Notes.

The report is parsed with the citation protocol's own parser (``parse_cited_answer``), so
the Sources the page links to are exactly the ones the books keep. The body is rendered by
markdown-it with raw HTML off (a ``<script>`` in model output becomes text), marker groups
become links to the cited page (with the figure and the sentence they vouch for), and the
result passes through nh3 with a short list of allowed tags, so nothing a model or a filing
wrote can add a script, an event handler or a ``javascript:`` link.

What the page shows is what a reader can check:

- A marker cites the sentence it ends. A "sentence" with nothing in it but markup and
  markers (``<br>¹†``, as a small model writes a table cell it could not fill) states
  nothing, so its markers link nowhere: a page cited for no claim only misleads. Its
  dagger stays, with the words "no supported finding".
- A ``<br>`` a model wrote is a line break, not the text "<br>".
- A dagger note names what is missing ("the filing pages found do not answer “…”"), as
  reports now write it. A report written before said "see Probe 2", and the page has no
  section of that name; for those, the run record (``run.json``) has the probe's question
  and the note is rewritten (:func:`explain_notes`). A dagger links to the notes of the
  slices whose pages its sentence cites.
- The Formulas and Scope blocks the composer writes after the Notes are shown too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote as quote_url
from urllib.parse import urlencode

import nh3
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml

from citations import DAGGER, MARKER_SEPARATOR, Citation, DaggerNote, parse_cited_answer
from citations.markup import MARKER_RE, parse_marker
from citations.sentences import Sentence, split_sentences
from web.figures import clean_quote, figure_before

#: What the text rule acts on: a marker group, a dagger, or a line break a model wrote.
_SPECIAL = re.compile(f"{MARKER_RE.pattern}|{DAGGER}|<br\\s*/?>", re.IGNORECASE)
_BR = re.compile(r"<br\s*/?>", re.IGNORECASE)
#: The blocks after the body: Sources and Notes (the books), or another bold heading
#: (``**Formulas**``, ``**Scope**``) the composer appends.
_BOOKS_HEADING = re.compile(
    r"^\s*(?:#{1,6}\s*)?\**(?P<name>Sources|Notes)\**:?\**\s*$", re.IGNORECASE
)
_BLOCK_HEADING = re.compile(r"^\s*\*\*(?P<name>[^*]+?)\*\*:?\s*$")
_SEE_PROBE = re.compile(r"see Probe (\d+)", re.IGNORECASE)
_NOTE_LINE = re.compile(rf"^(\s*){DAGGER}\s*Evidence incomplete for (.+?) – (.+?)\s*$")
NO_FINDING = "no supported finding"

ALLOWED_TAGS = {
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "table", "thead", "tbody",
    "tr", "th", "td", "strong", "em", "code", "pre", "blockquote", "a", "sup", "hr", "br",
    "s", "del",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {
    "a": {"href", "class", "title"},
    "sup": {"class"},
    "em": {"class"},
    "th": {"style"},
    "td": {"style"},
    "ol": {"start"},
}


@dataclass(frozen=True)
class Source:
    """One footnote as the page shows it."""

    number: int
    citation: Citation
    href: str


@dataclass(frozen=True)
class Note:
    anchor: str
    text: str
    slice_label: str = ""


@dataclass(frozen=True)
class RenderedReport:
    body_html: str
    sources: list[Source]
    notes: list[Note]
    #: The blocks after the Notes (Formulas, Scope), rendered as the body is.
    extra_html: str = ""


@dataclass(frozen=True)
class ProbeGap:
    """A probe that closed with insufficient evidence: what it asked, and why it closed."""

    question: str
    reason: str = ""


@dataclass(frozen=True)
class RunFacts:
    """What the run record knows and the report's Markdown does not say: which probe a
    "see Probe N" note means, and which pages each flagged slice's findings cite."""

    gaps: dict[tuple[str, int], ProbeGap] = field(default_factory=dict)
    flagged_uids: dict[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def from_record(cls, record: Mapping[str, Any] | None) -> RunFacts:
        """Read ``run.json``; anything it lacks or holds in another shape is left out."""
        gaps: dict[tuple[str, int], ProbeGap] = {}
        flagged: dict[str, frozenset[str]] = {}
        slices = record.get("slices") if isinstance(record, Mapping) else None
        for item in slices if isinstance(slices, list) else []:
            if not isinstance(item, Mapping) or not isinstance(item.get("slice"), str):
                continue
            label = item["slice"]
            for probe in item.get("probes") or []:
                try:
                    if probe.get("status") == "insufficient_evidence" and probe.get("question"):
                        gaps[(label, int(probe["index"]))] = ProbeGap(
                            str(probe["question"]).strip(), str(probe.get("reason") or "")
                        )
                except (AttributeError, KeyError, TypeError, ValueError):
                    continue
            if item.get("open_issues"):
                uids = set()
                for entry in item.get("citations") or []:
                    try:
                        uids.add(str(entry["citation"]["uid"]))
                    except (KeyError, TypeError):
                        continue
                flagged[label] = frozenset(uids)
        return cls(gaps, flagged)


def explain(note: DaggerNote, facts: RunFacts) -> str:
    """``note`` in words a reader can act on: the question its probe could not answer
    (from the run record), instead of "see Probe N", which names no section of the page."""
    match = _SEE_PROBE.fullmatch(note.reason.strip())
    gap = facts.gaps.get((note.slice_label, int(match.group(1)))) if match else None
    if gap is None:
        return note.render()
    text = (
        f"{DAGGER} Evidence incomplete for {note.slice_label}: the filing pages found do not "
        f"answer “{gap.question}”"
    )
    if gap.reason and "insufficient evidence" not in gap.reason.lower():
        text += f" ({gap.reason})"  # why it closed, when that says more than the above
    return text


def explain_notes(markdown: str, record: Mapping[str, Any] | None) -> str:
    """``markdown`` with each dagger note line rewritten by :func:`explain` (for exports:
    the rest of the report is left exactly as the run wrote it)."""
    facts = RunFacts.from_record(record)
    if not facts.gaps:
        return markdown

    def rewrite(line: str) -> str:
        match = _NOTE_LINE.match(line)
        if match is None:
            return line
        note = DaggerNote(slice_label=match.group(2), reason=match.group(3))
        return match.group(1) + explain(note, facts)

    return "\n".join(rewrite(line) for line in markdown.split("\n"))


def page_href(uid: str, figure: str | None = None, quote: str | None = None) -> str:
    """The page viewer's URL for ``uid``, with the figure (or else the sentence) to mark."""
    query = {"figure": figure} if figure else {"quote": quote} if quote else {}
    return f"/pages/{quote_url(uid)}" + (f"?{urlencode(query)}" if query else "")


def sanitise(html: str) -> str:
    """``html`` with only the tags and attributes a report needs; data-* attributes kept."""
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        generic_attribute_prefixes={"data-"},
        url_schemes={"http", "https", "mailto"},
        filter_style_properties={"text-align"},
        link_rel="noopener noreferrer",
    )


def _prose(text: str) -> str:
    """A sentence without its markers, daggers and line breaks: what it says."""
    return _BR.sub(" ", MARKER_RE.sub("", text.replace(DAGGER, "")))


def _says_something(prose: str) -> bool:
    return re.search(r"[^\W_]", prose) is not None


class _CitationRenderer:
    """markdown-it render rules that turn marker groups and daggers into links."""

    def __init__(
        self,
        by_number: dict[int, Citation],
        facts: RunFacts,
        notes: list[Note],
        for_print: bool = False,
    ) -> None:
        self.by_number = by_number
        self.facts = facts
        self.for_print = for_print
        self.anchors: dict[str, list[Note]] = {}
        for note in notes:
            self.anchors.setdefault(note.slice_label, []).append(note)
        self.link_depth = 0
        self._inline: object = None
        self.raw = ""  # the inline's text so far, markers included: where sentences end
        self.since_marker = ""  # prose since the last marker: where a citation's figure is

    def link_open(self, tokens, idx, options, env):
        self.link_depth += 1
        return self.default(tokens, idx, options, env)

    def link_close(self, tokens, idx, options, env):
        self.link_depth = max(0, self.link_depth - 1)
        return self.default(tokens, idx, options, env)

    def softbreak(self, tokens, idx, options, env):
        self._add(" ")  # a wrapped line goes on the same sentence
        return self.default_softbreak(tokens, idx, options, env)

    def _add(self, prose: str) -> None:
        self.raw += prose
        self.since_marker += prose

    def text(self, tokens, idx, options, env):
        if tokens is not self._inline:  # a new paragraph, heading or table cell
            self._inline, self.raw, self.since_marker = tokens, "", ""
        content = tokens[idx].content
        if self.link_depth:
            self._add(content)
            return escapeHtml(content)
        out, last = [], 0
        for match in _SPECIAL.finditer(content):
            prose = content[last : match.start()]
            out.append(escapeHtml(prose))
            self._add(prose)
            piece = match.group()
            if piece == DAGGER:
                out.append(self._dagger())
                self.raw += piece
            elif _BR.fullmatch(piece):
                if self.raw.strip():  # a break before anything is said is only noise
                    out.append("<br>")
                self._add(" ")
            else:
                out.append(self._markers(piece))
                self.raw += piece
                self.since_marker = ""
            last = match.end()
        out.append(escapeHtml(content[last:]))
        self._add(content[last:])
        return "".join(out)

    def _sentence(self) -> Sentence | None:
        """The sentence the next marker or dagger belongs to (the last one so far); None
        when the last one was closed by its markers and only space follows (``…¹.† <br>²``:
        the ² has no sentence of its own)."""
        closed = self.raw.rstrip()
        if closed != self.raw and closed and (closed[-1] == DAGGER or MARKER_RE.match(closed[-1])):
            return None
        units = split_sentences(self.raw)
        return units[-1] if units else None

    def _markers(self, group: str) -> str:
        sentence = self._sentence()
        prose = _prose(sentence.text) if sentence else ""
        if not _says_something(prose):
            return ""  # nothing stated, so nothing cited: no page to send a reader to
        figure = figure_before(self.since_marker)
        quote = clean_quote(prose)
        parts = []
        for number, raw in zip(parse_marker(group), group.split(MARKER_SEPARATOR), strict=True):
            citation = self.by_number.get(number)
            if citation is None:  # a marker with no footnote: shown, not linked
                parts.append(escapeHtml(raw))
                continue
            if citation.is_web:  # a web document: its own address, not the page viewer
                href = f"#source-{number}" if self.for_print else str(citation.url)
                parts.append(
                    f'<a href="{escapeHtml(href)}" rel="noopener noreferrer" target="_blank" '
                    f'title="{escapeHtml(citation.render())}">{escapeHtml(raw)}</a>'
                )
                continue
            label = f"{citation.doc_label} p.{citation.page_index + 1}"
            href = f"#source-{number}" if self.for_print else page_href(citation.uid, figure, quote)
            parts.append(
                f'<a class="cite" href="{escapeHtml(href)}" '
                f'data-uid="{escapeHtml(citation.uid)}" data-cite="{number}" '
                f'data-figure="{escapeHtml(figure or "")}" data-quote="{escapeHtml(quote)}" '
                f'title="{escapeHtml(label)}">{escapeHtml(raw)}</a>'
            )
        return f'<sup class="cites">{MARKER_SEPARATOR.join(parts)}</sup>'

    def _dagger(self) -> str:
        sentence = self._sentence()
        notes = self._notes_for(sentence)
        title = " / ".join(n.text for n in notes) or "see Notes"
        link = (
            f'<a class="dagger" href="#notes" title="{escapeHtml(title)}" '
            f'data-notes="{" ".join(n.anchor for n in notes)}">{DAGGER}</a>'
        )
        if sentence is None or not _says_something(_prose(sentence.text)):
            return f'<em class="no-finding">{NO_FINDING}</em>{link}'
        return link

    def _notes_for(self, sentence: Sentence | None) -> list[Note]:
        """The notes of the flagged slices whose pages ``sentence`` cites."""
        if sentence is None:
            return []
        uids = {self.by_number[n].uid for n in sentence.markers if n in self.by_number}
        labels = [label for label, cited in self.facts.flagged_uids.items() if uids & cited]
        return [note for label in labels for note in self.anchors.get(label, [])]


def _markdown(renderer: _CitationRenderer) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    renderer.default = md.renderer.renderToken
    renderer.default_softbreak = md.renderer.rules["softbreak"]
    # markdown-it binds a render rule to its renderer: the first argument is that renderer.
    md.add_render_rule("text", lambda _r, *args: renderer.text(*args))
    md.add_render_rule("link_open", lambda _r, *args: renderer.link_open(*args))
    md.add_render_rule("link_close", lambda _r, *args: renderer.link_close(*args))
    md.add_render_rule("softbreak", lambda _r, *args: renderer.softbreak(*args))
    return md


def _after_the_books(markdown: str) -> str:
    """The blocks after Sources and Notes that are neither (``**Formulas**``, ``**Scope**``)."""
    lines = markdown.splitlines()
    start = next((i for i, line in enumerate(lines) if _BOOKS_HEADING.match(line)), len(lines))
    kept, keep = [], False
    for line in lines[start:]:
        if _BOOKS_HEADING.match(line):
            keep = False
        elif _BLOCK_HEADING.match(line):
            keep = True
        if keep:
            kept.append(line)
    return "\n".join(kept).strip()


def render_report(
    markdown: str, record: Mapping[str, Any] | None = None, *, for_print: bool = False
) -> RenderedReport:
    """The report's body as sanitised HTML, with its Sources and Notes as data for templates.

    ``record`` is the run's ``run.json``, when there is one: dagger notes are explained
    from it. ``for_print`` links citations to the Sources list (a PDF has no page viewer).
    """
    answer = parse_cited_answer(markdown)
    by_number = answer.references.by_number()
    facts = RunFacts.from_record(record)
    notes = [
        Note(f"note-{i}", explain(note, facts), note.slice_label)
        for i, note in enumerate(answer.dagger_notes, 1)
    ]
    body_html = sanitise(
        _markdown(_CitationRenderer(by_number, facts, notes, for_print)).render(answer.body)
    )
    extra = _after_the_books(markdown)
    extra_html = (
        sanitise(_markdown(_CitationRenderer(by_number, facts, notes, for_print)).render(extra))
        if extra
        else ""
    )
    sources = [
        Source(number, citation, str(citation.url) if citation.is_web else page_href(citation.uid))
        for number, citation in sorted(by_number.items())
    ]
    return RenderedReport(body_html, sources, notes, extra_html)
