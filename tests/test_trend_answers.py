"""A trend question's answer states every period's figure, the change and its direction,
computed by code and cited to both periods' statement pages."""

from __future__ import annotations

import re

import dspy
from scripted_lm import ScriptedLM

from programs.figure_table import change_sentence, comparison_sentence
from programs.research_program import ResearchProgram
from signatures.synthesiser import Figure


def test_the_trend_answer_carries_both_periods_and_the_change(searcher):
    program = ResearchProgram(searcher)
    with dspy.context(lm=ScriptedLM()):
        pred = program(question="Is 3M's capital expenditure growing as of FY2022?")
    assert [s.label for s in pred.plan.slices] == ["MMM FY2021 Q4", "MMM FY2022 Q4"]
    answer = pred.report.split("## Comparison")[0]
    found = re.search(
        r"MMM capital expenditure went from \$([\d,]+) million in FY2021 to \$1,749 million in "
        r"FY2022, (up|down) \$([\d,]+) million \(([+-][\d.]+)%\)([¹²³⁴⁵⁶⁷⁸⁹⁰˒]+)\.",
        answer,
    )
    assert found, answer
    before = int(found[1].replace(",", ""))
    assert found[2] == ("up" if before < 1749 else "down")
    assert int(found[3].replace(",", "")) == abs(1749 - before)
    assert len(found[5].split("˒")) == 2  # cited to both years' statement pages
    sources = pred.report.split("Sources")[-1]
    assert "MMM 10-K FY2021" in sources and "MMM 10-K FY2022" in sources


def _figure(period: str, value: float, text: str) -> Figure:
    return Figure(title="Operating margin", period=period, value=value, unit="%", text=text)


def test_a_percentage_changes_in_percentage_points_and_a_flat_figure_is_unchanged():
    # The calculator keeps a margin as a fraction: 0.2 is printed "20.0%".
    before, after = _figure("FY2021", 0.2, "20.0%"), _figure("FY2022", 0.185, "18.5%")
    assert change_sentence("ACME", before, after, "¹²") == (
        "ACME operating margin went from 20.0% in FY2021 to 18.5% in FY2022, down 1.5 "
        "percentage points¹²."
    )
    assert "unchanged¹." in change_sentence(
        "ACME", before, before.model_copy(update={"period": "FY2022"}), "¹"
    )


def test_two_companies_margins_differ_by_points_as_printed():
    first = ("MMM", _figure("FY2022", 0.19105, "19.1%"))
    second = ("PEP", _figure("FY2022", 0.13153, "13.2%"))
    assert comparison_sentence(first, second, "¹˒²") == (
        "MMM operating margin in FY2022 (19.1%) was 5.9 percentage points higher than PEP's "
        "(13.2%)¹˒²."
    )


def test_a_two_company_comparison_states_the_gap_computed_by_code(searcher):
    program = ResearchProgram(searcher)
    with dspy.context(lm=ScriptedLM()):
        pred = program(
            question="How did 3M's capital expenditure compare with PepsiCo's in FY2022?"
        )
    answer = pred.report.split("## Comparison")[0]
    assert (
        "PEP capital expenditure in FY2022 ($5,207 million) was $3,458 million higher than "
        "MMM's ($1,749 million)"
    ) in answer
