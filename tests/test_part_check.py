"""A part of a company is not given the whole company's figure, nor the company a part's
(``programs.part_check``)."""

from __future__ import annotations

import pytest
from cited import cited_answer

from domain.cells import SliceRef
from programs.figures import Figures
from programs.part_check import drop_part_as_whole, drop_whole_as_part, gives_the_whole
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


#: A page that gives its figures to segments, as FedEx's MD&A does.
SEGMENT_PAGE = (
    "Acme Ground Segment Operating Income\n"
    "Acme Ground segment operating income increased 19% in 2030 primarily due to yield "
    "improvement, partially offset by lower volume.\n"
    "Acme Freight segment revenue increased 1% in 2030.\n"
    "Consolidated revenue was $90.2 billion, down 3%."
)


@pytest.mark.parametrize(
    ("sentence", "dropped"),
    [
        # the segment's figure given to the company
        ("Acme's operating income increased 19% in FY2030 due to yield improvement.¹", 1),
        ("Revenue rose 1% on higher yields.¹", 1),
        # the segment named, in the page's words or its own
        ("Acme Ground's operating income increased 19% in FY2030.¹", 0),
        ("The Ground segment's operating income rose 19%.¹", 0),
        # the company's own figure, or a number the page gives no segment
        ("Consolidated revenue fell 3% to $90.2 billion.¹", 0),
    ],
)
def test_a_segments_figure_given_to_the_company_goes(sentence, dropped):
    answer = cited_answer(sentence)
    kept, count = drop_part_as_whole(answer, {"0a1b2c3d4e5f": SEGMENT_PAGE})
    assert count == dropped and (kept.body == "") == bool(dropped)
