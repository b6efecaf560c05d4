"""Answer-step demos made of the program's own train evidence and the gold answer: cited to
the block that shows it, one per company, judgement questions only, resumable."""

from __future__ import annotations

import dspy

from evaluation.labelled_demos import ANSWER_STEP
from evaluation.traced_demos import evidence_blocks, gold_block, traced_demos
from retrieval.pages import Page
from tests.test_labelled_demos import _page


def _block(number: int, page: Page, passage: str) -> str:
    return f"[{number}] {page.doc_label} p.{page.page_index + 1}: {passage}"


WORKING_CAPITAL = "Working capital rose to 831 million as current assets grew."
GOLD_ANSWER = "Working capital rose to $831 million."


def _evidence(gold: Page, other: Page, gold_passage: str = WORKING_CAPITAL) -> str:
    return "\n\n".join(
        [_block(1, other, "Risk factors and outlook."), _block(2, gold, gold_passage)]
    )


def test_evidence_blocks_are_read_with_their_hit_number_document_and_page():
    page = _page("ACME", 47, "")
    blocks = evidence_blocks(_block(3, page, "Revenue | 100\nCost | 40") + "\n\n(2 more results)")
    assert blocks == [(3, "ACME 10-K FY2031", 48, "Revenue | 100\nCost | 40")]


def test_the_gold_answer_is_cited_to_the_block_of_the_gold_page_wherever_it_stands():
    gold = _page("ACME", 59, WORKING_CAPITAL)
    other = _page("ACME", 3, "Risk factors and outlook.")
    assert gold_block(_evidence(gold, other), GOLD_ANSWER, [gold]) == 2


def test_no_block_when_the_passage_shown_lacks_the_gold_figure_or_is_another_page():
    gold = _page("ACME", 59, WORKING_CAPITAL)
    other = _page("ACME", 3, WORKING_CAPITAL)  # prints the figure, but is no evidence page
    cut = _evidence(gold, other, gold_passage="Working capital rose as current assets grew.")
    assert gold_block(cut, GOLD_ANSWER, [gold]) is None
    assert gold_block(_evidence(gold, other), GOLD_ANSWER, [other]) is None


class TracedProgram(dspy.Module):
    """A program whose answer step records a call in DSPy's trace, as a real run does."""

    def __init__(self, evidence: dict[str, str]) -> None:
        super().__init__()
        self.researcher = dspy.Module()
        self.researcher.extract = dspy.Predict("question, evidence -> answer_markdown")
        self.evidence = evidence
        self.runs: list[str] = []

    def forward(self, question: str) -> dspy.Prediction:
        self.runs.append(question)
        inputs = {"question": question, "evidence": self.evidence[question]}
        dspy.settings.trace.append((self.researcher.extract, inputs, {"answer_markdown": "x"}))
        return dspy.Prediction(answer="x")


class FakeSearcher:
    def __init__(self, pages: list[Page]) -> None:
        self.pages = {p.uid: p for p in pages}

    def pages_by_uid(self, uids):
        return [self.pages[u] for u in uids if u in self.pages]


def _example(qid: str, question: str, gold: Page, question_type: str = "novel-generated"):
    return dspy.Example(
        id=qid, question=question, answer=GOLD_ANSWER, question_type=question_type,
        evidence_uids=[gold.uid],
    ).with_inputs("question")  # fmt: skip


def two_companies_train() -> tuple[dict[str, str], list[dspy.Example], FakeSearcher]:
    """Train questions of two companies as traced runs saw them: each question's evidence,
    the examples (two of ACME's, one of BETA's, one metric question) and their pages. ACME's
    gold page is behind ``[2]``, BETA's behind ``[1]``."""
    acme, acme2, beta = (
        _page(t, i, WORKING_CAPITAL) for t, i in [("ACME", 59), ("ACME", 60), ("BETA", 9)]
    )
    other = _page("ACME", 3, "Risk factors and outlook.")
    first = "\n\n".join([_block(1, beta, WORKING_CAPITAL), _block(2, other, "Outlook.")])
    evidence = {"a1": _evidence(acme, other), "a2": _evidence(acme2, other), "b1": first, "m1": ""}
    train = [
        _example("a1", "a1", acme),
        _example("a2", "a2", acme2),  # a second ACME question: one demo per company
        _example("b1", "b1", beta),
        _example("m1", "m1", beta, question_type="metrics-generated"),  # answered by code
    ]
    return evidence, train, FakeSearcher([acme, acme2, beta, other])


def test_traced_demos_one_per_company_judgement_only_and_resumed_from_the_ledger(tmp_path):
    evidence, train, searcher = two_companies_train()
    program, ledger = TracedProgram(evidence), tmp_path / "traced.jsonl"

    pool, sources = traced_demos(program, train, searcher, ledger, max_demos=3, seed=7)

    assert sorted(program.runs) == ["a1", "a2", "b1"]
    demos = pool[ANSWER_STEP]
    assert len(demos) == 2 and sources[1] == "b1"  # the demo citing [1] comes last
    assert demos[0]["answer_markdown"] == "Working capital rose to $831 million [2]."
    assert demos[0]["evidence"] == evidence[sources[0]]  # the evidence exactly as seen
    assert demos[1]["answer_markdown"].endswith("[1].")

    again = TracedProgram(evidence)
    assert traced_demos(again, train, searcher, ledger, max_demos=3, seed=7) == (pool, sources)
    assert again.runs == []  # every traced run is read back, none run again
