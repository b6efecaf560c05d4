"""Golden sets: files, fixed splits, every gold fact on its page, every planner row verified."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
from pathlib import Path

import dspy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scripted_lm import ScriptedLM

from evaluation.evalsets import (
    EVALSETS,
    SEED,
    SPLITS,
    STRATIFY,
    assign_group_splits,
    assign_splits,
    evalset_hash,
    evalset_path,
    facts_answer,
    load_examples,
    load_rows,
    row_company,
    splits_for,
    with_splits,
)
from programs.errors import PlanningError
from programs.planner import SlicePlanner
from programs.planning_rules import plan_slices
from retrieval.pages import page_uid
from signatures.planner import Facets

ROOT = Path(__file__).resolve().parents[1]


def _build_script():
    spec = importlib.util.spec_from_file_location(
        "build_evalsets", ROOT / "scripts" / "build_evalsets.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _read(name: str) -> list[dict]:
    return [json.loads(line) for line in evalset_path(name).read_text().splitlines()]


def _label(cell: dict) -> str:
    return f"{cell['ticker']} FY{cell['fy']} Q{cell['fq']}"


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


#: Hand-written planner rows over the bundled sample grid (FinanceBench's need the full grid).
PLANNER = [r for r in _read("planner") if r.get("grid", "sample") == "sample"]
PLANNER_FINANCEBENCH = [r for r in _read("planner") if r.get("grid") == "financebench"]
REPORTS = _read("reports")
# How an ideal LLM maps the brands and former names the company map does not list (names it
# lists resolve without the LLM; anything else is UNKNOWN).
IDEAL_TICKERS = {"Pepsi": "PEP", "Coke": "KO", "Minnesota Mining and Manufacturing": "MMM"}


@pytest.fixture(scope="module")
def cells(sample_store):
    return sample_store.cells()


@pytest.fixture(scope="module")
def build_script():
    return _build_script()


# -- files and splits ------------------------------------------------------------------------


@pytest.mark.parametrize("name", EVALSETS)
def test_files_parse_with_unique_ids_and_three_splits(name):
    rows = _read(name)
    assert len({r["id"] for r in rows}) == len(rows)
    assert all(r["question"].strip() for r in rows)
    assert {r["split"] for r in rows} == set(SPLITS)


def test_sizes():
    assert len(_read("financebench")) >= 100
    assert len(PLANNER) >= 40
    assert len(REPORTS) >= 15


@pytest.mark.parametrize("name", ["financebench", "reports"])
def test_committed_splits_are_the_seeded_assignment(name):
    rows = _read(name)
    assert [r["split"] for r in rows] == splits_for(name, rows, SEED)


def test_planner_splits_are_seeded_and_financebench_rows_share_their_questions_split():
    assert [r["split"] for r in PLANNER] == assign_splits(PLANNER, SEED, STRATIFY["planner"])
    financebench = {r["id"].rsplit("_", 1)[-1]: r for r in _read("financebench")}
    assert len(PLANNER_FINANCEBENCH) == len(financebench)
    for row in PLANNER_FINANCEBENCH:
        source = financebench[row["id"].removeprefix("planner-fb-")]
        assert row["question"] == source["question"] and row["split"] == source["split"]
        assert row["expected_slices"] == source["slices"]  # the evidence documents' cells


def test_financebench_is_split_by_company():
    rows = _read("financebench")
    splits_of: dict[str, set[str]] = {}
    for row in rows:
        splits_of.setdefault(row_company(row), set()).add(row["split"])
    assert all(len(s) == 1 for s in splits_of.values())  # no company in two splits
    for name, share in (("train", 0.5), ("dev", 0.25), ("test", 0.25)):
        assert abs(sum(r["split"] == name for r in rows) / len(rows) - share) < 0.1


@settings(max_examples=25, deadline=None)
@given(
    companies=st.lists(st.sampled_from("ABCDEFGHIJKLMNOP"), min_size=3, max_size=120),
    seed=st.integers(0, 2**32 - 1),
)
def test_group_splits_never_put_a_company_in_two_splits(companies, seed):
    rows = [{"slices": [{"ticker": c}]} for c in companies]
    splits = assign_group_splits(rows, seed)
    assert splits == assign_group_splits(rows, seed)
    seen: dict[str, str] = {}
    for company, split in zip(companies, splits, strict=True):
        assert seen.setdefault(company, split) == split


@pytest.mark.parametrize("name", ["planner", "reports"])
def test_rebuilding_hand_written_sets_is_byte_identical(name, build_script):
    text = build_script.jsonl_text(build_script.evalset_rows(name, source=None))
    assert text == evalset_path(name).read_text(encoding="utf-8")


def test_rebuilding_financebench_from_the_source_is_byte_identical(shared_data, build_script):
    rows = build_script.evalset_rows("financebench", source=shared_data / "questions.jsonl")
    assert build_script.jsonl_text(rows) == evalset_path("financebench").read_text("utf-8")


@settings(max_examples=25, deadline=None)
@given(n=st.integers(min_value=3, max_value=150), seed=st.integers(0, 2**32 - 1))
def test_assign_splits_is_a_deterministic_roughly_half_quarter_quarter_partition(n, seed):
    rows = [{"id": i} for i in range(n)]
    splits = assign_splits(rows, seed)
    assert len(splits) == n and set(splits) == set(SPLITS)
    assert splits == assign_splits(rows, seed)
    for name, share in (("train", 0.5), ("dev", 0.25), ("test", 0.25)):
        assert abs(splits.count(name) - share * n) <= 1


@settings(max_examples=10, deadline=None)
@given(strata=st.lists(st.sampled_from("ab"), min_size=12, max_size=60), seed=st.integers(0, 99))
def test_stratified_splits_keep_each_stratum_in_every_split(strata, seed):
    rows = [{"kind": k} for k in strata]
    if min(strata.count("a"), strata.count("b")) < 8:
        return  # too few of one stratum to put it in all three splits
    splits = assign_splits(rows, seed, stratify_by="kind")
    assert splits == assign_splits(rows, seed, stratify_by="kind")
    for kind in "ab":
        assert {s for s, k in zip(splits, strata, strict=True) if k == kind} == set(SPLITS)


def test_too_few_rows_to_split_is_a_clear_error():
    with pytest.raises(ValueError, match="at least 3 rows"):
        assign_splits([{}, {}])


def test_with_splits_keeps_key_order_and_replaces_a_stale_split():
    rows = with_splits([{"id": 1, "split": "dev", "q": "x"}, {"id": 2}], ["test", "train"])
    assert [list(r) for r in rows] == [["id", "split", "q"], ["id", "split"]]
    assert [r["split"] for r in rows] == ["test", "train"]


# -- FinanceBench ----------------------------------------------------------------------------


def test_financebench_evidence_uids_are_grid_page_uids():
    for row in _read("financebench"):
        assert row["evidence"], row["id"]
        for ev in row["evidence"]:
            assert ev["uid"] == page_uid(ev["doc_name"], ev["page_index"])
        assert row["evidence_uids"] == [ev["uid"] for ev in row["evidence"]]
        assert row["answer"].strip() and row["slices"]


def test_financebench_evidence_in_the_sample_grid_resolves_to_its_page_and_slice(sample_store):
    checked = 0
    for row in _read("financebench"):
        for ev in row["evidence"]:
            pages = sample_store.pages_by_uid([ev["uid"]])
            if not pages:
                continue  # document not in the sample
            page = pages[0]
            assert (page.doc_name, page.page_index) == (ev["doc_name"], ev["page_index"])
            assert {"ticker": page.ticker, "fy": page.fy, "fq": page.fq} in row["slices"]
            checked += 1
    assert checked >= 5


# -- reports ---------------------------------------------------------------------------------


@pytest.mark.parametrize("row", REPORTS, ids=[r["id"] for r in REPORTS])
def test_report_facts_are_quoted_from_their_pages(row, sample_store):
    assert row["kind"] in ("cross-sectional", "inter-temporal")
    assert 2 <= len(row["facts"]) <= 6
    for fact in row["facts"]:
        assert fact["uid"] == page_uid(fact["doc_name"], fact["page_index"])
        assert fact["value"] in fact["quote"]
        (page,) = sample_store.pages_by_uid([fact["uid"]])
        assert _norm(fact["quote"]) in _norm(page.text), fact["fact"]
        assert {"ticker": page.ticker, "fy": page.fy, "fq": page.fq} in row["slices"]


@pytest.mark.parametrize("row", REPORTS, ids=[r["id"] for r in REPORTS])
def test_report_slices_are_what_the_planner_plans(row, cells):
    with dspy.context(lm=ScriptedLM(facets={"fiscal_years": []})):
        plan = SlicePlanner(cells)(question=row["question"])
    assert sorted(plan.labels) == sorted(_label(s) for s in row["slices"])


# -- planner ---------------------------------------------------------------------------------


def test_planner_rows_cover_every_rule():
    rules = {r["rule"] for r in PLANNER}
    for rule in [
        "no-year", "no-quarter", "deep", "deep-no-year", "brand", "ticker", "company-name",
        "several-companies", "year-range", "last-n-years", "quarter", "quarter-no-year",
        "unknown-company", "unknown-company-only", "year-not-held", "year-range-partly-held",
    ]:  # fmt: skip
        assert rule in rules
    assert any(r["expected_unknown"] for r in PLANNER)
    assert any(r["expected_missing"] for r in PLANNER)


@pytest.mark.parametrize("row", PLANNER, ids=[r["id"] for r in PLANNER])
def test_planner_oracle_facets_give_the_expected_slices(row, cells):
    plan = plan_slices(Facets(**row["facets"]), cells)
    assert [s.label for s in plan.slices] == [_label(s) for s in row["expected_slices"]]
    assert plan.missing == row["expected_missing"]
    for line in row.get("expected_scope", []):  # a neighbour researched instead, and said so
        assert any(line in s for s in plan.scope), (line, plan.scope)


@pytest.mark.parametrize("row", PLANNER, ids=[r["id"] for r in PLANNER])
def test_planner_with_an_ideal_llm_plans_the_expected_slices(row, cells):
    """The whole deterministic path (pre-pass, merge, name mapping, rules), the LLM scripted
    to answer as an ideal one would; a row that expects no slice expects a refusal."""
    lm = ScriptedLM(facets=row["facets"], tickers_for=IDEAL_TICKERS)
    expected = [_label(s) for s in row["expected_slices"]]
    with dspy.context(lm=lm):
        if not expected:
            with pytest.raises(PlanningError) as err:
                SlicePlanner(cells)(question=row["question"])
            for text in row["expected_unknown"] + row["expected_missing"]:
                assert text in err.value.message
            return
        plan = SlicePlanner(cells)(question=row["question"])
    assert sorted(plan.labels) == sorted(expected)
    assert plan.missing == row["expected_missing"]
    assert len(plan.unknown) == len(row["expected_unknown"])
    for name in row["expected_unknown"]:
        assert any(name in message for message in plan.unknown), (name, plan.unknown)


# -- the loader ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", EVALSETS)
def test_load_rows_round_trips_the_file(name):
    assert load_rows(name) == _read(name)


def test_load_rows_filters_by_split_and_limit_and_returns_copies():
    dev = load_rows("planner", "dev")
    assert dev and {r["split"] for r in dev} == {"dev"}
    assert load_rows("planner", "dev", limit=3) == dev[:3]
    dev[0]["question"] = "changed"
    assert load_rows("planner", "dev")[0]["question"] != "changed"


@pytest.mark.parametrize("name", EVALSETS)
def test_load_examples_have_the_question_and_a_financebench_documents_company(name):
    """The question is the input; a FinanceBench question, asked of one filing, also has
    its document's company (used only when the question names none)."""
    examples = load_examples(name, "test")
    assert examples
    for example in examples:
        assert isinstance(example, dspy.Example)
        if example.get("grid") == "financebench" or name == "financebench":
            cells = example.get("slices") or example.get("expected_slices")
            assert example.inputs().toDict() == {
                "question": example.question,
                "company": cells[0]["ticker"],
            }
        else:
            assert set(example.inputs().keys()) == {"question"}


def test_load_examples_carry_a_gold_answer():
    fb = load_examples("financebench", limit=1)[0]
    assert fb.answer == _read("financebench")[0]["answer"]
    report = load_examples("reports", limit=1)[0]
    assert report.answer == facts_answer(REPORTS[0]["facts"])
    assert all(f["value"] in report.answer for f in REPORTS[0]["facts"])


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: load_rows("golden"), "financebench, planner, reports"),
        (lambda: load_examples("nope"), "financebench, planner, reports"),
        (lambda: evalset_path("x"), "financebench, planner, reports"),
        (lambda: load_rows("planner", split="validation"), "train, dev, test"),
    ],
)
def test_unknown_names_and_splits_are_clear_errors(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_evalset_hash_is_the_file_digest():
    digest = hashlib.sha256(evalset_path("reports").read_bytes()).hexdigest()[:12]
    assert evalset_hash("reports") == digest
