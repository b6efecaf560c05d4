"""A filing page code answers from, and how such an answer cites it.

The parts tables, the cause sentence and the cover page read a searched page's text and
answer from it; each cites the page as any retrieved page is cited (its uid, label, index).
"""

from __future__ import annotations

from typing import Protocol

from citations.markup import Citation, CitedAnswer, Footnote, ReferenceList


class PageHit(Protocol):
    """What a searched page must give: its text and what its citation prints."""

    uid: str
    page_id: int
    doc_label: str
    page_index: int
    text: str


def page_citation(page: PageHit) -> Citation:
    """The page as a citation."""
    return Citation(
        uid=page.uid, doc_label=page.doc_label, page_index=page.page_index, page_id=page.page_id
    )


def cited_to(body: str, page: PageHit) -> CitedAnswer:
    """``body`` (its marks ¹) as an answer whose one source is ``page``."""
    footnote = Footnote(number=1, citation=page_citation(page))
    return CitedAnswer(body=body, references=ReferenceList(footnotes=[footnote]))
