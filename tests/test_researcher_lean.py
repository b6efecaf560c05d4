"""The researcher's prompt stays small: passages, a read-page tool, earlier results compacted.

A small local model pays for every token of every ReAct step, and each step resends the
whole trajectory. These tests drive the real ``Researcher`` over the sample grid with a
scripted LM and read the prompts it was sent.
"""

from __future__ import annotations

import re

import dspy
import pytest
from scripted_lm import ScriptedLM

from programs.observations import (
    COMPACT_CHARS,
    evidence_view,
    render_observation,
    trajectory_view,
)
from programs.researcher import READ_TOOL_NAME, Researcher
from retrieval.search.tools import EquitySearchTool
from retrieval.store import GridFilter

MARKS = {"0a1b2c3d4e5f": "[3]", "1b2c3d4e5f60": "[4]"}.get


def test_a_hit_is_shown_behind_its_hit_number_and_compacted_later():
    hits = [
        {"uid": "0a1b2c3d4e5f", "page_id": 7, "doc_label": "CTSO 10-K FY2031", "page": 48,
         "score": 0.9, "text": "Capital expenditures | (4,817.3) | (4,102.0)\n" * 20},
    ]  # fmt: skip
    whole = render_observation(hits, MARKS)
    assert whole.startswith("[3] CTSO 10-K FY2031 p.48: Capital expenditures | (4,817.3)")
    assert "0a1b2c3d4e5f" not in whole and "0.9" not in whole  # no uid to garble, no score
    short = render_observation(hits, MARKS, whole=False)
    assert short.startswith("[3] CTSO 10-K FY2031 p.48: ") and short.endswith("…")
    assert len(short) <= len("[3] CTSO 10-K FY2031 p.48: ") + COMPACT_CHARS
    assert hits[0]["text"].startswith("Capital expenditures") and "score" in hits[0]  # a copy


def test_facts_and_calculations_are_shown_with_the_hit_numbers_of_their_pages():
    facts = [{"concept": "capex", "label": "Capital expenditures", "period": "FY2031",
              "value": -4817.3e6, "unit": "USD", "printed": "-4,817.3 million USD",
              "uid": "0a1b2c3d4e5f", "doc_label": "CTSO 10-K FY2031", "page": 48}]  # fmt: skip
    shown = render_observation(facts, MARKS)
    assert shown.startswith("[3] capex FY2031: -4,817.3 million USD")
    assert "CTSO 10-K FY2031 p.48" in shown and "0a1b2c3d4e5f" not in shown
    calculation = {"value": "12.5%", "formula": "Capex¹ ÷ Revenue²", "inputs": ["…"],
                   "cite_uids": ["0a1b2c3d4e5f", "1b2c3d4e5f60"]}  # fmt: skip
    assert render_observation(calculation, MARKS) == "= 12.5% (Capex ÷ Revenue) [3][4]"
    assert render_observation("Search budget spent", MARKS) == "Search budget spent"


def test_trajectory_view_compacts_all_but_the_latest_observations():
    long = [{"uid": "0a1b2c3d4e5f", "doc_label": "CTSO 10-K FY2031", "page": 48,
             "text": "x" * 400}]  # fmt: skip
    trajectory = {}
    for step in range(3):
        trajectory |= {
            f"thought_{step}": "t",
            f"tool_name_{step}": "wissen_equity_search",
            f"tool_args_{step}": {"query": "q"},
            f"observation_{step}": long,
        }
    view = trajectory_view(trajectory, MARKS, keep_whole=1)
    assert ["x" * 400 in view[f"observation_{s}"] for s in range(3)] == [False, False, True]
    assert all(view[f"observation_{s}"].startswith("[3] CTSO") for s in range(3))
    assert trajectory["observation_0"][0]["text"] == "x" * 400  # the trajectory itself is whole
    assert all("x" * 400 in v for k, v in trajectory_view(trajectory, MARKS, 3).items()
               if k.startswith("observation_"))  # fmt: skip


def test_the_answer_step_reads_each_find_once_whole_and_no_tool_calls():
    passage = {"uid": "0a1b2c3d4e5f", "doc_label": "CTSO 10-K FY2031", "page": 48,
               "text": "Capital expenditures | (4,817.3)"}  # fmt: skip
    other = {"uid": "1b2c3d4e5f60", "doc_label": "CTSO 10-K FY2031", "page": 61, "text": "Leases"}
    page = {**passage, "text": "Cash flows\nCapital expenditures | (4,817.3) | (4,102.0)"}
    fact = {"concept": "capex", "label": "Capital expenditures", "period": "FY2031",
            "printed": "-4,817.3 million USD", "uid": "0a1b2c3d4e5f",
            "doc_label": "CTSO 10-K FY2031", "page": 48}  # fmt: skip
    trajectory = {
        "thought_0": "Search first.", "tool_name_0": "wissen_equity_search",
        "tool_args_0": {"query": "capex"}, "observation_0": [passage, other],
        "thought_1": "Read it.", "tool_name_1": "wissen_read_page",
        "tool_args_1": {"hit": 3}, "observation_1": page,
        "thought_2": "Facts.", "tool_name_2": "wissen_statement_facts",
        "tool_args_2": {"concept_or_label": "capex"}, "observation_2": [fact],
        "thought_3": "Again.", "tool_name_3": "wissen_equity_search",
        "tool_args_3": {"query": "capex"}, "observation_3": [passage],
        "thought_4": "Oops.", "tool_name_4": "wissen_calculate",
        "tool_args_4": {}, "observation_4": "Execution error in wissen_calculate: formula",
    }  # fmt: skip
    evidence = evidence_view(trajectory, MARKS)
    blocks = evidence.split("\n\n")
    assert blocks[0] == "[3] CTSO 10-K FY2031 p.48: " + page["text"]  # the whole page read
    assert blocks[1] == "[4] CTSO 10-K FY2031 p.61: Leases"
    assert blocks[2].startswith("[3] capex FY2031: -4,817.3 million USD") and len(blocks) == 3
    assert not any(w in evidence for w in ("Search first", "wissen_", "query", "Execution"))
    capped = evidence_view(trajectory, MARKS, max_chars=60)
    assert capped.endswith("(2 more results not shown)") and capped.startswith("[3] CTSO")


class _ReadingLM(ScriptedLM):
    """After the researcher's own first search: reads a page outside the slice, searches
    again, then finishes."""

    def __init__(self, outside_uid: str) -> None:
        super().__init__()
        self.outside_uid = outside_uid

    def _researcher_react(self, inputs):
        steps = len(re.findall(r"\[\[ ## tool_name_\d+ ## \]\]", inputs.get("trajectory", "")))
        script = [
            (None, None),  # the first search is the researcher's own, for the probe question
            (READ_TOOL_NAME, {"hit": self.outside_uid}),
            ("wissen_equity_search", {"query": "dividends paid to shareholders"}),
        ]
        name, args = script[steps] if steps < len(script) else ("finish", {})
        return {"next_thought": "Next step.", "next_tool_name": name, "next_tool_args": args}


@pytest.fixture
def outside_page(sample_store):
    pages = sample_store.pages_by_id(range(1, 2000))
    return next(p for p in pages if p.ticker != "MMM")


def test_the_researcher_reads_pages_only_inside_its_slice_and_sends_compact_history(
    searcher, outside_page
):
    lm = _ReadingLM(outside_page.uid)
    tool = EquitySearchTool(searcher, lock=GridFilter("MMM", 2018, 4))
    researcher = Researcher(max_searches=4, k=3, answer_first=False)
    assert READ_TOOL_NAME in researcher.tools
    with dspy.context(lm=lm, adapter=dspy.ChatAdapter()):
        pred = researcher(
            tool=tool,
            question="What was 3M's capex in FY2018?",
            slice_label="MMM FY2018 Q4",
            probe_title="Capex",
            probe_question="What was 3M's capital expenditure in FY2018?",
            previous_draft="",
            reviewer_feedback="",
        )
    refusal = pred.trajectory["observation_1"]
    assert isinstance(refusal, str) and "outside the slice" in refusal
    assert outside_page.uid not in tool.retrieved and outside_page.text[:40] not in str(pred)
    prompts = [entry["messages"][-1]["content"] for entry in lm.history]
    passage = pred.trajectory["observation_0"][0]["text"]
    assert len(passage) > COMPACT_CHARS  # a passage, as the step after the search read it
    first_hit = max(passage.splitlines(), key=len)[-60:]  # a line past the compact opening
    react_prompts = [p for p in prompts if "next_thought" in p]
    assert first_hit in react_prompts[0]  # the next step reads the result whole
    assert first_hit not in react_prompts[-1]  # later steps see it compacted...
    assert f"[1] {pred.trajectory['observation_0'][0]['doc_label']}" in react_prompts[-1]
    assert pred.trajectory["observation_0"][0]["uid"] not in react_prompts[-1]  # cited by [1]
    assert first_hit in prompts[-1]  # and the answer step sees everything whole
    assert all(len(h["text"]) <= 500 for h in pred.trajectory["observation_2"])


class _SchemaCopyingLM(ScriptedLM):
    """What a small model does: copies the tool's argument schema as its arguments."""

    def _researcher_react(self, inputs):
        schema = {"query": {"type": "string"}, "ticker": {"anyOf": [{"type": "string"}]}}
        return {"next_thought": "Search.", "next_tool_name": "wissen_equity_search",
                "next_tool_args": schema}  # fmt: skip


def test_the_first_search_is_codes_and_a_failed_call_is_not_repeated(searcher):
    lm = _SchemaCopyingLM()
    searches: list[str] = []
    tool = EquitySearchTool(searcher, lock=GridFilter("MMM", 2018, 4))
    with dspy.context(lm=lm, adapter=dspy.ChatAdapter()):
        pred = Researcher(max_searches=5, k=3)(
            tool=tool,
            on_search=lambda query, hits: searches.append(query),
            question="What was 3M's capex in FY2018?",
            slice_label="MMM FY2018 Q4",
            probe_title="Capex",
            probe_question="What was 3M's capital expenditure in FY2018?",
            previous_draft="",
            reviewer_feedback="- Cite the cash flow statement's purchases of PP&E.",
            first_query="cash flow statement purchases PP&E",
        )
    assert searches == ["cash flow statement purchases PP&E"]  # the probe loop's query
    after = [v for k, v in pred.trajectory.items() if k.startswith("observation_")][1:]
    assert "Execution error" in after[0] and after[1] == "Already called with these arguments."
    assert lm.calls["researcher.react"] == 2 and lm.calls["researcher.extract"] == 1
    hits = pred.trajectory["observation_0"]
    assert [hit["cite"] for hit in hits] == [f"[{n}]" for n in range(1, len(hits) + 1)]


class _RepeatingLM(ScriptedLM):
    """Asks for the same statement facts over and over."""

    def _researcher_react(self, inputs):
        return {"next_thought": "Facts.", "next_tool_name": "wissen_statement_facts",
                "next_tool_args": {"concept_or_label": "capex", "periods": ""}}  # fmt: skip


def test_a_repeated_tool_call_ends_the_turn(searcher):
    lm = _RepeatingLM()
    tool = EquitySearchTool(searcher, lock=GridFilter("MMM", 2018, 4))
    with dspy.context(lm=lm, adapter=dspy.ChatAdapter()):
        pred = Researcher(max_searches=5, k=3, answer_first=False)(
            tool=tool,
            question="What was 3M's capex in FY2018?",
            slice_label="MMM FY2018 Q4",
            probe_title="Capex",
            probe_question="What was 3M's capital expenditure in FY2018?",
            previous_draft="",
            reviewer_feedback="",
        )
    assert lm.calls["researcher.react"] == 2  # the call, then the same call: the turn ends
    assert pred.trajectory["observation_2"] == "Already called with these arguments."


def test_a_first_draft_is_written_from_codes_search_and_follow_ups_run_the_tool_loop(searcher):
    lm = _RepeatingLM()
    tool = EquitySearchTool(searcher, lock=GridFilter("MMM", 2018, 4))
    probe = {
        "question": "What was 3M's capex in FY2018?",
        "slice_label": "MMM FY2018 Q4",
        "probe_title": "Capex",
        "probe_question": "What was 3M's capital expenditure in FY2018?",
    }
    researcher = Researcher(max_searches=5, k=3)
    with dspy.context(lm=lm, adapter=dspy.ChatAdapter()):
        first = researcher(tool=tool, previous_draft="", reviewer_feedback="", **probe)
    assert lm.calls == {"researcher.extract": 1}  # no step of the loop: one call
    assert list(first.trajectory) == ["thought_0", "tool_name_0", "tool_args_0", "observation_0"]
    first_hit = first.trajectory["observation_0"][0]
    assert max(first_hit["text"].splitlines(), key=len) in lm.history[-1]["messages"][-1]["content"]
    with dspy.context(lm=lm, adapter=dspy.ChatAdapter()):
        researcher(
            tool=tool,
            previous_draft=str(first.answer_markdown),
            reviewer_feedback="- Cite the cash flow statement's purchases of PP&E.",
            **probe,
        )
    assert lm.calls["researcher.react"] == 2 and lm.calls["researcher.extract"] == 2
