"""The answer benchmark's error attribution: each wrong or refused answer gets the first
stage of the pipeline that failed, read from what the run recorded."""

from __future__ import annotations

from benchmarks.attribution import Trace, attribute, attribution_table

GOLD = "Capital expenditure was $1,749 million."
CELL = "MMM FY2022 Q4"
PAGE = "aaaaaaaaaaaa"


def _trace(planned=(CELL,), seen=(PAGE,), drafts=()):
    return Trace(planned=list(planned), seen_uids=set(seen), drafts=list(drafts))


def test_each_stage_in_pipeline_order():
    wrong = "Capital expenditure was $1,600 million¹."
    assert attribute("correct", GOLD, GOLD, CELL, [PAGE], _trace()) is None
    other_year = _trace(planned=["MMM FY2021 Q4"])
    assert attribute("incorrect", wrong, GOLD, CELL, [PAGE], other_year) == "planner"
    assert attribute("incorrect", wrong, GOLD, CELL, [PAGE], _trace(seen=())) == "retrieval"
    drafted = _trace(drafts=["Capex was $1,749 million [1]."])
    assert attribute("refusal", "", GOLD, CELL, [PAGE], drafted) == "citation"  # dropped
    assert attribute("incorrect", wrong, GOLD, CELL, [PAGE], drafted) == "citation"
    assert attribute("incorrect", "Yes: $1,749 million¹.", GOLD, CELL, [PAGE], _trace()) == (
        "judgement"
    )
    assert attribute("incorrect", wrong, GOLD, CELL, [PAGE], _trace()) == "reading"
    unplanned = Trace(planned=None, seen_uids={PAGE})  # a method that does not plan
    assert attribute("incorrect", wrong, GOLD, CELL, [PAGE], unplanned) == "reading"


def test_a_run_record_gives_the_plan_the_pages_and_the_drafts():
    record = {
        "plan": {"slices": [{"ticker": "MMM", "fy": 2022, "fq": 4}]},
        "pages": {"bbbbbbbbbbbb": {}},
        "slices": [{"probes": [{"rounds": [{"searches": [{"uids": [PAGE]}], "draft": "d1"}]}]}],
    }
    trace = Trace.from_record(record)
    assert trace.planned == [CELL]
    assert trace.seen_uids == {PAGE, "bbbbbbbbbbbb"} and trace.drafts == ["d1"]


def test_the_table_counts_stages_per_method_and_type():
    rows = [
        {"method": "program", "question_type": "novel", "label": "incorrect", "stage": "planner"},
        {"method": "program", "question_type": "novel", "label": "correct", "stage": None},
    ]
    table = attribution_table(rows)
    assert "| program | novel | 2 | 1 | 1 | 0 | 0 | 0 | 0 |" in table
    assert "| program | all | 2 | 1 | 1 | 0 | 0 | 0 | 0 |" in table
