"""A yes/no verdict on a figure against the level the question names
(``programs.threshold_verdicts``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from programs.threshold_verdicts import sign_verdict, threshold_verdict


@pytest.mark.parametrize(
    ("question", "title", "value", "text", "display", "verdict"),
    [
        ("Is McDonald's operating margin above 40% in FY2022?", "Operating margin", 0.404,
         "40.4%", "percent", "Yes: operating margin of 40.4% is above 40%"),
        ("Was its FY2022 operating margin below 35%?", "Operating margin", 0.404, "40.4%",
         "percent", "No: operating margin of 40.4% is above 35%"),
        ("Did it spend more than $2 billion on capex in FY2022?", "Capital expenditure",
         1.899e9, "$1.90 billion", "amount",
         "No: capital expenditure of $1.90 billion is below $2 billion"),
        ("Is its debt to EBITDA above 2x at the end of FY2022?", "Debt to EBITDA", 2.6,
         "2.60", "ratio", "Yes: debt to EBITDA of 2.60 is above 2x"),
        ("Is its return on assets at least 5% in FY2017?", "Return on assets", 0.0755,
         "0.08", "ratio", "Yes: return on assets of 0.08 is above 5%"),
        ("Were its days sales outstanding under 60 days in FY2021?", "Days sales outstanding",
         45.2, "45.2 days", "days", "Yes: days sales outstanding of 45.2 days is below 60 days"),
    ],
)  # fmt: skip
def test_the_figure_is_set_against_the_level_the_question_names(
    question, title, value, text, display, verdict
):
    assert threshold_verdict(question, title, value, text, display) == verdict


@pytest.mark.parametrize(
    ("question", "display"),
    [
        ("What was its operating margin in FY2022?", "percent"),  # no yes/no
        ("Is its operating margin healthy in FY2022?", "percent"),  # no level
        ("Is its operating margin above $5 billion in FY2022?", "percent"),  # not its terms
        ("Did it spend more than 40% on capex in FY2022?", "amount"),
        ("Was its operating margin in FY2022 better than in FY2021?", "percent"),  # a year
    ],
)
def test_no_verdict_without_a_level_in_the_figures_terms(question, display):
    assert threshold_verdict(question, "Operating margin", 0.4, "40.0%", display) is None


@given(st.floats(0, 1), st.integers(1, 99))
def test_the_verdict_agrees_with_the_arithmetic(value, percent):
    verdict = threshold_verdict(
        f"Is its gross margin above {percent}% in FY2022?", "Gross margin", value,
        f"{value:.1%}", "percent",
    )  # fmt: skip
    assert verdict is not None and verdict.startswith("Yes" if value > percent / 100 else "No")


@pytest.mark.parametrize(
    ("question", "value", "verdict"),
    [
        ("Does Acme have negative retained earnings as of FY2031?", -7_542e6,
         "Yes: retained earnings stood at -$7,542 million, below zero"),
        ("Are Acme's retained earnings positive in FY2031?", -7_542e6,
         "No: retained earnings stood at -$7,542 million, below zero"),
        ("Does Acme have negative retained earnings?", 12e6,
         "No: retained earnings stood at $12 million, above zero"),
        ("What were Acme's retained earnings in FY2031?", -1e6, None),  # no yes/no
        ("Is Acme's revenue negative?", -1e6, None),  # another figure
        ("Are retained earnings above $5 billion?", -1e6, None),  # a level: threshold's
    ],
)  # fmt: skip
def test_a_sign_asked_is_the_level_zero(question, value, verdict):
    text = f"{'-' if value < 0 else ''}${abs(value) / 1e6:,.0f} million"
    assert sign_verdict(question, "Retained earnings", value, text) == verdict


@given(st.floats(-1e9, 1e9, allow_nan=False).filter(lambda v: v != 0), st.booleans())
def test_a_sign_verdict_agrees_with_the_sign(value, negative):
    question = f"Is Acme's free cash flow {'negative' if negative else 'positive'}?"
    verdict = sign_verdict(question, "Free cash flow", value, f"{value:,.0f}")
    assert verdict is not None and verdict.startswith("Yes" if (value < 0) == negative else "No")
