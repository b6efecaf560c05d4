"""The passage and retrieval benchmarks' bookkeeping: rows by company-grouped split (or hash
half), and the misses they list only for the splits rules are written on."""

from __future__ import annotations

from benchmarks.passages import Gold, QuestionViews, misses, recalled, summarise
from benchmarks.retrieval import design_misses

SENTENCE = (
    "the firm grew tangible book value per share to 66 56 in the quarter"  # as words() reads it
)
PAGE = "Selected metrics\nThe Firm grew tangible book value per share to $66.56 in the quarter.\n"


def _views(qid: str, split: str, passage: str, half: str = "tune") -> QuestionViews:
    gold = Gold(figures={"66.56"}, sentences=[f" {SENTENCE} "], pages=[PAGE])
    views = QuestionViews(qid, half, split, gold)
    views.seen = {
        "page[:2000]": [PAGE],
        "passage": [passage],
        "passage@gold": [passage],
        "page@gold": [PAGE],
    }
    return views


RESULTS = [
    _views("a", "train", "Tangible book value per share | 66.56"),
    _views("b", "train", "Net income | 14,300"),
    _views("c", "dev", "Net income | 14,300", half="holdout"),
    _views("d", "test", "Net income | 14,300", half="holdout"),
]


def test_a_figure_or_a_sentence_recalls_the_evidence():
    assert recalled(RESULTS[0].gold, "Tangible book value per share | 66.56") == (True, False, True)
    assert recalled(RESULTS[0].gold, PAGE) == (True, True, True)
    assert recalled(RESULTS[0].gold, "Net income | 14,300") == (False, False, False)


def test_rows_are_by_company_grouped_split_or_by_half():
    rows = {(r["view"], r["split"]): r for r in summarise(RESULTS, ["train", "test", "all"])}
    assert rows[("passage", "train")]["n"] == 2
    assert rows[("passage", "train")]["recalled"] == 0.5
    assert rows[("passage", "test")]["recalled"] == 0.0
    assert rows[("passage", "all")]["n"] == 4
    assert rows[("page@gold", "all")]["recalled"] == 1.0
    halves = summarise(RESULTS, ["holdout"], by="half")
    assert {r["half"] for r in halves} == {"holdout"} and halves[0]["n"] == 2


def test_misses_are_listed_for_train_and_dev_only():
    assert [m.qid for m in misses(RESULTS)] == ["b", "c"]


def test_the_retrieval_benchmark_lists_no_test_miss():
    def case(qid: str, split: str, rank: int | None) -> dict:
        return {"qid": qid, "split": split, "first_relevant_rank": rank}

    seen = [case("a", "train", None), case("b", "dev", 7), case("c", "test", None)]
    seen += [case("d", "train", 2), case("e", "unknown", None)]
    assert [c["qid"] for c in design_misses(seen)] == ["a", "b"]
