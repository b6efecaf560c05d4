"""The pick step: which first-search passage the answer step reads first, once compiled."""

from __future__ import annotations

import dspy
from hypothesis import given
from hypothesis import strategies as st
from scripted_lm import ScriptedLM

from evaluation.pick_demos import _alternating, pick_demo
from programs.passage_pick import hit_number, put_first
from programs.researcher import Researcher
from retrieval.search.tools import EquitySearchTool
from retrieval.store import GridFilter

PROBE = {
    "question": "What drove 3M's operating margin in FY2018?",
    "slice_label": "MMM FY2018 Q4",
    "probe_title": "Operating margin",
    "probe_question": "What drove 3M's operating margin in FY2018?",
    "previous_draft": "",
    "reviewer_feedback": "",
}


class _Tool:
    """The part of ``EquitySearchTool`` that ``put_first`` uses: hit numbers by uid."""

    def __init__(self, uids: list[str]) -> None:
        self.numbers = {uid: n for n, uid in enumerate(uids, 1)}

    def mark(self, uid: str) -> str:
        return f"[{self.numbers[uid]}]"


@given(st.integers(min_value=2, max_value=6), st.integers(min_value=-1, max_value=8))
def test_the_chosen_hit_is_shown_first_and_the_search_keeps_its_hit_numbers(k, chosen):
    uids = [f"u{n}" for n in range(k)]
    tool = _Tool(["earlier", *uids])  # a page numbered before this search (a figure's)
    hits = [{"uid": uid, "cite": tool.mark(uid), "text": uid} for uid in uids]
    before = dict(tool.numbers)
    shown = put_first(hits, tool, chosen)
    assert tool.numbers["earlier"] == 1
    assert all(hit["cite"] == tool.mark(hit["uid"]) for hit in shown)
    assert [hit["cite"] for hit in shown] == [hit["cite"] for hit in hits]  # still [2], [3]…
    picked = next((h["uid"] for h in hits if hit_number(h["cite"]) == chosen), None)
    if picked is None or picked == uids[0]:
        assert shown == hits and tool.numbers == before
    else:
        assert [h["uid"] for h in shown] == [picked, *(u for u in uids if u != picked)]


def test_hit_numbers_are_read_only_from_marks():
    assert [hit_number(m) for m in ("[3]", " [12] ", "3", "[x]", "")] == [3, 12, None, None, None]


def _research(searcher, researcher: Researcher) -> tuple[ScriptedLM, dspy.Prediction]:
    lm = ScriptedLM()
    tool = EquitySearchTool(searcher, lock=GridFilter("MMM", 2018, 4), default_k=3)
    with dspy.context(lm=lm, adapter=dspy.ChatAdapter()):
        return lm, researcher(tool=tool, **PROBE)


def test_without_demos_the_pick_step_is_not_called_and_the_search_order_stands(searcher):
    lm, pred = _research(searcher, Researcher(k=3))
    assert lm.calls == {"researcher.extract": 1}
    hits = pred.trajectory["observation_0"]
    assert [hit["cite"] for hit in hits] == ["[1]", "[2]", "[3]"]


def test_once_compiled_the_chosen_passage_is_read_first_behind_hit_number_one(searcher):
    shipped = _research(searcher, Researcher(k=3))[1].trajectory["observation_0"]
    researcher = Researcher(k=3)
    researcher.pick.demos = [
        dspy.Example(question="q", evidence="[1] A p.1: x\n\n[2] A p.2: y", answering_passage=2)
    ]
    lm, pred = _research(searcher, researcher)
    assert lm.calls == {"researcher.pick": 1, "researcher.extract": 1}
    hits = pred.trajectory["observation_0"]
    assert [hit["uid"] for hit in hits] == [shipped[2]["uid"], shipped[0]["uid"], shipped[1]["uid"]]
    assert [hit["cite"] for hit in hits] == ["[1]", "[2]", "[3]"]
    answer_prompt = lm.history[-1]["messages"][-1]["content"]
    assert answer_prompt.index(f"[1] {hits[0]['doc_label']} p.{hits[0]['page']}:") < (
        answer_prompt.index(f"[3] {hits[2]['doc_label']} p.{hits[2]['page']}:")
    )


class _Page:
    def __init__(self, label: str, index: int, ticker: str = "ACME") -> None:
        self.doc_label, self.page_index, self.ticker = label, index, ticker


def test_a_demo_answers_with_the_first_block_on_a_gold_page():
    evidence = "[1] ACME 10-K FY2031 p.4: a\n\n[2] ACME 10-K FY2031 p.9: b\n\n= 5% (x) [1]"
    inputs = {"question": "Q?", "probe_question": "Probe?", "evidence": evidence}
    demo = pick_demo(inputs, [_Page("ACME 10-K FY2031", 8)])
    assert demo == {"question": "Probe?", "evidence": evidence, "answering_passage": 2}
    assert pick_demo(inputs, [_Page("ACME 10-K FY2031", 20)]) is None


def test_demos_alternate_past_the_first_hit_and_keeping_it_one_per_company():
    def candidate(ticker: str, number: int) -> tuple[str, dict]:
        return ticker, {"answering_passage": number, "_id": f"{ticker}{number}"}

    pool = [candidate("A", 1), candidate("B", 3), candidate("B", 1), candidate("C", 2)]
    chosen = _alternating(pool, 3)
    assert [d["_id"] for d in chosen] == ["B3", "A1", "C2"]


def test_pick_demos_come_from_traced_runs_one_per_company_and_resume_from_the_ledger(tmp_path):
    from evaluation.pick_demos import PICK_STEP, pick_demos
    from tests.test_traced_demos import TracedProgram, two_companies_train

    evidence, train, searcher = two_companies_train()
    ledger = tmp_path / "traced.jsonl"
    program = TracedProgram(evidence)

    pool, sources = pick_demos(program, train, searcher, ledger, max_demos=3, seed=7)

    assert sorted(program.runs) == ["a1", "a2", "b1"]
    demos = pool[PICK_STEP]
    assert [d["answering_passage"] for d in demos] == [2, 1] and sources[1] == "b1"
    assert demos[0]["evidence"] == evidence[sources[0]]  # the evidence exactly as read
    again = TracedProgram(evidence)
    assert pick_demos(again, train, searcher, ledger, max_demos=3, seed=7) == (pool, sources)
    assert again.runs == []


def test_the_pick_optimiser_needs_the_pick_step_in_the_target(
    wissen_home, sample_store_path, tmp_path
):
    from typer.testing import CliRunner

    from cli.app import app

    result = CliRunner().invoke(
        app,
        ["optimise", "--optimiser", "pick", "--set", "planner", "--target", "planner",
         "--out-dir", str(tmp_path), "--store", str(sample_store_path), "--no-track"],
    )  # fmt: skip
    assert result.exit_code != 0
    assert "researcher.pick" in result.output and "Traceback" not in result.output
