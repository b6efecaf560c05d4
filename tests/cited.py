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


class TwoPageSearcher:
    """A searcher that returns, whatever the query, a page that answers nothing and then the
    page that answers (uid ``0123456789ab``) of SHOP's 10-K for ``fy``: what a page answer's
    probe-loop test searches."""

    def __init__(self, answering: str, fy: int = 2023, other: str = "Revenue grew 9%.") -> None:
        self.pages = (("aaaaaaaaaaaa", 6, other), ("0123456789ab", 64, answering))
        self.fy = fy

    def search(self, query, where=None, k=5):
        from retrieval.search.hybrid import Hit

        return [
            Hit(uid=uid, page_id=index, doc_label=f"SHOP 10-K FY{self.fy}", doc_name="SHOP",
                ticker="SHOP", fy=self.fy, fq=4, doc_type="10-K", page_index=index, score=1.0,
                text=text)
            for uid, index, text in self.pages
        ]  # fmt: skip


def closed_by_code(question: str, searcher: TwoPageSearcher):
    """The probe outcome of ``question``'s own probe in SHOP's slice of ``searcher.fy``, run
    by a probe loop whose models fail the test if called."""
    from domain.cells import SliceRef
    from programs.probe_loop import ProbeLoop
    from signatures.probes import Probe

    def never(**_):
        raise AssertionError("no model call")

    loop = ProbeLoop(never, never, searcher, max_rounds=2, k=3)  # type: ignore[arg-type]
    probe = Probe(probe_title="The question", probe_question=question)
    outcome = loop.run(question, SliceRef(ticker="SHOP", fy=searcher.fy, fq=4), probe, 1)
    assert outcome.record["citations"] == ["0123456789ab"] and outcome.answer.rounds == 0
    return outcome
