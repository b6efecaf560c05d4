"""A statement line the question names by its printed label (``calculator.labelled_lines``),
and the figure code gives from it."""

from __future__ import annotations

import pytest

from calculator.labelled_lines import asked_words, read_line
from domain.cells import SliceRef
from programs.figures import Figures
from tests.calculator_facts import fact

FACTS = [
    fact("revenue", 2021, 1_000e6, label="Net revenue"),
    fact(None, 2021, 2e6, label="Restructuring and other charges"),
    fact(None, 2020, 2_626e6, label="Restructuring and other charges"),
    fact(None, 2021, 1_837e6, statement="cash_flow", label="Stock-based compensation"),
    fact(None, 2021, 2_900e6, statement="balance", label="Goodwill"),
    fact(None, 2020, 2_782e6, statement="balance", label="Goodwill"),
    fact(None, 2021, 5e6, statement="equity", label="Dividends declared"),
    fact(None, 2021, 40e6, label="Interest income"),
    fact(None, 2021, 60e6, label="Other income"),
]
CONTOSO = SliceRef(ticker="CTSO", fy=2021, fq=4)


@pytest.mark.parametrize(
    ("question", "label", "value"),
    [
        ("How much restructuring charge did Contoso record in FY2021?",
         "Restructuring and other charges", 2e6),
        ("What was Contoso's stock-based compensation expense in FY2021?",
         "Stock-based compensation", 1_837e6),
        ("How much goodwill did Contoso carry at the end of FY2021?", "Goodwill", 2_900e6),
        ("What was eBay's interest income in FY2021?", "Interest income", 40e6),
    ],
)  # fmt: skip
def test_a_line_named_by_its_label_is_read_from_the_statements(question, label, value):
    found = read_line(question, FACTS)
    assert found is not None
    info, facts = found
    assert {f.label for f in facts} == {label} and all(f.concept == info.name for f in facts)
    answer = Figures(lambda ref: FACTS).answer(question, CONTOSO)
    assert answer is not None
    assert answer[0].body.startswith(f"{label} in FY2021 was ${value / 1e6:,.0f} million¹")


@pytest.mark.parametrize(
    "question",
    [
        # a word the label lacks: the nature of a liability, an impairment, another item
        "What is the nature and purpose of Contoso's restructuring liability in FY2021?",
        "How much goodwill impairment did Contoso record in FY2021?",
        "What was Contoso's dividend income in FY2021?",
        # no amount asked
        "Did Contoso record restructuring charges in FY2021?",
        "Why did Contoso record restructuring charges in FY2021?",
        # a line of the equity statement, or a line a concept names, is not read by label
        "How much were Contoso's dividends declared in FY2021?",
    ],
)
def test_no_line_when_the_question_asks_more_or_other_than_a_label(question):
    assert read_line(question, FACTS) is None


def test_income_alone_names_two_lines_and_so_none():
    assert read_line("What was Contoso's income in FY2021?", FACTS) is None


def test_the_asked_words_leave_out_the_company_the_period_and_the_verbs():
    assert asked_words("How much restructuring charge did Intel record in FY2022?") == {
        "restructuring",
        "charge",
    }
    assert asked_words("How much did eBay's PG&E pay in Q4 2022?") == frozenset()
    assert asked_words("Which line grew fastest?") == frozenset()
    assert asked_words("Did Intel record any impairment losses?") == {"impairment", "loss"}


def test_a_figure_whose_formula_has_no_inputs_here_is_read_by_its_label():
    """Oracle prints depreciation apart from amortisation: "depreciation" names the
    calculator's depreciation and amortisation, which its statements do not hold, and the
    line printed "Depreciation" answers instead."""
    facts = [*FACTS, fact(None, 2021, 2_526e6, statement="cash_flow", label="Depreciation")]
    answer = Figures(lambda ref: facts).answer(
        "What was Contoso's depreciation in FY2021?", CONTOSO
    )
    assert answer is not None
    assert answer[0].body.startswith("Depreciation in FY2021 was $2,526 million¹")
    assert Figures(lambda ref: FACTS).answer("What was Contoso's depreciation?", CONTOSO) is None


def test_a_comparison_reads_a_figure_by_its_label_when_its_formula_has_no_inputs():
    """ "Was Oracle's capex larger than its depreciation?" went to the agents: the
    comparison read "depreciation" as depreciation and amortisation alone; its printed
    line answers, as it does for the figure asked by itself."""
    facts = [
        *FACTS,
        fact("capex", 2021, -8_695e6, statement="cash_flow", label="Capital expenditures"),
        fact(None, 2021, 2_526e6, statement="cash_flow", label="Depreciation"),
    ]
    question = "Was Contoso's capex larger than its depreciation in FY2021?"
    answer = Figures(lambda ref: facts).answer(question, CONTOSO)
    assert answer is not None
    assert answer[0].body.startswith(
        "Yes: capital expenditure of $8,695 million exceeded depreciation of $2,526 million"
    )
    assert Figures(lambda ref: facts[:-1]).answer(question, CONTOSO) is None


@pytest.mark.parametrize(
    ("question", "opening"),
    [
        ("Did Contoso record any restructuring charges in FY2021?",
         "Yes: restructuring and other charges came to $2 million in FY2021¹"),
        # a line the statement prints as nil ("—") is a no; "losses" is one loss
        ("Did Contoso record any impairment losses in FY2021?",
         "No: impairment loss came to $0 million in FY2021¹"),
    ],
)  # fmt: skip
def test_whether_there_was_any_of_a_line_is_its_figures_yes_or_no(question, opening):
    """Asked "Did Boston Properties record any impairment loss in FY2015?", the model said
    yes with the $8,306 thousand its income statement prints for 2013; the line printed "—"
    for 2015. A yes/no question on whether there was any of a line its label names is
    answered by that line's figure."""
    facts = [*FACTS, fact(None, 2021, 0.0, label="Impairment loss")]
    answer = Figures(lambda ref: facts).answer(question, CONTOSO)
    assert answer is not None
    assert answer[0].body.startswith(opening)
    # without "any", whether it recorded the line is not asked of its figure
    assert read_line(question.replace(" any", ""), facts) is None
