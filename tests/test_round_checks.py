"""Code's checks on one round's draft (``programs.round_checks``): what a cited, a
fabricated and a pasted draft become, and the round's record of every check."""

from __future__ import annotations

import pytest

from domain.cells import SliceRef
from programs.round_checks import check_draft
from retrieval.search.tools import EquitySearchTool
from retrieval.store import GridFilter

QUESTION = "What did 3M spend on capital expenditure in FY2022?"
COUNTERS = {
    "fabricated_citations",
    "copied_lines_dropped",
    "attributed_by_code",
    "uncited_numbers_dropped",
    "misquoted_dropped",
    "miscited_uncited",
    "uncited_prose_dropped",
    "tails_trimmed",
    "contradicting_figures_dropped",
    "misattributed_causes_dropped",
    "misdirected_dropped",
    "unsupported_sequential_dropped",
    "miscounted_dropped",
    "later_years_dropped",
}


@pytest.fixture
def tool(searcher) -> EquitySearchTool:
    tool = EquitySearchTool(searcher, lock=GridFilter("MMM", 2022, 4), default_k=2)
    tool.search(QUESTION)
    return tool


def _check(raw: str, tool: EquitySearchTool):
    return check_draft(raw, tool, QUESTION, SliceRef(ticker="MMM", fy=2022, fq=4), None, None)


def test_a_cited_draft_keeps_its_page_and_the_record_counts_every_check(tool):
    checked = _check("3M invested in its manufacturing plants in FY2022 [1].", tool)
    assert checked.pasted is None
    assert checked.record["citations"] == [next(iter(tool.retrieved))]
    assert checked.record.keys() >= COUNTERS
    assert all(checked.record[name] == 0 for name in COUNTERS)
    assert checked.record["draft"].startswith("3M invested")
    assert checked.record["verified_draft"] == checked.verified.answer.to_markdown()


def test_a_hit_number_never_handed_out_is_removed_and_counted(tool):
    checked = _check("3M invested in its manufacturing plants in FY2022 [9].", tool)
    assert checked.record["fabricated_citations"] == 1
    assert checked.record["citations"] == []


def test_a_pasted_evidence_block_is_sent_back_by_code(tool):
    uid = next(iter(tool.retrieved))
    hit = tool.retrieved[uid]
    rows = "\n".join(line for line in hit.text.splitlines()[:6] if line.strip())
    checked = _check(f"[1] MMM 10-K FY2022 p.{hit.page_index + 1}: {rows}", tool)
    assert checked.pasted is not None and not checked.pasted.done
    assert checked.record["copied_lines_dropped"] > 0
