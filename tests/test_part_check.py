"""A part of a company is not given the whole company's figure (``programs.part_check``)."""

from __future__ import annotations

import pytest
from cited import cited_answer

from domain.cells import SliceRef
from programs.figures import Figures
from programs.part_check import drop_whole_as_part, gives_the_whole
from retrieval.store import GridFilter

MMM_2018 = SliceRef(ticker="MMM", fy=2018, fq=4)  # net sales $32,765 million
WHOLE = "The Safety and Industrial segment of 3M had net sales of $32,765 million in FY2018."


@pytest.fixture
def figures(sample_store):
    return Figures(lambda ref: sample_store.facts(GridFilter(ref.ticker, ref.fy, ref.fq)))


def test_a_segment_given_the_companys_net_sales_goes(figures):
    answer = cited_answer(f"{WHOLE[:-1]}¹. Its sales grew in every region.¹")
    kept, dropped = drop_whole_as_part(answer, MMM_2018, figures)
    assert dropped == 1 and kept.body == "Its sales grew in every region.¹"


@pytest.mark.parametrize(
    "sentence",
    [
        "3M's net sales in FY2018 were $32,765 million.",  # the whole, of the whole
        "The Safety and Industrial segment had net sales of $12,345 million in FY2018.",
        "The Americas made 37% of 3M's net sales of $32,765 million in FY2018.",  # a share
        "Asia Pacific net sales were $10,254 million of 3M's $32,765 million in FY2018.",
        "The segment grew strongly in FY2018.",  # no amount
    ],
)
def test_a_part_with_its_own_figure_or_set_against_the_whole_stays(figures, sentence):
    assert not gives_the_whole(sentence, MMM_2018, figures)


def test_a_quarter_or_a_slice_without_facts_is_left_alone(figures):
    answer = cited_answer(f"{WHOLE[:-1]}¹.")
    quarter = SliceRef(ticker="MMM", fy=2018, fq=2)
    assert drop_whole_as_part(answer, quarter, figures) == (answer, 0)
    assert drop_whole_as_part(answer, MMM_2018, None) == (answer, 0)
