"""A cited Markdown report as safe HTML: superscripts link to pages, daggers to their Notes.

The report is parsed with the citation protocol's own parser (``parse_cited_answer``), so
the Sources the page links to are exactly the ones the books keep. The body is rendered by
markdown-it with raw HTML off (a ``<script>`` in model output becomes text), marker groups
become links to the cited page (with the figure they vouch for), and the result passes
through nh3 with a short list of allowed tags, so nothing a model or a filing wrote can add
a script, an event handler or a ``javascript:`` link.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote

import nh3
from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml

from citations import DAGGER, MARKER_SEPARATOR, Citation, parse_cited_answer
from citations.markup import MARKER_RE, parse_marker
from web.figures import figure_before

_MARK_OR_DAGGER = re.compile(f"{MARKER_RE.pattern}|{DAGGER}")
ALLOWED_TAGS = {
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "table", "thead", "tbody",
    "tr", "th", "td", "strong", "em", "code", "pre", "blockquote", "a", "sup", "hr", "br",
    "s", "del",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {
    "a": {"href", "class", "title"},
    "sup": {"class"},
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


@dataclass(frozen=True)
class RenderedReport:
    body_html: str
    sources: list[Source]
    notes: list[Note]


def page_href(uid: str, figure: str | None = None) -> str:
    """The page viewer's URL for ``uid``, with the figure to highlight."""
    return f"/pages/{quote(uid)}" + (f"?figure={quote(figure)}" if figure else "")


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


class _CitationRenderer:
    """markdown-it render rules that turn marker groups and daggers into links."""

    def __init__(self, by_number: dict[int, Citation]) -> None:
        self.by_number = by_number
        self.link_depth = 0
        self.since_marker = ""  # prose since the last marker: where a citation's figure is

    def link_open(self, tokens, idx, options, env):
        self.link_depth += 1
        return self.default(tokens, idx, options, env)

    def link_close(self, tokens, idx, options, env):
        self.link_depth = max(0, self.link_depth - 1)
        return self.default(tokens, idx, options, env)

    def text(self, tokens, idx, options, env):
        content = tokens[idx].content
        if idx == 0:
            self.since_marker = ""
        if self.link_depth:
            self.since_marker += content
            return escapeHtml(content)
        out, last = [], 0
        for match in _MARK_OR_DAGGER.finditer(content):
            prose = content[last : match.start()]
            out.append(escapeHtml(prose))
            self.since_marker += prose
            out.append(self._link(match.group()))
            if match.group() != DAGGER:
                self.since_marker = ""
            last = match.end()
        out.append(escapeHtml(content[last:]))
        self.since_marker += content[last:]
        return "".join(out)

    def _link(self, group: str) -> str:
        if group == DAGGER:
            return f'<a class="dagger" href="#notes" title="see Notes">{DAGGER}</a>'
        figure = figure_before(self.since_marker)
        parts = []
        for number, raw in zip(parse_marker(group), group.split(MARKER_SEPARATOR), strict=True):
            citation = self.by_number.get(number)
            if citation is None:  # a marker with no footnote: shown, not linked
                parts.append(escapeHtml(raw))
                continue
            label = f"{citation.doc_label} p.{citation.page_index + 1}"
            parts.append(
                f'<a class="cite" href="{escapeHtml(page_href(citation.uid, figure))}" '
                f'data-uid="{escapeHtml(citation.uid)}" data-cite="{number}" '
                f'data-figure="{escapeHtml(figure or "")}" title="{escapeHtml(label)}">'
                f"{escapeHtml(raw)}</a>"
            )
        return f'<sup class="cites">{MARKER_SEPARATOR.join(parts)}</sup>'


def _markdown(renderer: _CitationRenderer) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    renderer.default = md.renderer.renderToken
    # markdown-it binds a render rule to its renderer: the first argument is that renderer.
    md.add_render_rule("text", lambda _r, *args: renderer.text(*args))
    md.add_render_rule("link_open", lambda _r, *args: renderer.link_open(*args))
    md.add_render_rule("link_close", lambda _r, *args: renderer.link_close(*args))
    return md


def render_report(markdown: str) -> RenderedReport:
    """The report's body as sanitised HTML, with its Sources and Notes as data for templates."""
    answer = parse_cited_answer(markdown)
    by_number = answer.references.by_number()
    renderer = _CitationRenderer(by_number)
    body_html = sanitise(_markdown(renderer).render(answer.body))
    sources = [
        Source(number, citation, page_href(citation.uid))
        for number, citation in sorted(by_number.items())
    ]
    notes = [Note(f"note-{i}", note.render()) for i, note in enumerate(answer.dagger_notes, 1)]
    return RenderedReport(body_html, sources, notes)
