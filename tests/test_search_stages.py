"""The stage benchmark times the pipeline search runs, not another one."""

from benchmarks.retrieval import Case
from benchmarks.search_stages import STAGES, stage_times
from retrieval.store import GridFilter


def test_stages_in_sequence_rank_as_the_search_does(searcher):
    questions = [
        ("What was 3M's capital expenditure in FY2018?", GridFilter(ticker="MMM", fy=2018, fq=4)),
        ("How much did 3M spend on capital expenditures in FY2018?", None),  # a scope too
        ("legal proceedings litigation accrued", None),
    ]
    for question, where in questions:
        times, staged, searched = stage_times(searcher, Case("q", "tune", question, where, set()))
        assert staged == searched and staged
        if where is None and "3M" in question:
            assert "bm25 scope" in times
        assert {"prepare", "bm25", "embed", "dense", "pages", "rerank", "search"} <= set(times)
        assert set(times) <= {*STAGES, "search"}
        assert all(ms >= 0 for ms in times.values())
