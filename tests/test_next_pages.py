"""A round after a draft that could cite none of its pages writes a fresh draft from the next
pages of the same search; a round after a cited draft revises it from the follow-up's search;
a round after a draft that pasted its evidence (alone, or after a sentence) reads the same
pages again, told to answer in its own words, with no reviewer asked about it; a draft of
which nothing was kept is sent back by code too (``programs.probe_loop``)."""

from __future__ import annotations

from typing import Any

import dspy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.cells import SliceRef
from programs.draft_checks import PASTED_DRAFT
from programs.probe_loop import ProbeLoop
from retrieval.search.tools import EquitySearchTool
from retrieval.store import GridFilter
from signatures.probes import Probe
from signatures.reviewer import ReviewVerdict

QUERY = "What did 3M spend on capital expenditure in FY2022?"
MMM = GridFilter("MMM", 2022, 4)
FOLLOW_UP = "Find the segment figures in the notes."


@settings(max_examples=15, deadline=None)
@given(k=st.integers(1, 4), skipped=st.integers(0, 4))
def test_skipped_pages_give_way_to_the_next_in_rank_order(searcher, k, skipped):
    ranked = [h["uid"] for h in EquitySearchTool(searcher, lock=MMM).search(QUERY, k=k + skipped)]
    skip = set(ranked[:skipped])
    shown = [h["uid"] for h in EquitySearchTool(searcher, lock=MMM).search(QUERY, k=k, skip=skip)]
    assert shown == ranked[skipped : skipped + k]


def test_only_the_turns_first_search_passes_over_the_skipped_pages(searcher):
    tool = EquitySearchTool(searcher, lock=MMM, default_k=2)
    first = [h["uid"] for h in tool.search(QUERY)]
    search = tool.slice_function(skip_first=first)
    assert not {h["uid"] for h in search(QUERY)} & set(first)
    assert [h["uid"] for h in search(QUERY + " ")] == first


class _Researcher:
    """Searches the round's query as the real researcher's first step does; drafts uncited
    in the rounds listed in ``uncited``, else cites its first page."""

    def __init__(
        self,
        uncited: set[int],
        pasted: frozenset[int] = frozenset(),
        lead: str = "",
        empty: frozenset[int] = frozenset(),
    ) -> None:
        self.uncited, self.empty = uncited, empty
        self.pasted, self.lead = pasted, lead
        self.shown: list[list[str]] = []
        self.queries: list[str] = []
        self.shown_drafts: list[tuple[str, str]] = []

    def __call__(
        self,
        *,
        tool: EquitySearchTool,
        first_query: str,
        first_skip,
        previous_draft: str,
        reviewer_feedback: str,
        **_: Any,
    ):
        hits = tool.slice_function(skip_first=first_skip)(first_query)
        self.shown.append([h["uid"] for h in hits])
        self.queries.append(first_query)
        self.shown_drafts.append((previous_draft, reviewer_feedback))
        if len(self.shown) in self.uncited:
            return dspy.Prediction(answer_markdown="3M invests in its plants.")
        if len(self.shown) in self.empty:  # hit numbers and nothing else
            return dspy.Prediction(answer_markdown="[1][2] [3]")
        if len(self.shown) in self.pasted:  # the evidence block, header and all
            hit = tool.retrieved[hits[0]["uid"]]
            rows = "\n".join(hit.text.splitlines()[:4])
            return dspy.Prediction(
                answer_markdown=f"{self.lead}[1] MMM 10-K FY2022 p.{hit.page_index + 1}: {rows}"
            )
        return dspy.Prediction(
            answer_markdown=(
                f"3M reports its capital spending in its statement of cash flows {hits[0]['cite']}."
            )
        )


class _Reviewer:
    """Asks for one more round after the first, then accepts."""

    def __init__(self) -> None:
        self.rounds: list[int] = []

    def __call__(self, *, round_number: int, **_: Any) -> ReviewVerdict:
        self.rounds.append(round_number)
        if round_number == 1:
            return ReviewVerdict(done=False, follow_up_prompts=[FOLLOW_UP])
        return ReviewVerdict(done=True)


def _loop(
    searcher,
    uncited: set[int],
    pasted: frozenset[int] = frozenset(),
    lead: str = "",
    empty: frozenset[int] = frozenset(),
):
    """The researcher and reviewer of a two-round probe, and its outcome."""
    researcher, reviewer = _Researcher(uncited, pasted, lead, empty), _Reviewer()
    loop = ProbeLoop(researcher, reviewer, searcher, max_rounds=2, k=3)  # type: ignore[arg-type]
    probe = Probe(probe_title="The question", probe_question=QUERY)
    return researcher, reviewer, loop.run(QUERY, SliceRef(ticker="MMM", fy=2022, fq=4), probe, 1)


def _rounds(searcher, uncited: set[int]) -> _Researcher:
    return _loop(searcher, uncited)[0]


def _ranked(searcher, query: str, k: int) -> list[str]:
    return [h["uid"] for h in EquitySearchTool(searcher, lock=MMM).search(query, k=k)]


def test_a_round_after_an_uncited_draft_reads_the_next_pages(searcher):
    researcher = _rounds(searcher, uncited={1})
    assert researcher.queries == [QUERY, QUERY]  # an uncited draft's follow-up is no query
    ranked = _ranked(searcher, QUERY, 6)
    assert researcher.shown == [ranked[:3], ranked[3:6]]
    assert researcher.shown_drafts[1] == ("", "")  # a fresh draft: the uncited one is not copied


def test_a_round_after_a_cited_draft_searches_the_follow_up_from_the_top(searcher):
    researcher = _rounds(searcher, uncited=set())
    first, follow_up = researcher.queries
    assert first == QUERY and "segment" in follow_up
    assert researcher.shown[1] == _ranked(searcher, follow_up, 3)
    previous, feedback = researcher.shown_drafts[1]
    assert "statement of cash flows [1]" in previous and "segment" in feedback


@pytest.mark.parametrize(
    "lead",
    ["", "3M's capital expenditures were $1,749 million [1].\n\n"],
    ids=["only-pasted", "pasted-after-a-sentence"],
)
def test_a_round_after_a_pasted_draft_reads_the_same_pages_in_its_own_words(searcher, lead):
    researcher, reviewer, outcome = _loop(searcher, uncited=set(), pasted=frozenset({1}), lead=lead)
    ranked = _ranked(searcher, QUERY, 3)
    assert researcher.shown == [ranked, ranked]  # the pasted page is read again
    assert researcher.shown_drafts[1] == ("", f"- {PASTED_DRAFT}")
    assert reviewer.rounds == [2]  # nothing was left of round 1 to review
    first = outcome.record["rounds"][0]
    assert first["verdict"]["reason"] == "the draft pasted the evidence"
    assert first["copied_lines_dropped"] > 0
    answer = outcome.answer
    assert not answer.insufficient_evidence and "capital spending" in answer.answer.body


def test_a_draft_of_which_nothing_was_kept_is_sent_back_by_code_for_a_fresh_draft(searcher):
    researcher, reviewer, outcome = _loop(searcher, uncited=set(), empty=frozenset({1}))
    assert reviewer.rounds == [2]  # no reviewer was asked about an empty draft
    ranked = _ranked(searcher, QUERY, 6)
    assert researcher.shown == [ranked[:3], ranked[3:6]]  # the next pages, afresh
    first = outcome.record["rounds"][0]
    assert first["verdict"]["reason"] == "nothing of the draft could be kept"
    assert not first["verdict"]["done"]
    assert not outcome.answer.insufficient_evidence
    assert "capital spending" in outcome.answer.answer.body
