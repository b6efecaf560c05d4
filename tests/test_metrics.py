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
