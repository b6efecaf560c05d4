"""Which operating expense line grew the most, or is the largest, chosen by code from the
income statement's rows (``programs.expense_lines``)."""

from __future__ import annotations

import dspy
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scripted_lm import ScriptedLM

from domain.cells import SliceRef
from domain.periods import Period
from programs.expense_lines import asks_expense_lines, expense_answer, expense_lines
from programs.figures import Figures
from programs.research_program import ResearchProgram, ResearchSettings
from retrieval.facts.model import Fact

SHOP_2031 = SliceRef(ticker="SHOP", fy=2031, fq=4)
#: eBay's FY2022 statement, rounded: (label, concept, FY2031, FY2030).
STATEMENT = [
    ("Net revenues", "revenue", 9_795e6, 10_420e6),
    ("Cost of net revenues", "cost_of_revenue", 2_680e6, 2_809e6),
    ("Gross profit", "gross_profit", 7_115e6, 7_611e6),
    ("Sales and marketing", "sales_marketing", 2_136e6, 2_171e6),
    ("Product development", "rnd", 1_330e6, 1_325e6),
    ("General and administrative", "general_administrative", 963e6, 921e6),
    ("Provision for transaction losses", None, 332e6, 422e6),
    ("Total operating expenses", "operating_expenses", 4_765e6, 4_848e6),
    ("Income from operations", "operating_income", 2_350e6, 2_763e6),
    ("Interest and other, net", None, -165e6, -60e6),
]


def _statement(rows=STATEMENT, page_id: int = 59) -> list[Fact]:
    """The statement's rows, the year asked's column and then the year before's, as the
    extractor reads a page: row by row, column by column."""
    page = dict(uid=f"abcdef0{page_id:05d}", page_id=page_id, doc_name="SHOP_2031_10K",
                doc_label="SHOP 10-K FY2031", page_index=page_id - 1, ticker="SHOP", fq=None,
                unit="USD", statement="income", duration="year")  # fmt: skip
    facts = []
    for label, concept, now, before in rows:
        for fy, value in ((2031, now), (2030, before)):
            facts.append(Fact(label=label, concept=concept, fy=fy, column=str(fy), value=value,
                              **page))  # fmt: skip
    return facts


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Which of SHOP's operating expense lines grew the most in FY2031?", True),
        ("Which operating expense increased the most for SHOP in FY2031?", True),
        ("Which SHOP expense category rose fastest in FY2031?", True),
        ("Which operating expense had the largest increase in FY2031?", True),
        ("What was SHOP's largest operating expense in FY2031?", True),
        ("Which segment grew the most in FY2031?", False),
        ("What were SHOP's operating expenses in FY2031?", False),
        ("Did SHOP's operating expenses grow in FY2031?", False),
    ],
)
def test_the_ask_is_read_from_the_question(question, asked):
    assert asks_expense_lines(question) is asked


def test_the_lines_are_the_rows_between_gross_profit_and_their_total():
    lines = expense_lines(_statement(), Period(2031))
    assert [line.now.label for line in lines] == [
        "Sales and marketing",
        "Product development",
        "General and administrative",
        "Provision for transaction losses",
    ]
    assert [line.before.value for line in lines][:1] == [2_171e6]


def test_the_line_that_grew_most_is_named_with_its_years_and_every_other_lines_growth():
    question = "Which of SHOP's operating expense lines grew the most in FY2031?"
    answer, figure = expense_answer(question, _statement(), SHOP_2031)
    assert answer.body.startswith(
        "General and administrative grew the most of the operating expense lines in FY2031: "
        "$963 million, up 4.6% from $921 million in FY2030¹."
    )
    assert "Sales and marketing -1.6%" in answer.body
    assert "Provision for transaction losses -21.3%" in answer.body
    assert figure.text == "4.6%" and answer.references.footnotes


def test_a_small_lines_growth_rate_is_said_beside_the_largest_increase_in_dollars():
    rows = [*STATEMENT[:6], ("Amortization", None, 5e6, 1e6), *STATEMENT[7:]]
    question = "Which of SHOP's expense lines grew the most in FY2031?"
    answer, _ = expense_answer(question, _statement(rows), SHOP_2031)
    assert answer.body.startswith("Amortization grew the most")
    assert "The largest increase in dollars: general and administrative, up $42 million" in (
        answer.body
    )


def test_the_largest_line_by_size():
    answer, figure = expense_answer(
        "What was SHOP's largest operating expense in FY2031?", _statement(), SHOP_2031
    )
    assert answer.body.startswith(
        "Sales and marketing was the largest operating expense line in FY2031: $2,136 million¹."
    )
    assert figure.value == 2_136e6


def test_a_label_printed_twice_is_matched_to_its_own_years_row():
    """Oracle prints "Services" among revenues and again among expenses: each year's row is
    the one at the same place, not the first of that label."""
    rows = [
        ("Services", None, 5_594e6, 3_066e6),
        ("Total revenues", "revenue", 49_954e6, 42_440e6),
        ("Services", None, 4_761e6, 2_691e6),
        ("Research and development", "rnd", 8_623e6, 7_219e6),
        ("Total operating expenses", "operating_expenses", 36_861e6, 31_514e6),
    ]
    lines = expense_lines(_statement(rows), Period(2031))
    assert [(x.now.value, x.before.value) for x in lines] == [
        (4_761e6, 2_691e6),
        (8_623e6, 7_219e6),
    ]


def test_no_answer_without_a_statement_that_closes_or_two_lines():
    assert (
        expense_answer("Which expense grew the most?", _statement(STATEMENT[:7]), SHOP_2031) is None
    )
    one = [*STATEMENT[:4], *STATEMENT[7:]]
    assert expense_answer("Which expense grew the most?", _statement(one), SHOP_2031) is None


@given(st.lists(st.floats(1e6, 1e10), min_size=2, max_size=6), st.floats(0.5, 2.0))
def test_the_line_named_is_the_one_with_the_highest_growth(befores, scale):
    growth = [scale * (1 + i / 10) for i in range(len(befores))]
    rows = [("Revenue", "revenue", 1e11, 1e11)]
    pairs = enumerate(zip(befores, growth, strict=True))
    rows += [(f"Line {i}", None, b * g, b) for i, (b, g) in pairs]
    rows += [("Total operating expenses", "operating_expenses", 1e11, 1e11)]
    answer, _ = expense_answer("Which expense grew the most?", _statement(rows), SHOP_2031)
    assert answer.body.startswith(f"Line {len(befores) - 1} grew the most")


def test_the_figure_probe_and_its_answer_come_from_the_figures():
    figures = Figures(lambda ref: _statement())
    question = "Which of SHOP's operating expense lines grew the most in FY2031?"
    probe = figures.probe(question, SHOP_2031)
    assert probe is not None and probe.probe_title == "Operating expenses (from the statements)"
    answer, _ = figures.answer(question, SHOP_2031)
    assert answer.body.startswith("General and administrative grew the most")


def test_a_trends_prior_year_is_not_researched_apart_on_a_real_filing(searcher):
    """The line's growth reads the year before from the same statement: the prior-year slice
    a trend word ("grew") adds would compare one line's growth with another's."""
    question = "Which of 3M's operating expense lines grew the most in FY2019?"
    program = ResearchProgram(searcher, settings=ResearchSettings(max_probes=1))
    with dspy.context(lm=ScriptedLM()):
        pred = program(question=question)
    assert [s.slice.label for s in pred.slices] == ["MMM FY2019 Q4"]
    report = " ".join(pred.report.split())
    assert "MMM FY2018 Q4: not researched apart" in report
    assert "grew the most of the operating expense lines in FY2019: $" in report
