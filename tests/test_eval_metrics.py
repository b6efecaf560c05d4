"""Slice match and fact recall (plain code, property-tested) and moving compiled state."""

from __future__ import annotations

import json

import dspy
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evaluation.program_state import (
    copy_state,
    freeze_except,
    instructions_markdown,
    load_program,
    save_program,
    thaw,
)
from evaluation.tasks import PlannerProgram
from metrics import score_facts, score_slices
from metrics.slice_match import slice_feedback_metric
from programs.planner import SlicePlanner
from programs.reviewer import Reviewer
from retrieval.ingest.sample import sample_cells

cells = st.tuples(st.sampled_from(["MMM", "PEP", "KO"]), st.integers(2018, 2023), st.integers(1, 4))
cell_sets = st.lists(cells, max_size=6, unique=True)


def _dicts(cs):
    return [{"ticker": t, "fy": y, "fq": q} for t, y, q in cs]


@given(cell_sets, cell_sets)
def test_slice_f1_is_symmetric_bounded_and_one_only_when_equal(a, b):
    ab = score_slices(_dicts(a), _dicts(b))
    assert ab.f1 == pytest.approx(score_slices(_dicts(b), _dicts(a)).f1)
    assert 0 <= ab.f1 <= 1
    assert (ab.f1 == 1) == (set(a) == set(b)) == (ab.exact == 1)


@given(cell_sets, cells)
def test_an_extra_slice_never_raises_the_score(a, extra):
    exact = score_slices(_dicts(a), _dicts(a)).f1
    padded = score_slices(_dicts(a), _dicts([*a, extra])).f1
    assert padded <= exact


def test_unknown_companies_must_be_reported():
    expected = _dicts([("MMM", 2020, 4)])
    silent = score_slices(expected, expected, ["Apple"], [])
    told = score_slices(expected, expected, ["Apple"], ["Apple (AAPL) is not in the grid"])
    assert silent.score == 0.5 and told.score == 1.0
    gold = dspy.Example(expected_slices=expected, expected_unknown=["Apple"])
    plan = dspy.Prediction(plan=None)
    assert "Missing slices: MMM FY2020 Q4" in slice_feedback_metric(gold, plan).feedback


REPORT = (
    "3M's capital expenditure was $1.7 billion in FY2022.¹ Revenue was $34,229 million.²\n\n"
    "**Sources**\n"
    "¹ MMM 10-K FY2022 p.50 (page_id: 7, uid: aaaaaaaaaaaa)\n"
    "² MMM 10-K FY2022 p.48 (page_id: 5, uid: bbbbbbbbbbbb)\n"
)


def test_fact_recall_reads_scale_rounding_and_the_cited_page():
    facts = [
        {"fact": "capex", "value": "1,749", "uid": "aaaaaaaaaaaa"},
        {"fact": "revenue", "value": "34,229", "uid": "cccccccccccc"},
        {"fact": "net income", "value": "5,777", "uid": "aaaaaaaaaaaa"},
    ]
    result = score_facts(REPORT, facts)
    assert (result.stated, result.cited) == (2, 1)
    assert result.missing == ["net income"] and result.uncited == ["revenue"]
    assert score_facts(REPORT, []).recall == 1.0


@given(st.integers(1, 10**6))
def test_a_fact_is_stated_exactly_when_its_number_is(value):
    source = "¹ X p.1 (page_id: 1, uid: aaaaaaaaaaaa)"
    report = f"The figure was ${value:,} million.¹\n\n**Sources**\n{source}\n"
    fact = {"fact": "f", "value": f"{value:,}", "uid": "aaaaaaaaaaaa"}
    assert score_facts(report, [fact]).cited == 1
    other = {"fact": "g", "value": f"{value * 3 + 7:,}", "uid": "aaaaaaaaaaaa"}
    assert score_facts(report, [other]).stated == 0


class _Two(dspy.Module):
    def __init__(self):
        super().__init__()
        self.planner = SlicePlanner(sample_cells())
        self.reviewer = Reviewer()


def test_freezing_hides_other_agents_and_state_moves_by_name(tmp_path):
    program = _Two()
    assert freeze_except(program, "planner") == [
        "planner.extract_facets",
        "planner.equity_to_ticker",
    ]
    thaw(program)
    assert len(program.named_predictors()) == 3
    program.planner.extract_facets.signature = (
        program.planner.extract_facets.signature.with_instructions("Read carefully.")
    )
    planner_only = PlannerProgram(SlicePlanner(sample_cells()))
    assert copy_state(program, planner_only) == [
        "planner.extract_facets",
        "planner.equity_to_ticker",
    ]
    assert planner_only.planner.extract_facets.signature.instructions == "Read carefully."
    assert "Read carefully." in instructions_markdown(planner_only)["planner.extract_facets"]
    save_program(program, tmp_path / "p" / "program.json")
    assert not [p for p in (tmp_path / "p").iterdir() if p.name.startswith(".")]
    assert load_program(_Two(), tmp_path / "p").planner.extract_facets.signature.instructions == (
        "Read carefully."
    )
    # a predictor the file lacks keeps its shipped state; one the program lacks fails by name
    loaded = load_program(_Two(), _saved(tmp_path, planner_only))
    assert loaded.planner.extract_facets.signature.instructions == "Read carefully."
    assert loaded.reviewer.review.signature.instructions == Reviewer().review.signature.instructions
    with pytest.raises(ValueError, match=r"unknown predictors: reviewer\.review"):
        load_program(PlannerProgram(SlicePlanner(sample_cells())), tmp_path / "p")


def _saved(tmp_path, program):
    path = tmp_path / "planner_only.json"
    program.save(str(path))
    assert "planner.extract_facets" in json.loads(path.read_text())
    return path
