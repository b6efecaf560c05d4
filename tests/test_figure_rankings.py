"""Three companies' or more same figure is ranked by code, and the model's own ranking of
them goes (``programs.figure_rankings``)."""

from __future__ import annotations

import re

import dspy
from scripted_lm import ScriptedLM

from domain.cells import SliceRef
from programs.figure_rankings import ranking_lines, without_model_rankings
from programs.research_program import ResearchProgram
from retrieval.companies import load_companies
from signatures.synthesiser import Figure, ProbeAnswer, SliceReport


def _report(ticker: str, value: float, uid: str) -> SliceReport:
    figure = Figure(
        title="Revenue", period="FY2020", value=value, unit="USD",
        text=f"${value / 1e6:,.0f} million", uids=[uid],
    )  # fmt: skip
    probe = ProbeAnswer(index=1, probe_title="Revenue", probe_question="?", figures=[figure])
    return SliceReport(slice=SliceRef(ticker=ticker, fy=2020, fq=4), probe_answers=[probe])


SLICES = [_report("AAPL", 274_515e6, "a1"), _report("EBAY", 10_271e6, "b2"),
          _report("INTC", 77_867e6, "c3")]  # fmt: skip
NUMBERS = {"a1": 1, "b2": 2, "c3": 3}


def test_three_companies_figures_are_ranked_highest_first_each_cited():
    assert ranking_lines(SLICES, NUMBERS) == [
        "Revenue in FY2020, highest first: AAPL $274,515 million¹, INTC $77,867 million³, "
        "EBAY $10,271 million²."
    ]
    assert ranking_lines(SLICES[:2], NUMBERS) == []  # two: the gap sentence says it
    assert ranking_lines(SLICES, {"a1": 1, "b2": 2}) == []  # one cannot be cited


def test_the_models_ranking_of_them_goes_and_other_prose_stays():
    """The composer's order was wrong with every figure right."""
    body = (
        "Apple had the highest revenue in FY2020, with $274,515 million¹. eBay had a moderate "
        "revenue of $10,271 million², while Intel had a lower revenue of $77,867 million³. "
        "Intel's revenue came mostly from its client computing group³."
    )
    kept = without_model_rankings(body, SLICES, NUMBERS, load_companies())
    assert kept == "Intel's revenue came mostly from its client computing group³."
    assert without_model_rankings(body, SLICES[:2], NUMBERS, load_companies()) == body


def test_a_ranking_question_opens_with_codes_order(searcher):
    program = ResearchProgram(searcher)
    with dspy.context(lm=ScriptedLM()):
        pred = program(question="Rank Coca-Cola, 3M and PepsiCo by FY2020 revenue.")
    answer = pred.report.split("## Answer")[1].split("## Comparison")[0].strip()
    assert re.match(
        r"Revenue in FY2020, highest first: PEP \$70,372 million\S*, KO \$33,014 million\S*, "
        r"MMM \$32,184 million\S*\.",
        answer,
    ), answer
