"""The planner benchmark on the sample grid: gold cells from the evidence documents, the
exact / among / failed rates by question type and period form, and its JSON rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.planner import main, period_form

#: Questions over the sample grid's documents (3M FY2018-2022 10-Ks, PepsiCo's FY2023 Q1
#: earnings release), written in several period forms; one names no company.
ROWS = [
    ("q-fy", "What was 3M's capital expenditure in FY2018?", "3M_2018_10K", "metrics-generated"),
    ("q-trend", "Is 3M's operating margin improving as of FY2022?", "3M_2022_10K", "novel"),
    ("q-glued", "As of FY2023Q1, how much did PepsiCo raise guidance?", "PEPSICO_2023Q1_EARNINGS",
     "domain-relevant"),
    ("q-nobody", "What drove the reduction in SG&A in FY2022?", "3M_2022_10K", "novel"),
]  # fmt: skip


@pytest.fixture
def questions(tmp_path) -> Path:
    path = tmp_path / "questions.jsonl"
    path.write_text(
        "".join(
            json.dumps(
                {
                    "financebench_id": qid,
                    "question": question,
                    "answer": "-",
                    "doc_name": doc,
                    "question_type": kind,
                    "evidence": [{"evidence_page_num": 1}],
                }
            )
            + "\n"
            for qid, question, doc, kind in ROWS
        )
    )
    return path


def rows_of(capsys) -> dict[str, dict]:
    return {r["qid"]: r for r in map(json.loads, capsys.readouterr().out.splitlines())}


def test_json_rows_score_each_plan_against_the_evidence_documents_cell(
    questions, sample_store_path, capsys
):
    args = ["--questions", str(questions), "--store", str(sample_store_path), "--json"]
    assert main(args) == 0
    rows = rows_of(capsys)
    assert rows["q-fy"]["exact"] and rows["q-fy"]["planned"] == ["MMM FY2018 Q4"]
    trend = rows["q-trend"]
    assert (
        trend["exact"] and trend["trend"] and trend["planned"] == ["MMM FY2021 Q4", "MMM FY2022 Q4"]
    )
    assert rows["q-glued"]["exact"] and rows["q-glued"]["gold"] == "PEP FY2023 Q1"
    # The question names no company: it is asked of its document, whose company is its context.
    assert rows["q-nobody"]["exact"] and rows["q-nobody"]["planned"] == ["MMM FY2022 Q4"]
    assert main([*args, "--no-company-context"]) == 0
    nobody = rows_of(capsys)["q-nobody"]
    assert not nobody["exact"] and not nobody["among"]
    assert "No company in the question" in nobody["error"]


def test_the_table_reports_rates_by_type_and_form(questions, sample_store_path, capsys):
    assert main(["--questions", str(questions), "--store", str(sample_store_path)]) == 0
    out = capsys.readouterr().out
    assert "| question type | n | exact | among | failed |" in out
    assert "| all | 4 | 1.000 | 1.000 | 0.000 |" in out
    assert "| as-of | 2 |" in out


@pytest.mark.parametrize(
    ("question", "form"),
    [
        ("What was revenue?", "none"),
        ("Revenue in FY2022?", "fy"),
        ("Revenue in 2022?", "year"),
        ("Revenue from FY2019 to FY2021?", "range"),
        ("Revenue in Q22023?", "quarter"),
        ("Revenue in H1 FY2023?", "half-year"),
        ("Debt as of FY2022?", "as-of"),
        ("Revenue over the last three years?", "relative"),
        ("What changed on May 26, 2023?", "date"),
    ],
)
def test_period_forms(question, form):
    assert period_form(question) == form
