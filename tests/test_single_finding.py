"""One slice with one researched probe: its cited answers are the report's answer, in the
order a reader needs them (``programs.composer``)."""

from __future__ import annotations

from cited import cited_answer

from domain.cells import SliceRef
from programs.standing_answers import single_finding
from signatures.synthesiser import Figure, ProbeAnswer, SliceReport

SLICE = SliceRef(ticker="ACME", fy=2030, fq=4)


def _figure(body: str, verdict: str = "") -> ProbeAnswer:
    figure = Figure(
        title="Capex as % of revenue", period="FY2030", value=0.183, unit="percent",
        text="18.3%", verdict=verdict,
    )  # fmt: skip
    return ProbeAnswer(
        index=1, probe_title="Capex as % of revenue (from the statements)",
        probe_question="What was capex as % of revenue in FY2030?",
        answer=cited_answer(body), figures=[figure],
    )  # fmt: skip


def _researched(body: str) -> ProbeAnswer:
    return ProbeAnswer(
        index=2, probe_title="The question", probe_question="Is Acme capital-intensive?",
        answer=cited_answer(body, uid="1b2c3d4e5f60"),
    )  # fmt: skip


def _answer(*probes: ProbeAnswer) -> str | None:
    return single_finding([SliceReport(slice=SLICE, probe_answers=list(probes))])


def test_a_yes_or_no_the_figure_does_not_give_opens_the_answer():
    figure = _figure("Capex as % of revenue in FY2030 was 18.3%¹.")
    verdict = _researched("Yes, Acme is capital-intensive: its fabs cost billions to build.¹")
    answer = _answer(figure, verdict)
    assert answer is not None and answer.startswith("Yes, Acme is capital-intensive")
    assert answer.endswith("was 18.3%¹.")


def test_codes_verdict_and_a_figure_without_one_keep_their_order():
    judged = _figure("Yes: a quick ratio of 1.20 is at or above 1¹.", verdict="Yes")
    answer = _answer(judged, _researched("No, Acme is not liquid.¹"))
    assert answer is not None and answer.startswith("Yes: a quick ratio")  # code's first
    trend = _figure("Improved: the ratio rose from 1.1 to 1.2¹.", verdict="Improved")
    answer = _answer(trend, _researched("Yes, its liquidity improved.¹"))
    assert answer is not None and answer.startswith("Improved: the ratio rose")
    plain = _answer(_figure("Capex was 18.3%¹."), _researched("Fabs cost billions.¹"))
    assert plain == "Capex was 18.3%¹.\n\nFabs cost billions.¹"
