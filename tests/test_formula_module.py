"""The FormulaChooser module: its output is checked by the calculator before use."""

from __future__ import annotations

import dspy
import pytest
from dspy.utils import DummyLM

from calculator import calculate
from domain.periods import Period
from programs.formula import FormulaChooser, clean_formula
from tests.calculator_facts import contoso


def choose(answer: str, concepts=("revenue", "operating_income")) -> dspy.Prediction:
    with dspy.context(lm=DummyLM([{"formula": answer}])):
        return FormulaChooser()(
            question="What is Contoso's FY2021 operating margin?", concepts=list(concepts)
        )


def test_a_valid_formula_is_returned_and_computes():
    prediction = choose("operating_margin[FY2021]")
    assert prediction.formula == "operating_margin[FY2021]" and prediction.error is None
    result = calculate(prediction.formula, contoso(), Period(2021))
    assert result.value == pytest.approx(0.2)


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("operating_profit / revenue", "unknown name 'operating_profit'"),
        ("__import__('os').getcwd()", "unknown function"),
        ("240 / 1200", "names no fact"),  # the model's own numbers cite nothing
        ("[## question ## ]", "not a formula"),
    ],
)
def test_invalid_output_is_an_error_not_a_number(answer, message):
    prediction = choose(answer)
    assert prediction.formula is None
    assert message in prediction.error


def test_slice_concepts_beyond_the_table_are_accepted():
    with dspy.context(lm=DummyLM([{"formula": "basic_eps[FY2021]"}])):
        prediction = FormulaChooser()(
            question="Contoso's FY2021 basic EPS?", concepts=["basic_eps"]
        )
    assert prediction.formula == "basic_eps[FY2021]"


def test_a_formula_about_something_else_is_refused():
    prediction = choose("current_assets - current_liabilities")
    assert prediction.formula is None
    assert "none of the line items the question names" in prediction.error
    assert "operating_income" in prediction.error  # operating margin's inputs


def test_question_concepts():
    from programs.formula import question_concepts

    assert question_concepts("What is Contoso's FY2021 DPO?") == {
        "payables",
        "cost_of_revenue",
        "cost_of_products",  # the stand-in where no total cost of revenue is printed
        "cost_of_services",
    }
    gross = question_concepts("Contoso's FY2021 gross profit?")
    assert {"revenue", "cost_of_revenue", "cost_of_products", "cost_of_services"} <= gross
    assert "net_income" in question_concepts("Contoso's FY2021 net income?")
    assert question_concepts("Tell me about Contoso.") == set()


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("`operating_margin`", "operating_margin"),
        ("```\nrevenue / revenue[FY-1] - 1\n```", "revenue / revenue[FY-1] - 1"),
        ("formula: abs(capex).", "abs(capex)"),
        ("operating_margin = operating_income / revenue", "operating_income / revenue"),
    ],
)
def test_clean_formula(raw, clean):
    assert clean_formula(raw) == clean


def test_module_has_one_optimisable_predictor():
    assert [name for name, _ in FormulaChooser().named_predictors()] == ["choose"]
