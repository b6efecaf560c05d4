"""Whether internal control over financial reporting was effective, or a material weakness
existed, is answered by the 10-K's own conclusion (``programs.control_conclusions``), through
the probe loop with no model call."""

from __future__ import annotations

import pytest
from cited import TwoPageSearcher, closed_by_code, filing_page

from programs.control_conclusions import (
    asks_control_conclusion,
    conclusion_answer,
    conclusion_of,
    quoted_conclusion,
)

WEAKNESS = "Did Shop's management identify any material weakness in FY2023?"
EFFECTIVE = (
    "Based on the Company's assessment, management has concluded that its internal control "
    "over financial reporting was effective as of December 31, 2023."
)
AUDITOR = (
    "In our opinion, the Company maintained, in all material respects, effective internal "
    "control over financial reporting as of December 31, 2023, based on the COSO criteria."
)
NOT_EFFECTIVE = (
    "Based on this evaluation, our management concluded that we did not maintain effective "
    "internal control over financial reporting as of December 31, 2023 due to the material "
    "weaknesses described below."
)
RISK = (
    "Any newly identified material weaknesses could limit our ability to prevent or detect a "
    "misstatement of our financial results."
)
REMEDIATED = (
    "During the fourth quarter, management remediated an identified material weakness in "
    "internal control over financial reporting related to inventory."
)


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        (WEAKNESS, True),
        ("Was Shop's internal control over financial reporting effective in FY2023?", True),
        ("Does Shop have effective internal controls as of FY2023?", True),
        ("Who is Shop's independent registered public accounting firm?", False),
        ("Was Shop's operating margin effective?", False),
    ],
)
def test_what_asks_for_the_conclusion(question, asked):
    assert asks_control_conclusion(question) is asked


@pytest.mark.parametrize(
    ("sentence", "effective"),
    [(EFFECTIVE, True), (AUDITOR, True), (NOT_EFFECTIVE, False), (RISK, None),
     ("The Company's internal control over financial reporting was not effective as of "
      "January 28, 2023.", False)],
)  # fmt: skip
def test_a_conclusion_sentence_says_effective_or_not(sentence, effective):
    assert conclusion_of(sentence) is effective


def test_an_effective_conclusion_answers_no_weakness_and_quotes_it():
    """Apple's FY2020: the model answered "Yes, … identified a material weakness" beside the
    conclusion that the control was effective."""
    page = filing_page(f"{RISK} {EFFECTIVE}", 64)
    found = quoted_conclusion(WEAKNESS, [filing_page("Revenue grew.", 3), page])
    assert found == (page, EFFECTIVE, True)  # a risk of a weakness is no weakness found
    answer = conclusion_answer(WEAKNESS, *found)
    assert answer.body.startswith("No: internal control over financial reporting was")
    assert answer.body.endswith(f"“{EFFECTIVE}”¹")
    asked = "Was Shop's internal control over financial reporting effective in FY2023?"
    assert conclusion_answer(asked, *found).body == f"Yes: in the filing's words, “{EFFECTIVE}”¹"
    what = "What did Shop conclude on whether its internal control was effective?"
    assert conclusion_answer(what, *found).body == f"In the filing's words: “{EFFECTIVE}”¹"


def test_a_conclusion_of_not_effective_answers_yes():
    found = quoted_conclusion(WEAKNESS, [filing_page(NOT_EFFECTIVE)])
    assert found is not None and found[2] is False
    assert conclusion_answer(WEAKNESS, *found).body.startswith("Yes: in the filing's words, “")


@pytest.mark.parametrize(
    "pages",
    [
        # a weakness found in the year and remediated by its end: the research says so
        [filing_page(f"{EFFECTIVE} {REMEDIATED}")],
        # conclusions that differ
        [filing_page(EFFECTIVE), filing_page(NOT_EFFECTIVE, 41)],
        # a quarter's 10-Q concludes on disclosure controls, not on this
        [filing_page(EFFECTIVE, label="SHOP 10-Q FY2023 Q2")],
        [filing_page("Nothing on controls here.")],
    ],
)
def test_no_answer_where_the_pages_do_not_settle_it(pages):
    assert quoted_conclusion(WEAKNESS, pages) is None


def test_the_probe_loop_closes_the_questions_probe_with_the_conclusion_and_no_model_call():
    outcome = closed_by_code(WEAKNESS, TwoPageSearcher(EFFECTIVE))
    assert outcome.answer.answer.body.startswith("No: internal control over financial reporting")
