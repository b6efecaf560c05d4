"""A draft fitted to its question's form: echoed questions and stray yes/no openings go."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citations.markup import CitedAnswer
from programs.answer_form import asks_yes_or_no, fit_to_question

WH_WORDS = ("What", "Which", "Who", "How", "Why", "When", "Where")
AUXILIARIES = ("Is", "Are", "Was", "Does", "Did", "Has", "Have", "Can", "Will", "Should")


def fitted(question: str, body: str) -> str:
    return fit_to_question(question, CitedAnswer(body=body))[0].body


@pytest.mark.parametrize(
    ("question", "yes_no"),
    [
        ("Which segment of Acme had the highest net income in Q2 FY2031?", False),
        ("What share of Acme's FY2031 buybacks fell in its fourth quarter?", False),
        ("How much did Acme spend on capex in FY2031?", False),
        ("Does Acme have positive working capital based on FY2031 data?", True),
        ("Based on its balance sheet, is Acme's liquidity healthy?", True),
        (
            "If Acme were wound up at the end of FY2031 and its assets paid out to its "
            "shareholders, how much would each share get?",
            False,
        ),
        ("If Acme's margin fell in FY2031, was its guidance met?", True),
        ("What is Acme's quick ratio? Is it healthy?", True),
        ("Acme's FY2031 dividend payout: sustainable?", True),  # no question word: unknown
    ],
)
def test_yes_no_questions_are_told_from_others(question, yes_no):
    assert asks_yes_or_no(question) is yes_no


def test_a_stray_yes_opening_an_answer_to_a_which_question_goes():
    body = "Yes, Acme's Consumer segment had the highest net income, $3,725 million¹."
    assert fitted("Which segment had the highest net income?", body) == (
        "Acme's Consumer segment had the highest net income, $3,725 million¹."
    )


def test_a_yes_no_question_keeps_its_answer_whole():
    body = "No: a quick ratio of 0.54 is below 1¹. Quick assets were $2.1 billion¹."
    assert fitted("Is Acme's quick ratio healthy?", body) == body


def test_an_echoed_question_is_removed_and_the_answer_kept():
    body = (
        "Is growth in Acme's adjusted EPS expected to accelerate in FY2032? "
        "No, growth slows from 3.6% to 3.5%¹."
    )
    assert fitted("Is growth in Acme's adjusted EPS expected to accelerate?", body) == (
        "No, growth slows from 3.6% to 3.5%¹."
    )


def test_a_claim_that_opens_with_no_is_not_a_stray_verdict():
    body = "No dividend was paid in FY2031¹."
    assert fitted("What dividend did Acme pay in FY2031?", body) == body


def test_an_answer_with_nothing_to_fit_is_the_same_object():
    answer = CitedAnswer(body="Capex was $1,577 million¹.")
    assert fit_to_question("How much was capex?", answer) == (answer, 0)


@given(
    wh=st.sampled_from(WH_WORDS),
    verdict=st.sampled_from(("Yes", "No", "**Yes**", "yes")),
    mark=st.sampled_from((",", ".", ":", " —")),
    claim=st.sampled_from(("the figure is $900 million¹.", "Consumer led the growth¹.")),
)
def test_a_question_word_question_never_keeps_a_leading_yes_or_no(wh, verdict, mark, claim):
    question = f"{wh} drove Acme's FY2031 results?"
    body = fitted(question, f"{verdict}{mark} {claim}")
    assert body == claim[0].upper() + claim[1:]


@given(
    aux=st.sampled_from(AUXILIARIES),
    body=st.sampled_from(("Yes, capex rose¹.", "No. Margins fell¹.", "Yes: 1.2 is above 1¹.")),
)
def test_a_yes_no_question_never_loses_its_verdict(aux, body):
    assert fitted(f"{aux} Acme's FY2031 margin improving?", body) == body


def test_a_question_word_after_a_lead_in_still_marks_a_question_that_is_not_yes_no():
    assert not asks_yes_or_no("In 2022 Q2, which of Acme's segments had the highest income?")


def test_a_stray_yes_under_a_heading_goes_and_the_heading_stays():
    body = "## Answer\n\nYes, the figure is $900 million¹."
    assert fitted("What share of buybacks fell in Q4?", body) == (
        "## Answer\n\nThe figure is $900 million¹."
    )


def test_the_questions_instruction_pasted_into_the_answer_goes():
    question = (
        "What is Acme's FY2031 inventory turnover? If inventory turnover is not meaningful "
        "for the company then state that and explain why."
    )
    body = (
        "Inventory turnover was 4.4¹. If inventory turnover is not meaningful for the company "
        "then state that and explain why¹."
    )
    assert fitted(question, body) == "Inventory turnover was 4.4¹."


def test_a_sentence_that_only_says_where_the_answer_is_written_goes():
    answer = CitedAnswer(
        body="The figure comes from the statement of income, specifically on page¹ of Acme's "
        "2030 10-K report. Revenue CAGR was 0.4%.²"
    )
    fitted, edits = fit_to_question("What was Acme's 2-year revenue CAGR?", answer)
    assert edits == 1 and fitted.body == "Revenue CAGR was 0.4%.²"
    for pointer in ("The figure is cited from hit number¹.", "It is taken from hit 2¹."):
        said = CitedAnswer(body=f"GMV was $18.4 billion.¹ {pointer}")
        assert fit_to_question("What was Acme's GMV?", said)[0].body == "GMV was $18.4 billion.¹"


@pytest.mark.parametrize(
    "claim",
    [
        "Revenue was $5,207 million, as shown in the income statement.¹",  # a figure
        "The 10-K shows that revenue grew on higher prices.¹",  # what, not where
        "Capex is reported net of disposals.¹",
    ],
)
def test_a_claim_that_names_its_source_is_no_pointer(claim):
    answer = CitedAnswer(body=claim)
    assert fit_to_question("What was Acme's revenue?", answer) == (answer, 0)


@pytest.mark.parametrize(
    "pasted",
    [
        "No Sources block: it is written from your hit numbers.",
        "Cite only the hit numbers in the evidence¹.",
        "Do not paste passages: a line copied from the evidence is removed.",
    ],
)
def test_a_line_of_the_answer_steps_own_brief_goes(pasted):
    question = "What share of Acme's FY2031 buybacks fell in its fourth quarter?"
    answer = CitedAnswer(body=f"Acme repurchased $9.0 billion in FY2031¹. {pasted}")
    fitted, edits = fit_to_question(question, answer)
    assert edits == 1 and fitted.body == "Acme repurchased $9.0 billion in FY2031¹."


def test_a_sentence_of_marks_alone_goes():
    answer = CitedAnswer(body="Capex was $1.2 billion¹.\n\n.¹˒²˒³")
    fitted, edits = fit_to_question("How much did Acme spend on capex in FY2031?", answer)
    assert edits == 1 and fitted.body == "Capex was $1.2 billion¹."


@given(st.sampled_from(("evidence", "answer", "hit numbers", "Sources block")))
def test_a_claim_that_shares_a_few_words_with_the_brief_stays(words):
    answer = CitedAnswer(body=f"Acme's {words} show revenue of $5,207 million¹.")
    assert fit_to_question("What was Acme's revenue?", answer) == (answer, 0)
