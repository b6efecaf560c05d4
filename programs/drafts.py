"""A researcher's draft, read and verified against the pages its probe retrieved.

Lines pasted from the tool results are dropped (``programs.quotes``), hit numbers are
resolved to the pages they were handed out for, fabricated citations are removed and
counted, footnotes are rewritten from the grid's own record of each page, a sentence left
uncited gets the retrieved page that holds its numbers and words, a page's sentence with
a number changed goes (``programs.quotes``), and one that states a number no retrieved page
holds goes, as does uncited prose after the opening (``programs.attribution``): what leaves
here carries only real, correctly labelled citations. A web document a tool returned in
this probe (``research ask --web-sources``) is among the retrieved pages, so it is checked
the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from citations.hit_numbers import NumberedDraft, has_hit_marks, parse_numbered_answer
from citations.markup import Citation, CitedAnswer, Footnote, ReferenceList, parse_cited_answer
from citations.verification import verify_answer
from programs.attribution import (
    attribute_to_figure,
    attribute_uncited,
    drop_uncited_after_opening,
    drop_uncited_numbers,
    uncite_unprinted,
)
from programs.clause_trim import trim_unsupported_tails
from programs.quotes import drop_copied_lines, drop_misquoted
from retrieval.search.hybrid import Hit
from retrieval.search.tools import EquitySearchTool
from signatures.synthesiser import Figure

#: ``Hit.doc_type`` of a web document among a probe's pages (``programs.web_sources``).
WEB_DOC_TYPE = "web"


def citation_of(hit: Hit) -> Citation:
    """How a retrieved page, or a web document a tool returned (``programs.web_sources``),
    is cited."""
    if hit.doc_type == WEB_DOC_TYPE:
        return Citation(
            uid=hit.uid,
            doc_label=hit.doc_label,
            page_index=0,
            page_id=0,
            url=hit.doc_name,
            publisher=hit.publisher,
            retrieved=hit.retrieved,
        )
    return Citation(
        uid=hit.uid, doc_label=hit.doc_label, page_index=hit.page_index, page_id=hit.page_id
    )


def parse_or_empty(markdown: str) -> CitedAnswer:
    try:
        return parse_cited_answer(markdown)
    except Exception:  # a malformed footnote must not lose the prose
        return CitedAnswer(body=markdown)


def read_draft(
    markdown: str, tool: EquitySearchTool, citations: dict[str, Citation] | None = None
) -> NumberedDraft:
    """A researcher's draft as a cited answer: hit numbers (``[3]``) resolved to the pages
    ``tool`` handed out under them, or, for a draft written under the full protocol
    (superscripts and a Sources block), that protocol read as it stands. ``citations``
    (uid -> how to cite it) saves rebuilding them when the caller has them already."""
    if has_hit_marks(markdown):
        if citations is None:
            citations = {uid: citation_of(hit) for uid, hit in tool.retrieved.items()}
        pages = {n: citations[uid] for uid, n in tool.numbers.items()}
        return parse_numbered_answer(markdown, pages)
    return NumberedDraft(parse_or_empty(markdown))


def canonical_footnotes(answer: CitedAnswer, pages: dict[str, Hit]) -> CitedAnswer:
    """Rewrite each footnote from the grid's record of its uid (labels and pages LLMs garble)."""
    footnotes = [
        Footnote(number=f.number, citation=citation_of(pages[f.citation.uid]))
        if f.citation.uid in pages
        else f
        for f in answer.references.footnotes
    ]
    return answer.model_copy(update={"references": ReferenceList(footnotes=footnotes)})


@dataclass
class VerifiedDraft:
    """A draft after code's checks, and what each check changed."""

    answer: CitedAnswer
    #: Hit numbers never handed out, and (under the full protocol) uids never retrieved.
    fabricated: list[str]
    dangling_markers: list[int]
    copied_lines_dropped: int
    attributed_by_code: int
    uncited_numbers_dropped: int
    #: A page's sentence with a number changed (``programs.quotes.drop_misquoted``).
    misquoted_dropped: int
    #: Sentences whose amount no cited page prints, cited afresh or dropped
    #: (``programs.attribution.uncite_unprinted``).
    miscited_uncited: int
    #: Uncited prose after the opening (``programs.attribution.drop_uncited_after_opening``).
    uncited_prose_dropped: int
    #: Sentences cut to the claim a page holds, before a comparison none does
    #: (``programs.clause_trim``).
    tails_trimmed: int


def verify_draft(
    raw: str, tool: EquitySearchTool, question: str = "", figure: Figure | None = None
) -> VerifiedDraft:
    """``raw`` (the researcher's Markdown) checked against the pages ``tool`` retrieved;
    ``question`` is the probe's (what an uncited sentence may restate), ``figure`` code's
    figure for it, shown to the model as a calculation (a sentence stating it is cited to
    its pages)."""
    texts = {uid: hit.text for uid, hit in tool.retrieved.items()}
    citations = {uid: citation_of(hit) for uid, hit in tool.retrieved.items()}
    own, copied = drop_copied_lines(raw, texts.values())
    draft = read_draft(own, tool, citations)
    checked = verify_answer(draft.answer, tool.retrieved.keys())
    answer = canonical_footnotes(checked.answer, tool.retrieved)
    answer, miscited = uncite_unprinted(answer, texts)
    answer, trimmed = trim_unsupported_tails(answer, texts, question)
    answer, attributed = attribute_uncited(answer, texts, citations, question)
    if figure is not None:
        on_pages = {uid: texts[uid] for uid in figure.uids if uid in texts}
        answer, restated = attribute_to_figure(answer, figure.text, on_pages, citations)
        attributed += restated
    answer, misquoted = drop_misquoted(answer, texts.values())
    answer, unsupported = drop_uncited_numbers(answer)
    answer, guesses = drop_uncited_after_opening(answer)
    fabricated = [f"[{n}]" for n in draft.unknown]
    fabricated += [f.citation.uid for f in checked.fabricated]
    return VerifiedDraft(
        answer=answer.cited_only() if misquoted else answer,  # a misquote's page goes with it
        fabricated=fabricated,
        dangling_markers=checked.dangling_markers,
        copied_lines_dropped=copied,
        attributed_by_code=attributed,
        uncited_numbers_dropped=unsupported,
        misquoted_dropped=misquoted,
        miscited_uncited=miscited,
        uncited_prose_dropped=guesses,
        tails_trimmed=trimmed,
    )
