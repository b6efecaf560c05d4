"""Metrics: numbers, coverage, grounding, answer correctness, composite, validity benchmark."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import dspy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics import (
    answer_correctness,
    composite_feedback_metric,
    composite_metric,
    extract_numbers,
    judge_answer,
    score_citation_coverage,
    score_numeric_grounding,
)
from metrics.answer_words import content_words, key_fact_overlap, word_found
from metrics.numbers import NumberIndex

ROOT = Path(__file__).resolve().parents[1]
REPORT = """3M's capital expenditure was $1,577 million¹ in FY2018. \
Free cash flow was $4.9 billion.² It rose 20% from FY2017. See Note 7 for details.

**Sources**

¹ MMM 10-K FY2018 p.61 (page_id: 60211, uid: 3f9c2a81d0e4)
² MMM 10-K FY2018 p.62 (page_id: 60212, uid: 3f9c2a81d0e5)"""
PAGES = {
    "3f9c2a81d0e4": "Purchases of property, plant and equipment (PP&E) (1,577) (1,373)",
    "3f9c2a81d0e5": "Free cash flow (in millions) 4,700 4,734",
}


def test_number_extraction_skips_years_ids_and_forms():
    text = "In FY2018 (10-K, Note 7, p.61, Q1 2019) capex was $1,577 million, margin 24.3%, (12)."
    raws = [t.raw for t in extract_numbers(text)]
    assert raws == ["$1,577 million", "24.3%", "(12)"]
    assert extract_numbers("(12)")[0].value == -12


@pytest.mark.parametrize(
    "claim", ["$1,577 million", "1.577 billion", "1577.0", "$1.58 billion", "-$1,577", "(1,577)"]
)
def test_grounding_normalises_scale_and_sign(claim):
    index = NumberIndex.from_text("Capital expenditures (in millions) (1,577) 2018")
    assert index.matches(extract_numbers(claim)[0])


@pytest.mark.parametrize("claim", ["$1,600 million", "2,018", "$2 billion", "15.77%"])
def test_grounding_rejects_other_numbers(claim):
    index = NumberIndex.from_text("Capital expenditures (in millions) (1,577) 2018")
    assert not index.matches(extract_numbers(claim)[0])


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 10**7), st.sampled_from([(1, "thousand"), (1e3, "million"), (1e6, "billion")])
)
def test_grounding_scale_property(value, scale):
    divisor, word = scale
    page = NumberIndex.from_text(f"Total {value:,}")  # page in thousands
    claim = extract_numbers(f"${value / divisor:.6f} {word}")[0]
    assert page.matches(claim)


def test_citation_coverage_counts_sentences_and_numbers():
    result = score_citation_coverage(REPORT)
    assert (result.sentences, result.cited_sentences) == (4, 2)
    assert (result.numbers, result.cited_numbers) == (3, 2)
    assert result.uncited_numbers == ["20%"]
    fabricated = score_citation_coverage(REPORT, retrieved_uids={"3f9c2a81d0e4"})
    assert fabricated.cited_numbers == 1


def test_numeric_grounding_on_cited_pages():
    result = score_numeric_grounding(REPORT, PAGES)
    assert result.grounded == 1  # 1,577 on its page
    assert result.ungrounded == ["$4.9 billion"]  # the page says 4,700
    assert result.uncited == ["20%"]


@pytest.mark.parametrize(
    ("answer", "gold", "label"),
    [
        ("3M's FY2018 capex was $1.577 billion.", 1577, "correct"),
        ("Capex was $1,577 million.", "$1577.00", "correct"),
        ("The EBITDA margin was 16.5%.", 0.165, "correct"),
        ("The ROA was 1.42%.", 0.01, "correct"),
        ("Capex was $1,373 million.", 1577, "incorrect"),
        ("I'm sorry, the context does not include the capex for FY2018.", 1577, "refusal"),
        ("Insufficient evidence to answer.", "Yes, one customer was 16% of revenue", "refusal"),
        # Contracted hedges are hedges: "doesn't provide", "isn't given", "haven't provided".
        ("The text doesn't provide the capex for FY2018.", 1577, "refusal"),
        ("The capex figure isn't given in the filing excerpt.", 1577, "refusal"),
        ("You haven't provided the cash-flow statement for FY2018.", 1577, "refusal"),
        ("The filing didn’t disclose the FY2018 capex.", 1577, "refusal"),
        (
            "No, AMD did not report customer concentration.",
            "Yes, one customer was 16%",
            "incorrect",
        ),
        (
            "Yes: one customer accounted for 16% of net revenue.",
            "Yes, one customer was 16%",
            "correct",
        ),
    ],
)
def test_judge_answer_examples(answer, gold, label):
    assert judge_answer(answer, gold).label == label


CAPEX_Q = "Is Verizon a capital intensive business based on FY 2022 data?"
WC_Q = "Does Corning have positive working capital based on FY2022 data?"
WC_GOLD = "Yes. Corning had a positive working capital amount of $831 million by FY 2022 close."
CUSTOMERS_GOLD = (
    "Boeing's primary customers are a limited number of commercial airlines and the US "
    "government. The US government accounted for 40% of Boeing's total revenues."
)


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        # Implied verdict: the opening restates the question without "Yes".
        (
            "Based on its filings, Verizon is a capital intensive business, given its network.",
            "Yes. Verizon's capital intensity ratio was approximately 2.77.",
            CAPEX_Q,
            "correct",
        ),
        # Implied opposite verdict in words.
        (
            "Based on the filing, MGM Resorts did not pay dividends to common shareholders "
            "in FY2022.",
            "Yes. MGM paid dividends to common shareholders in FY2022.",
            "Has MGM Resorts paid dividends to common shareholders in FY2022?",
            "incorrect",
        ),
        # A different figure for the same quantity contradicts the gold.
        (
            "Yes, Corning has positive working capital of $2,278 million in FY2022.",
            WC_GOLD,
            WC_Q,
            "incorrect",
        ),
        # ... but a yes/no verdict without the supporting figure stands (guard).
        (
            "Yes, Corning has positive working capital at the end of FY2022.",
            WC_GOLD,
            WC_Q,
            "correct",
        ),
        # "U.S." and "US" are one word; detail in the gold's second sentence is optional.
        (
            "The primary customers are commercial airlines and the U.S. government.",
            CUSTOMERS_GOLD,
            "Who are the primary customers of Boeing as of FY2022?",
            "correct",
        ),
        # Opposite direction word.
        (
            "Ulta Beauty's wages expense as a percent of net sales decreased in FY2023.",
            "Wages expense as a percent of net sales increased in FY2023.",
            "Did Ulta Beauty's wages expense as a percent of net sales increase or decrease?",
            "incorrect",
        ),
        # Gold "There are none": asserting none is correct, not a refusal.
        (
            "Ulta Beauty does not have any debt securities registered on an exchange.",
            "There are none",
            "Which debt securities are registered to trade under Ulta Beauty's name?",
            "correct",
        ),
        (  # guard: listing securities contradicts "none"
            "The registered debt securities are the 2.000% Notes due 2027.",
            "There are none",
            "Which debt securities are registered to trade under Ulta Beauty's name?",
            "incorrect",
        ),
        # A model saying it has no access is a refusal even when it recites the key facts.
        (
            "As of my last update, I do not have access to real-time data. CVS Health has been "
            "involved in multiple ongoing legal battles.",
            "CVS Health has been involved in multiple ongoing legal battles.",
            "What legal battles has CVS Health reported?",
            "refusal",
        ),
        # A method with no result ("you would typically look at…") is a refusal.
        (
            "To find the dividends paid, you would typically look at the statement of cash flows.",
            0.4,
            "How much (in USD billions) did American Water Works pay out in cash dividends?",
            "refusal",
        ),
        # A whole-number gold is rounded too: "20%" is any rate that rounds to 20%.
        (
            "Acme effective tax rate went from 20.5% in FY2021 to 22.9% in FY2022.",
            "The effective tax rate of Acme has changed from 20% in FY2021 to 23% in FY2022.",
            "How much has the effective tax rate of Acme changed between FY2021 and FY2022?",
            "correct",
        ),
        (
            "Acme effective tax rate went from 21.7% in FY2021 to 22.9% in FY2022.",
            "The effective tax rate of Acme has changed from 20% in FY2021 to 23% in FY2022.",
            "How much has the effective tax rate of Acme changed between FY2021 and FY2022?",
            "incorrect",
        ),
        # A hedge after an opening that answers is a caveat.
        (
            "The activity that brought in the most cash for AMD in FY22 was operating activities. "
            "Net cash provided by operating activities was $3.6 billion in 2022. "
            "The evidence does not provide the exact figures for financing activities.",
            "In 2022, AMD brought in the most cashflow from Operations",
            "Among operations, investing, and financing activities, which brought in the most "
            "cash flow for AMD in FY22?",
            "correct",
        ),
    ],
)
def test_judge_answer_general_rules(answer, gold, question, label):
    assert judge_answer(answer, gold, question).label == label


def test_answer_correctness_is_a_dspy_metric():
    gold = dspy.Example(answer="1577", question="FY2018 capex?")
    assert answer_correctness(gold, dspy.Prediction(answer="It was $1,577 million.")) == 1.0
    assert answer_correctness(gold, dspy.Prediction(answer="I cannot provide that.")) == 0.0


def test_composite_feedback_names_failures():
    gold = dspy.Example(answer="$1,577 million", question="FY2018 capex?")
    pred = dspy.Prediction(report=REPORT, page_texts=PAGES, flagged_slices={"MMM FY2018": set()})
    result = composite_feedback_metric(gold, pred, None, None, None)
    assert 0 < result.score < 1
    assert "20%" in result.feedback and "$4.9 billion" in result.feedback
    assert composite_metric(gold, pred) == pytest.approx(result.score)
    perfect = composite_feedback_metric(
        gold,
        dspy.Prediction(
            report=REPORT.replace(" It rose 20% from FY2017. See Note 7 for details.", "").replace(
                "$4.9 billion", "$4.7 billion"
            ),
            page_texts=PAGES,
        ),
    )
    assert perfect.score == pytest.approx(1.0), perfect.feedback


def test_validity_benchmark_prints_table_on_fixture():
    fixture = ROOT / "tests" / "fixtures" / "labelled_answers_sample.jsonl"
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "metric_validity.py"),
            "--labelled",
            str(fixture),
            "--half",
            "all",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "| all | 21 |" in out and "Confusion matrix" in out
    accuracy = float(out.split("| all | 21 | ")[1].split(" |")[0])
    assert accuracy >= 0.6


def test_a_report_with_no_answer_is_a_refusal_though_its_scope_quotes_the_question():
    """Its Scope notes quote the probe question; their words are not the answer's."""
    question = "What was Acme's interest coverage ratio using FY2022 Adjusted EBIT?"
    report = (
        "## Answer\n\n_No cited answer could be written; the findings by slice follow._\n\n"
        "## Findings by slice\n\n### ACME FY2022 Q4\n\n_No cited findings: the evidence "
        "gathered did not support any claim._\n\n**Scope**\n\n- ACME FY2022 Q4: evidence "
        f"incomplete (Probe 1: insufficient evidence on “{question}”)"
    )
    gold = "Acme's interest coverage ratio using FY2022 Adjusted EBIT was negative"
    assert judge_answer(report, gold, question).label == "refusal"
    # the same notes after a cited answer leave its judgement alone
    answered = (
        "## Answer\n\nAcme's interest coverage ratio using FY2022 Adjusted EBIT was negative¹."
        "\n\n**Sources**\n\n¹ ACME 10-K FY2022 p.5 (page_id: 1, uid: aaaaaaaaaaaa)"
        f"\n\n**Scope**\n\n- a note on “{question}”"
    )
    assert judge_answer(answered, gold, question).label == "correct"


def test_citation_coverage_reads_no_scope_note_as_an_uncited_claim():
    from citations.markup import without_report_notes

    body = "Revenue was $5 million¹."
    notes = "\n\n**Formulas**\n\n- Margin = a ÷ b\n\n**Scope**\n\n- MMM: no period given."
    assert without_report_notes(body + notes) == body
    assert score_citation_coverage(body + notes) == score_citation_coverage(body)


def test_a_slice_without_findings_is_no_hedge_of_the_cited_answer_above_it():
    question = "What is Acme's 2 year total revenue CAGR from FY2028 to FY2030?"
    report = (
        "## Answer\n\nACME FY2030 Q4: revenue CAGR was 0.4%¹.\n\n## Findings by slice\n\n"
        "### ACME FY2029 Q4\n\n_No cited findings: the evidence gathered did not support any "
        "claim._\n\n### ACME FY2030 Q4\n\nRevenue CAGR in FY2030 was 0.4%¹.\n\n**Sources**\n\n"
        "¹ ACME 10-K FY2030 p.63 (page_id: 1, uid: aaaaaaaaaaaa)"
    )
    assert judge_answer(report, "0.4%", question).label == "correct"


def test_a_compound_word_says_its_parts():
    found = content_words("No: not capital-intensive, with capex of 4.6% of revenue.")
    assert all(word_found(w, found) for w in content_words("capital intensive"))
    gold = "No. The company is not capital intensive: capex was 4.6% of revenue."
    hyphened = "No: not capital-intensive, with capital expenditure of 4.6% of revenue."
    spaced = "No: not capital intensive, with capital expenditure of 4.6% of revenue."
    assert key_fact_overlap(hyphened, gold) == key_fact_overlap(spaced, gold)
