"""A one-source cited answer, as the round checks' tests build them."""

from __future__ import annotations

from citations.markup import Citation, CitedAnswer, Footnote, ReferenceList


def cited_answer(
    body: str, uid: str = "0a1b2c3d4e5f", label: str = "ACME 10-K FY2030"
) -> CitedAnswer:
    """``body`` whose marker ¹ cites page ``uid`` of ``label``."""
    citation = Citation(uid=uid, doc_label=label, page_index=22, page_id=7)
    return CitedAnswer(
        body=body, references=ReferenceList(footnotes=[Footnote(number=1, citation=citation)])
    )
