"""Findings that answer the question as they stand need no model to compose them."""

from __future__ import annotations

from citations.markup import parse_cited_answer
from domain.cells import SliceRef
from programs.standing_answers import code_answer_to_the_question
from signatures.synthesiser import Figure, ProbeAnswer, SliceReport

QUESTION = "What drove ACME's operating margin change in FY2022?"
SOURCE = "\n\n**Sources**\n\n¹ ACME 10-K FY2022 p.48 (page_id: 1, uid: aaaaaaaaaaaa)"
MARGIN = Figure(title="Operating margin", period="FY2022", value=0.25, unit="ratio",
                text="25.7%", uids=["aaaaaaaaaaaa"])  # fmt: skip


def _report(fy: int, *probes: ProbeAnswer) -> SliceReport:
    return SliceReport(slice=SliceRef(ticker="ACME", fy=fy, fq=4), probe_answers=list(probes))


def _probe(question: str, body: str, rounds: int = 0, figure: bool = False) -> ProbeAnswer:
    return ProbeAnswer(
        index=1,
        probe_title="The question",
        probe_question=question,
        answer=parse_cited_answer(body + SOURCE),
        rounds=rounds,
        figures=[MARGIN] if figure else [],
    )


def test_the_question_answered_by_a_pages_sentence_is_the_answer_across_slices():
    cause = _probe(QUESTION, "Operating margin decreased, primarily due to litigation charges¹.")
    margin = _probe("What was operating margin in FY2022?", "It was 25.7%¹.", figure=True)
    slices = [_report(2021, margin), _report(2022, margin, cause)]
    answer = code_answer_to_the_question(slices, QUESTION)
    assert answer is not None and answer.body.startswith("Operating margin decreased")


def test_a_researched_answer_or_a_single_slice_is_composed_as_before():
    researched = _probe(QUESTION, "Margins fell on litigation charges¹.", rounds=2)
    margin = _probe("What was operating margin in FY2022?", "It was 25.7%¹.", figure=True)
    assert (
        code_answer_to_the_question([_report(2021, margin), _report(2022, researched)], QUESTION)
        is None
    )
    cause = _probe(QUESTION, "Operating margin decreased, primarily due to litigation charges¹.")
    assert code_answer_to_the_question([_report(2022, cause)], QUESTION) is None
