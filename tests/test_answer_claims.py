"""Claim matching in ``judge_answer``: figures with kind and conclusion, verdicts, options,
named items; the company-grouped validity split; the optional LM judge (scripted, offline)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from dspy.utils import DummyLM
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.answer_correctness import judge_answer
from metrics.answer_names import gold_items
from metrics.answer_words import word_found
from metrics.claims import asked_kind, asks_rounding, question_options
from metrics.lm_judge import LMAnswerJudge

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchmarks.metric_validity import assign_parts, company_of, evaluate  # noqa: E402

DPO_Q = (
    "What is FY2020 days payable outstanding (DPO) for Corning? Round your answer to two "
    "decimal places."
)
DIVIDENDS_Q = "How much (in USD billions) did American Water Works pay out in cash dividends?"
AR_Q = "What is Amcor's year end FY2020 net AR (in USD millions)?"
ETR_Q = "How much has the effective tax rate of Corning changed between FY2021 and FY2022?"
ETR_GOLD = "The effective tax rate of Corning has changed from 20% in FY2021 to 23% in FY 2022."
CASH_Q = (
    "Among operations, investing, and financing activities, which brought in the most (or "
    "lost the least) cash flow for Nike in FY2023?"
)
CASH_GOLD = "Among the three, cash flow from operations was the highest for Nike in FY2023."
MARGIN_Q = (
    "Does AMEX have an improving operating margin profile as of 2022? If operating margin is "
    "not a useful metric for a company like this, then state that and explain why."
)
MARGIN_GOLD = "Performance is not measured through operating margin"
EPS_Q = "Is growth in JnJ's adjusted EPS expected to accelerate in FY2023?"
EPS_GOLD = "No, rate of growth in adjusted EPS is expected to decelerate from 3.6% to 3.5%."
SALES_Q = "How did JnJ's US sales growth compare to international sales growth in FY2022?"
SALES_GOLD = "US sales increased 3.0% vs international sales decline of 0.6%."
LIABILITY_Q = "What was the largest liability in American Express's Balance Sheet in 2022?"
REGIONS_Q = "What are the geographies that American Express primarily operates in as of 2022?"
REGIONS_GOLD = "United States, EMEA, APAC, and LACC"


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        # The asked kind: a percentage is not an amount of money, an amount not a ratio.
        ("About 40% of the regulatory liability balance was collected.", 0.4, DIVIDENDS_Q,
         "incorrect"),
        ("Dividends paid were $389 million.", 0.4, DIVIDENDS_Q, "correct"),
        ("ROA = $14,293 / $200,369 = 7.2%", 0.01, "What is the FY2017 ROA for Coca Cola?",
         "incorrect"),
        # Asked to round to two decimals: 64.09 is another figure, 63.84 the same one.
        ("DPO ≈ 64.09 days.", 63.86, DPO_Q, "incorrect"),
        ("DPO is 63.84 days.", 63.86, DPO_Q, "correct"),
        # Not asked to round: the 1% window stands (a gold rounded loosely).
        ("Capital expenditure was $4.62 billion.", "$4.60",
         "What is the FY2021 capital expenditure amount (in USD billions) for PepsiCo?",
         "correct"),
        # The conclusion outweighs the gold figure met in the working ...
        ("Trade receivables, net: $1,615.9 million. Less allowance: $35.3 million.\n\n"
         "Therefore, Amcor's net AR was $1,615.9 million - $35.3 million = $1,580.6 million.",
         1616, AR_Q, "incorrect"),
        # ... but operands of a formula in a concluding step are not its result.
        ("Therefore, average total assets are ($87,270 million + $87,896 million) / 2 = "
         "$87,583 million. ROA = $1,248 million / $87,583 million = 1.42%.",
         0.01, "What is the FY2017 return on assets (ROA) for Coca Cola?", "correct"),
        # A hedge followed by a conclusion is an answer, not a refusal.
        ("The total is not directly stated in the statements. However, we can calculate it. "
         "Therefore, the FY2019 inventories were $4,607 million.", 5409,
         "What is the year end FY2019 total amount of inventories for Best Buy? Answer in USD "
         "millions.", "incorrect"),
    ],
)  # fmt: skip
def test_numeric_claims(answer, gold, question, label):
    assert judge_answer(answer, gold, question).label == label


@pytest.mark.parametrize(
    ("answer", "gold", "question", "label"),
    [
        # The change between the gold's two figures states both.
        ("The effective tax rate of Corning has increased by 3% between FY2021 and FY2022.",
         ETR_GOLD, ETR_Q, "correct"),
        # A figure contradicting one of the gold's counts even when another one is found.
        ("The effective tax rate of Corning has changed from 20.2% in FY2021 to 17.5% in "
         "FY2022.", ETR_GOLD, ETR_Q, "incorrect"),
        ("In FY2022, JnJ's US sales growth was 3.0%, while its international sales growth was "
         "9.1%.", SALES_GOLD, SALES_Q, "incorrect"),
        # The option picked among those the question offers.
        ("Nike's investing activities brought in the most cash flow in FY2023, with an inflow "
         "of $564 million.", CASH_GOLD, CASH_Q, "incorrect"),
        ("Cash flow from operating activities was the highest for Nike in FY2023, at $5.8 "
         "billion.", CASH_GOLD, CASH_Q, "correct"),
        # The question's list of options copied back is no pick, whatever words it shares.
        ("Among operations, investing, and financing activities, Nike in FY2023 brought in "
         "the most cash flow. Its cash flow hedges were $18.2 billion.", CASH_GOLD, CASH_Q,
         "incorrect"),
        ("Among operations, investing, and financing activities, operations brought in the "
         "most cash flow for Nike in FY2023.", CASH_GOLD, CASH_Q, "correct"),
        # The option picked is a "which" question's answer, said as a choice ("the most").
        ("Operations brought in the most cash flow in FY2023. Cash from operations was $5,841 "
         "million; cash from investing was $564 million; cash from financing was -$7,447 "
         "million.", CASH_GOLD, CASH_Q, "correct"),
        ("Cash provided by operations was an inflow of $2,485 million for fiscal 2020. Cash "
         "used by financing activities was $5,293 million for fiscal 2019.", CASH_GOLD, CASH_Q,
         "incorrect"),
        ("Cash flow from operating activities was the highest for Nike in FY2023 ($5,841 "
         "million), against investing ($564 million) and financing (-$7,447 million).",
         CASH_GOLD, CASH_Q, "correct"),
        # Whether the asked metric is meaningful for the company.
        ("For 2022 the operating margin is $9,585 million / $52,862 million = 18.14%, down from "
         "25.22% in 2021, so it is not improving.", MARGIN_GOLD, MARGIN_Q, "incorrect"),
        ("Operating margin is not a useful metric for a card issuer like American Express; its "
         "performance is measured by billed business and net interest yield.", MARGIN_GOLD,
         MARGIN_Q, "correct"),
        # The verdict in a later sentence that restates the question.
        ("JnJ guides to adjusted EPS of $10.50, reflecting growth of 3.5%. In FY2022 adjusted "
         "EPS grew 3.6%. Therefore, growth in JnJ's adjusted EPS is not expected to accelerate "
         "in FY2023.", EPS_GOLD, EPS_Q, "correct"),
        ("JnJ's adjusted EPS for 2022 was $6.73 and guidance for 2023 is $10.50. Therefore, "
         "growth in JnJ's adjusted EPS is expected to accelerate in FY2023.", EPS_GOLD, EPS_Q,
         "incorrect"),
        # ``Flat`` said another way.
        ("Net sales were in line with the prior year: there was no real change in sales.",
         "The Real Growth was flat in FY 2023 vs FY 2022.",
         "How much was the real change in sales for AMCOR in FY 2023 vs FY 2022?", "correct"),
        # Framing words in the gold are not facts the answer must repeat.
        ("AMCOR primarily operates in the packaging industry.",
         "Amcor is a global leader in packaging production for various use cases.",
         "What industry does AMCOR primarily operate in?", "correct"),
    ],
)  # fmt: skip
def test_text_claims(answer, gold, question, label):
    assert judge_answer(answer, gold, question).label == label


def test_one_name_gold_must_be_the_answer():
    passing = (
        "Key points on borrowings:\n\n- Short-term borrowings were $1.3 billion.\n"
        "- Long-term debt was $42.6 billion.\n- Total customer deposits were $110.2 billion.\n\n"
        "In summary, American Express uses a variety of funding sources."
    )
    assert judge_answer(passing, "Customer deposits", LIABILITY_Q).label == "incorrect"
    named = "The largest liability was customer deposits, at $110.2 billion."
    assert judge_answer(named, "Customer deposits", LIABILITY_Q).label == "correct"


def test_list_gold_is_matched_item_by_item():
    assert gold_items(REGIONS_GOLD) == ["United States", "EMEA", "APAC", "LACC"]
    assert gold_items("Data Center") == []
    full = (
        "American Express operates in the United States; Europe, the Middle East and Africa; "
        "Asia-Pacific; and Latin America, Canada and the Caribbean."
    )
    assert judge_answer(full, REGIONS_GOLD, REGIONS_Q).label == "correct"
    partial = "American Express operates in the United States, the UK, Japan and Mexico."
    assert judge_answer(partial, REGIONS_GOLD, REGIONS_Q).label == "incorrect"
    two_of_three = "The acquired companies mentioned are Trillium, Array and Hospira."
    question = "What are three main companies acquired by Pfizer mentioned in this 10K report?"
    assert judge_answer(two_of_three, "Trillium, Array, and Therachon", question).label == (
        "incorrect"
    )


def test_claim_readers():
    assert asked_kind(DIVIDENDS_Q) == "money"
    assert asked_kind("What is the FY2022 quick ratio for AMCOR?") == "ratio"
    assert asked_kind("Who is the CEO?") is None
    assert asks_rounding(DPO_Q) and not asks_rounding(DIVIDENDS_Q)
    assert len(question_options(CASH_Q)) == 3
    assert question_options(EPS_Q) == []
    assert word_found("inventor", frozenset({"inventory"}))
    assert not word_found("compan", frozenset({"compar"}))


@settings(max_examples=60, deadline=None)
@given(
    st.integers(100, 99_000),
    st.sampled_from(["${:,} million", "${:,.3f} billion", "USD {:,} million"]),
    st.floats(0.05, 0.5),
)
def test_conclusion_property(value, form, off):
    """Concluding with the gold figure, in any scale, is right; concluding with a figure that
    is off by 5% or more, after the gold figure appears in the working, is wrong."""
    question = "What is the FY2021 total amount of inventories? Answer in USD millions."
    shown = value / 1000 if "billion" in form else value
    right = f"Inventories were listed. Therefore, inventories were {form.format(shown)}."
    assert judge_answer(right, value, question).label == "correct"
    other = round(value * (1 + off))
    wrong = (
        f"Inventories were ${value:,} million before adjustments. "
        f"Therefore, inventories were ${other:,} million."
    )
    assert judge_answer(wrong, value, question).label == "incorrect"


@settings(max_examples=60, deadline=None)
@given(st.integers(5, 40), st.integers(1, 9))
def test_change_property(start, step):
    """``from a% to b%`` gold: stating the change b - a in points is stating the claim."""
    end = start + step
    gold = f"The tax rate changed from {start}% in FY2021 to {end}% in FY2022."
    answer = f"The effective tax rate increased by {step}% between FY2021 and FY2022."
    assert judge_answer(answer, gold, ETR_Q).label == "correct"


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 99))
def test_percent_never_states_money_property(pct):
    """Asked for dollars, no percentage stands in for the amount, whatever its digits."""
    gold = pct / 100  # USD billions
    answer = f"About {pct}% of the balance relates to customers."
    assert judge_answer(answer, gold, DIVIDENDS_Q).label == "incorrect"


# ── LM judge: off by default, scripted in tests ─────────────────────────────────────────────


def test_lm_judge_is_off_by_default_and_can_overrule_the_rules():
    answer = "AMCOR is a packaging company."
    gold = "Amcor develops and produces flexible and rigid containers for consumer goods."
    question = "What does AMCOR do?"
    rules = judge_answer(answer, gold, question)
    yes = judge_answer(answer, gold, question, lm_judge=lambda q, a, g: True)
    no = judge_answer(answer, gold, question, lm_judge=lambda q, a, g: False)
    unsure = judge_answer(answer, gold, question, lm_judge=lambda q, a, g: None)
    assert yes.label == "correct" and yes.score >= 0.5
    assert no.label == "incorrect" and no.score < 0.35
    assert unsure == rules
    refusal = "I'm sorry, the context does not include that."
    asked: list[str] = []
    verdict = judge_answer(refusal, gold, question, lm_judge=lambda q, a, g: asked.append(a))
    assert verdict.label == "refusal" and not asked  # refusals stay the rules' call


def test_lm_answer_judge_reads_a_scripted_lm():
    judge = LMAnswerJudge(DummyLM([{"correct": "True"}, {"correct": "False"}]))
    assert judge("Capex in FY2018?", "Capex was $1.58 billion.", "1577") is True
    assert judge("Capex in FY2018?", "Capex was $2 billion.", "1577") is False


# ── the validity benchmark's company split ─────────────────────────────────────────────────


def _rows(companies: list[str]) -> list[dict]:
    return [
        {"financebench_id": f"id_{i}", "doc_name": f"{c}_2022_10K"} for i, c in enumerate(companies)
    ]


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(["3M", "AMD", "Pfizer", "PFIZER", "NIKE", "AMCOR"]), min_size=2))
def test_company_split_property(companies):
    """No company in both parts (whatever the case of its prefix); same rows, same parts."""
    rows = _rows(companies)
    parts = assign_parts(rows, seed=7)
    assert parts == assign_parts(list(rows), seed=7)
    by_company: dict[str, set[str]] = {}
    for row, part in zip(rows, parts, strict=True):
        by_company.setdefault(company_of(row), set()).add(part)
    assert all(len(p) == 1 for p in by_company.values())
    assert set(parts) <= {"tune", "holdout"}


def test_evaluate_reports_by_question_type():
    rows = [
        {"label": "Correct Answer", "model_answer": "Capex was $1,577 million.",
         "gold_answer": 1577, "question": "FY2018 capex?", "question_type": "metrics-generated"},
        {"label": "Refusal", "model_answer": "I'm sorry, I cannot answer that.",
         "gold_answer": "Yes", "question": "Is it?", "question_type": "novel-generated"},
    ]  # fmt: skip
    result = evaluate(rows)
    assert result["accuracy"] == 1.0
    assert set(result["by_question_type"]) == {"metrics-generated", "novel-generated"}
    json.dumps(result)  # the --json output


def test_judge_lm_flag_needs_a_key_and_never_runs_by_default(monkeypatch, capsys):
    from benchmarks.metric_validity import main
    from lm.language_models import MissingAPIKeyError

    fixture = ROOT / "tests" / "fixtures" / "labelled_answers_sample.jsonl"
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(MissingAPIKeyError):
        main(["--labelled", str(fixture), "--judge-lm", "openai/gpt-4.1", "--half", "all"])
    assert main(["--labelled", str(fixture), "--half", "all", "--json"]) == 0
    assert "by_question_type" in json.loads(capsys.readouterr().out)["all"]


def test_lm_answer_judge_without_a_readable_verdict_has_no_opinion():
    judge = LMAnswerJudge(DummyLM([{"reasoning": "no verdict field"}] * 3))
    assert judge("Capex in FY2018?", "Capex was $1.58 billion.", "1577") is None
