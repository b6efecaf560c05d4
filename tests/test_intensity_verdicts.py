"""Whether a business is capital-intensive is code's verdict where its capex settles it
plainly, and the model's judgement between (``programs.intensity_verdicts``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from programs.figure_questions import asks_beyond_figure
from programs.figure_verdicts import settled_verdict
from programs.intensity_verdicts import CLEARLY_INTENSIVE, CLEARLY_LIGHT, intensity_verdict

ASKED = "Is Shop a capital-intensive business as of FY2022?"


@given(share=st.floats(0.0, 1.0, allow_nan=False))
def test_plain_shares_are_settled_and_the_grey_zone_is_left(share):
    verdict = intensity_verdict(ASKED, "capex_to_revenue", share, f"{share:.1%}")
    if share >= CLEARLY_INTENSIVE:
        assert verdict is not None and verdict.startswith("Yes: capital-intensive, with capital")
    elif share < CLEARLY_LIGHT:
        assert verdict is not None and verdict.startswith("No: not capital-intensive, with")
    else:
        assert verdict is None  # read against the business, by the model


@pytest.mark.parametrize(
    ("question", "formula"),
    [
        ("What was Shop's capital intensity in FY2022?", "capex_to_revenue"),  # no yes/no
        ("Is Shop an asset-light business as of FY2022?", "capex_to_revenue"),
        ("Is Shop a capital-intensive business as of FY2022?", "operating_margin"),
    ],
)
def test_other_questions_and_figures_get_no_intensity_verdict(question, formula):
    assert intensity_verdict(question, formula, 0.02, "2.0%") is None


def test_the_verdict_opens_the_answer_and_the_question_is_still_researched():
    light = "No: not capital-intensive, with capital expenditure of 4.6% of revenue, under a"
    assert settled_verdict(
        ASKED, "capex_to_revenue", "Capex as % of revenue", 0.046, "4.6%", "percent", ""
    ).startswith(light)
    grey = settled_verdict(
        ASKED, "capex_to_revenue", "Capex as % of revenue", 0.07, "7.0%", "percent", ""
    )
    assert grey is None
    # what the filing says of its assets is the rest of the answer, either way
    assert asks_beyond_figure(ASKED) and asks_beyond_figure(ASKED, judged=True)
