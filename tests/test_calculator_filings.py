"""The calculator on real filings of the bundled sample grid: FinanceBench metric questions
(Patronus AI, arXiv 2311.11944) answered from statement facts, each figure cited to the
statement page its inputs were read from."""

from __future__ import annotations

import pytest

from calculator import calculate, choose_formula
from calculator.answers import format_value
from calculator.choice import FormulaChoice
from metrics.answer_correctness import judge_answer
from retrieval.facts.extract import document_facts
from retrieval.pages import page_uid

CASES = [
    (
        "3M_2018_10K",
        "What is the FY2018 capital expenditure amount (in USD millions) for 3M? Give a "
        "response to the question by relying on the details shown in the cash flow statement.",
        "$1577.00",
        {59},
    ),
    (
        "PEPSICO_2021_10K",
        "What is the FY2021 capital expenditure amount (in USD billions) for PepsiCo? Respond "
        "to the question by assuming the perspective of an investment analyst who can only use "
        "the details shown within the statement of cash flows.",
        "$4.60",
        {62},
    ),
    (
        "PEPSICO_2022_10K",
        "What is the FY2022 unadjusted EBITDA % margin for PepsiCo? Calculate unadjusted EBITDA "
        "using unadjusted operating income and D&A (from cash flow statement). Give a response "
        "to the question by relying on the details shown in the statement of cash flows and the "
        "P&L statement.",
        "16.5%",
        {61, 63},
    ),
]


@pytest.mark.parametrize(("doc", "question", "gold", "pages"), CASES)
def test_metric_questions_on_sample_filings(sample_store, doc, question, gold, pages):
    facts = document_facts(sample_store.document_pages(doc))
    choice = choose_formula(question)
    assert isinstance(choice, FormulaChoice)
    result = calculate(
        choice.formula, facts, choice.period, definitions=choice.definitions, doc_name=doc
    )
    answer = format_value(result, choice.presentation)
    assert judge_answer(answer, gold, question).label == "correct", answer
    assert set(result.citations) == {page_uid(doc, p) for p in pages}
