"""The answer benchmark end to end on the sample grid, with the scripted LM: the three methods
run and are scored, the table has its columns, a second run resumes without an LM call,
and the baseline's citations are verified (a made-up uid is removed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from scripted_lm import FABRICATED_HIT, ScriptedLM, first_number

import lm.language_models as language_models
from benchmarks.answer_cases import load_answer_cases, select_cases
from benchmarks.answers import COLUMNS, RESULTS, main, summarise
from citations import parse_cited_answer
from evaluation.evalsets import evalset_path

# In the sample grid: a capex metric question (3M FY2018), a margin metric question
# (PepsiCo FY2022) and a narrative one (3M FY2022); and one whose document is not there.
QIDS = ("financebench_id_03029", "financebench_id_04481", "financebench_id_01226")
ABSENT = "financebench_id_00005"
_PASSAGE_RE = re.compile(r"^\[(?P<n>\d+)\] (?P<label>.+?) p\.(?P<page>\d+): ", re.MULTILINE)


class BaselineScriptedLM(ScriptedLM):
    """The scripted LM, also answering the baseline's signature: it cites the first passage's
    first figure, and adds a citation to a page it was never shown."""

    def _unknown(self, inputs):
        passages = inputs.get("passages")
        if passages is None:
            return None
        hit = _PASSAGE_RE.search(passages)
        if hit is None:
            return {"cited_answer": "The passages do not give the figure."}
        text = passages[hit.end() :]
        mark = f"[{hit['n']}]"
        markdown = (
            f"The filing reports {first_number(text) or 'the figure'} {mark}. "
            f"Management also guided to growth [{FABRICATED_HIT}]."
        )
        return {"cited_answer": markdown}


@pytest.fixture
def scripted(monkeypatch):
    lm = BaselineScriptedLM()
    monkeypatch.setattr(language_models, "build_lm", lambda spec=None: lm)
    monkeypatch.setattr(language_models, "check_lm_reachable", lambda spec=None, timeout=5: None)
    return lm


@pytest.fixture
def questions(tmp_path) -> Path:
    rows = {}
    for line in evalset_path("financebench").read_text().splitlines():
        row = json.loads(line)
        rows[row["id"]] = row
    path = tmp_path / "questions.jsonl"
    path.write_text("".join(json.dumps(rows[q]) + "\n" for q in (*QIDS, ABSENT)))
    return path


def _run(questions, store, out, capsys, *extra):
    main(
        [
            "--questions", str(questions), "--store", str(store), "--out", str(out),
            "--max-probes", "1", "--max-rounds", "1", *extra,
        ]
    )  # fmt: skip
    return capsys.readouterr().out


def test_three_methods_scored_table_and_resume(
    scripted, questions, sample_store_path, wissen_home, tmp_path, capsys
):
    out = tmp_path / "run"
    first = _run(questions, sample_store_path, out, capsys)
    header = next(line for line in first.splitlines() if line.startswith("| method"))
    assert [c.strip() for c in header.strip("|").split("|")] == list(COLUMNS)
    assert "3 questions (1 of the file's questions skipped: document not in the store)" in first

    rows = [json.loads(line) for line in (out / RESULTS).read_text().splitlines()]
    by_method = {m: [r for r in rows if r["method"] == m] for m in ("program", "baseline", "facts")}
    assert len(by_method["program"]) == len(by_method["baseline"]) == 3
    assert {r["qid"] for r in by_method["facts"]} == set(QIDS[:2])  # metric questions only
    for row in rows:
        assert row["label"] in ("correct", "incorrect", "refusal")
        assert 0.0 <= row["citation_coverage"] <= 1.0 and 0.0 <= row["numeric_grounding"] <= 1.0
    assert all(r["lm_calls"] > 0 and r["tokens"] > 0 for r in by_method["program"])
    assert all(r["lm_calls"] == 1 for r in by_method["baseline"])
    assert all(r["lm_calls"] == 0 for r in by_method["facts"])
    # The program is told each question's document's company (used if it names none).
    assert [r["company_context"] for r in by_method["program"]] == ["MMM", "PEP", "MMM"]

    # The baseline's made-up citation is gone; the real one stays and resolves.
    for row in by_method["baseline"]:
        assert row["fabricated_citations"] == 1
        assert f"[{FABRICATED_HIT}]" not in row["answer"]
        answer = parse_cited_answer(row["answer"])
        assert len(answer.references.footnotes) == 1
        assert "guided to growth." in answer.body  # the sentence stays, uncited
    # Facts + calculator: 3M's FY2018 capex is the figure the filing prints, cited.
    capex = next(r for r in by_method["facts"] if r["qid"] == QIDS[0])
    assert capex["label"] == "correct", capex
    assert capex["numeric_grounding"] == 1.0 and capex["citation_coverage"] > 0.5

    calls = scripted.total_calls
    with (out / RESULTS).open("a") as log:
        log.write('{"model": "half-written')  # what a killed run leaves behind
    second = _run(questions, sample_store_path, out, capsys)
    assert scripted.total_calls == calls  # nothing asked again
    assert second == first


def test_splits_select_from_either_split_family(sample_store):
    path = evalset_path("financebench")
    cases, skipped = load_answer_cases(path, sample_store)
    assert cases and skipped == 102 - len(cases)
    assert {c.split for c in cases} <= {"train", "dev", "test"}
    dev = select_cases(cases, "dev", None)
    assert dev and all(c.split == "dev" for c in dev)
    tune, holdout = select_cases(cases, "tune", None), select_cases(cases, "holdout", None)
    assert len(tune) + len(holdout) == len(cases)
    assert len(select_cases(cases, None, 2)) == 2
    with pytest.raises(ValueError, match="unknown split"):
        select_cases(cases, "validation", None)


def test_bad_input_is_one_line(tmp_path, sample_store_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": "no answer here"}\n')
    store = ["--store", str(sample_store_path), "--methods", "facts", "--out", str(tmp_path / "o")]
    with pytest.raises(SystemExit, match=r"bad.jsonl:1: not a FinanceBench question row"):
        main(["--questions", str(bad), *store])
    with pytest.raises(SystemExit, match="no questions file"):
        main(["--questions", str(tmp_path / "missing.jsonl"), "--out", str(tmp_path / "o")])


def test_result_log_survives_a_half_written_line(tmp_path):
    from benchmarks.answers import ResultLog

    path = tmp_path / RESULTS
    path.write_text('{"model": "m", "method": "facts", "qid": "a"}\n{"model": "m", "meth')
    log = ResultLog(path)
    assert log.done("m", "facts", "a") and not log.done("m", "facts", "b")
    log.add({"model": "m", "method": "facts", "qid": "b"})
    assert ResultLog(path).done("m", "facts", "b")


def test_refusals_on_answerable_questions_are_counted_apart():
    """A refusal after a gold page reached the agents is a misreading; one where the planner
    or the search missed the page is not, and the separate rate says which is which."""

    def row(label, stage):
        return {
            "label": label, "stage": stage, "seconds": 1.0, "lm_calls": 1, "tokens": 1,
            "citation_coverage": 1.0, "numeric_grounding": 1.0,
        }  # fmt: skip

    rows = [
        row("correct", None),
        row("refusal", "reading"),
        row("refusal", "retrieval"),
        row("refusal", "planner"),
        row("incorrect", "reading"),
    ]
    summary = summarise("program", rows)
    assert summary["refusal"] == 0.6
    assert summary["refused, page seen"] == 0.2
    assert summary["wrong"] == 0.2
