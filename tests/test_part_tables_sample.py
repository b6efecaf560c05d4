"""On a real filing: 3M's segment sales read from its 10-K's table, and a trend's prior
year read from that table instead of from a slice of its own."""

from __future__ import annotations

import dspy
from scripted_lm import ScriptedLM

from domain.cells import SliceRef
from programs.research_program import ResearchProgram, ResearchSettings

MMM_2018 = SliceRef(ticker="MMM", fy=2018, fq=4)


def test_3ms_segments_are_read_from_its_filing_and_the_highest_chosen(searcher):
    program = ResearchProgram(searcher, settings=ResearchSettings(max_probes=1))
    question = "Which 3M business segment had the highest sales in FY2018?"
    answer, figure = program.figures.answer(question, MMM_2018)
    assert answer.body.startswith(
        "Industrial had the highest revenue: $12,267 million, 37.4% of the total¹˒². "
        "Revenue in FY2018 was $32,765 million², split as: Industrial $12,267 million "
        "(37.4%, +3.4% from $11,866 million);"
    )
    # a reconciling row is listed without a change, and never chosen
    assert "Elimination of Dual Credit -$2,668 million (-8.1%)¹." in answer.body
    assert "Corporate and Unallocated $50 million (0.2%);" in answer.body
    assert figure.title == "Revenue of Industrial"


def test_a_trends_prior_year_is_read_from_the_later_filings_table(searcher):
    question = "Which 3M business segment's sales declined year over year in FY2019?"
    program = ResearchProgram(searcher, settings=ResearchSettings(max_probes=1))
    with dspy.context(lm=ScriptedLM()):
        pred = program(question=question)
    assert [s.slice.label for s in pred.slices] == ["MMM FY2019 Q4"]
    assert pred.plan.compared == []
    assert (
        "MMM FY2018 Q4: not researched apart (its parts' table is of its own year); its parts' "
        "figures are read from MMM FY2019 Q4's filing for the year asked"
    ) in " ".join(pred.report.split())
    print(pred.report)
