"""A one-source cited answer, as the round checks' tests build them, and a filing page as a
search returns one."""

from __future__ import annotations

from dataclasses import dataclass

from citations.markup import Citation, CitedAnswer, Footnote, ReferenceList


def cited_answer(
    body: str, uid: str = "0a1b2c3d4e5f", label: str = "ACME 10-K FY2030"
) -> CitedAnswer:
    """``body`` whose marker ¹ cites page ``uid`` of ``label``."""
    citation = Citation(uid=uid, doc_label=label, page_index=22, page_id=7)
    return CitedAnswer(
        body=body, references=ReferenceList(footnotes=[Footnote(number=1, citation=citation)])
    )


@dataclass(frozen=True)
class FilingPage:
    """What code reads of a searched page (:class:`programs.page_hits.PageHit`)."""

    uid: str
    page_id: int
    doc_label: str
    page_index: int
    text: str


def filing_page(text: str, index: int = 40, label: str = "SHOP 10-K FY2023") -> FilingPage:
    """Page ``index`` of ``label`` holding ``text``."""
    return FilingPage(f"{index:012x}", index, label, index, text)
