"""Answer-step demos written from gold answers: cited, grounded, one per company, train only."""

from __future__ import annotations

import dspy
import pytest
from typer.testing import CliRunner

from cli.app import app
from evaluation.labelled_demos import (
    ANSWER_STEP,
    cited_answer,
    labelled_demo,
    labelled_demos,
    lacking_demo,
)
from retrieval.pages import Page

runner = CliRunner()


def _page(ticker: str, page_index: int, text: str) -> Page:
    return Page(
        doc_name=f"{ticker}_2031_10K", ticker=ticker, company=ticker.title(), fy=2031, fq=4,
        doc_type="10-K", page_index=page_index, text=text,
    )  # fmt: skip


class FakeSearcher:
    """Pages by uid, and a search that finds every page of the locked filing."""

    def __init__(self, pages: list[Page]) -> None:
        self.pages = {p.uid: p for p in pages}

    def pages_by_uid(self, uids):
        return [self.pages[u] for u in uids if u in self.pages]

    def search(self, query, where=None, k=10):
        found = [p for p in self.pages.values() if where is None or p.ticker == where.ticker]
        return [type("Hit", (), {"uid": p.uid, "doc_name": p.doc_name})() for p in found][:k]


def _example(qid: str, page: Page, answer: str, question_type: str = "domain-relevant"):
    return dspy.Example(
        id=qid, question=f"What did {page.ticker} report?", answer=answer,
        question_type=question_type, evidence_uids=[page.uid],
    ).with_inputs("question")  # fmt: skip


def test_a_gold_answer_is_cited_sentence_by_sentence_without_the_annotators_notes():
    gold = (
        "Yes. Acme had positive working capital of $831 million. The answer here assumes "
        "FY2031 ends in January"
    )
    assert cited_answer(gold) == "Yes [1]. Acme had positive working capital of $831 million [1]."
    aside = "Acme swapped the issuer of its notes. (In essence a novation agreement)"
    assert cited_answer(aside) == "Acme swapped the issuer of its notes [1]."


def test_a_demo_shows_other_pages_of_the_filing_first_and_cites_the_gold_page_last():
    """The answer sits behind the last hit number: a first page that does not answer is
    read past, as in a real run."""
    gold = _page("ACME", 59, "Working capital\nCurrent assets | 5,000\nWorking capital | 831")
    others = [
        _page("ACME", 12, "Risk factors\nOur business depends on demand for glass."),
        _page("ACME", 3, "Properties\nWe own plants in three states."),
    ]
    demo = labelled_demo(_example("q1", gold, "Working capital was $831 million."), gold, others)
    assert demo is not None
    blocks = demo["evidence"].split("\n\n")
    assert blocks[0].startswith("[1] ACME 10-K FY2031 p.13: Risk factors")
    assert blocks[1].startswith("[2] ACME 10-K FY2031 p.4: Properties")
    assert blocks[2].startswith("[3] ACME 10-K FY2031 p.60: Working capital")
    assert demo["answer_markdown"] == "Working capital was $831 million [3]."
    assert demo["probe_question"] == demo["question"] and demo["previous_draft"] == ""


def test_a_gold_figure_the_page_does_not_print_gives_no_demo():
    gold = _page("ACME", 59, "Working capital\nCurrent assets | 5,000")
    assert labelled_demo(_example("q1", gold, "The ratio was 1.93."), gold) is None


def test_demos_come_one_per_company_from_the_examples_given():
    acme = [_page("ACME", i, f"Segment revenue | {100 + i}") for i in range(3)]
    beta = [_page("BETA", 1, "Segment revenue | 700")]
    train = [
        _example("a1", acme[0], "Revenue was $100."),
        _example("a2", acme[1], "Revenue was $101."),
        _example("b1", beta[0], "Revenue was $700.", question_type="metrics-generated"),
    ]
    pool, sources = labelled_demos(train, FakeSearcher([*acme, *beta]), max_demos=3, seed=7)
    assert len(pool[ANSWER_STEP]) == 2 and len(sources) == 2
    assert sources[0] in {"a1", "a2"} and sources[1] == "b1"  # judgement questions first


def test_a_lacking_demo_cites_the_pages_it_read_and_says_they_do_not_answer():
    others = [
        _page("ACME", 12, "Risk factors\nOur business depends on demand for glass."),
        _page("ACME", 3, "Properties\nWe own plants in three states."),
    ]
    gold = _page("ACME", 59, "Working capital\nWorking capital | 831")
    demo = lacking_demo(_example("q1", gold, "Working capital was $831 million."), others)
    assert demo is not None
    assert demo["evidence"].startswith("[1] ACME 10-K FY2031 p.13: Risk factors")
    assert "[2] ACME 10-K FY2031 p.4: Properties" in demo["evidence"]
    assert "does not answer" in demo["answer_markdown"]
    assert demo["answer_markdown"].endswith("[1][2].")


def test_no_lacking_demo_when_a_page_shown_supports_the_gold_answer():
    others = [_page("ACME", 12, "Liquidity\nWorking capital was $831 million at year end.")]
    gold = _page("ACME", 59, "Working capital | 831")
    example = _example("q1", gold, "Working capital was $831 million.")
    assert lacking_demo(example, others) is None
    assert lacking_demo(example, []) is None


def test_the_lacking_demo_follows_the_first_demo_from_another_companys_judgement_question():
    acme = [_page("ACME", 1, "Segment revenue | 101"), _page("ACME", 2, "Properties: plants")]
    beta = [_page("BETA", 1, "Segment revenue | 700"), _page("BETA", 2, "Risk factors: glass")]
    gamma = [_page("GAMM", 1, "Segment revenue | 900"), _page("GAMM", 2, "Legal proceedings")]
    train = [
        _example("a1", acme[0], "Revenue was $101."),
        _example("b1", beta[0], "Revenue was $700."),
        _example("g1", gamma[0], "Revenue was $900.", question_type="metrics-generated"),
    ]
    searcher = FakeSearcher([*acme, *beta, *gamma])
    pool, sources = labelled_demos(train, searcher, max_demos=1, seed=7)
    demos = pool[ANSWER_STEP]
    assert len(demos) == 2 and len(sources) == 2
    assert "does not answer" in demos[1]["answer_markdown"]
    assert "does not answer" not in demos[0]["answer_markdown"]
    assert {sources[0], sources[1]} == {"a1", "b1"}  # a metric question is no lacking demo
    assert demos[1]["evidence"].count("[1]") == 1 and "Segment revenue" not in demos[1]["evidence"]


def test_other_pages_keep_the_search_order_whatever_order_the_store_reads_them_in():
    from evaluation.labelled_demos import _other_pages

    class StoreOrder(FakeSearcher):
        def pages_by_uid(self, uids):  # SQL's IN gives no order: here, the reverse
            return list(reversed(super().pages_by_uid(uids)))

    pages = [_page("ACME", i, f"page {i}") for i in range(4)]
    example = _example("a1", pages[0], "Revenue was $100.")
    others = _other_pages(StoreOrder(pages), example, pages[0])
    assert [p.page_index for p in others] == [1, 2]  # the search's best two, best first


@pytest.mark.parametrize("optimiser", ["labelled", "traced"])
def test_demo_optimisers_need_the_answer_step_in_the_target(
    optimiser, wissen_home, sample_store_path, tmp_path
):
    result = runner.invoke(
        app,
        ["optimise", "--optimiser", optimiser, "--set", "planner", "--target", "planner",
         "--out-dir", str(tmp_path), "--store", str(sample_store_path), "--no-track"],
    )  # fmt: skip
    assert result.exit_code != 0
    assert "researcher.extract" in result.output and "Traceback" not in result.output
