"""Which program `research optimise` keeps on dev, and which it may use by default."""

from __future__ import annotations

import pytest

from evaluation.runner import EvalOutcome
from runs.optimisation import _beats, _holds_on_dev


def _outcome(right: int, wrong: int, n: int = 10, cited: float = 0.8) -> EvalOutcome:
    """``n`` answer rows: ``right`` right, ``wrong`` wrong, the rest refused; the composite
    rises with citation coverage so a program can score higher while answering worse."""
    rows = []
    for i in range(n):
        accuracy, is_wrong = float(i < right), float(right <= i < right + wrong)
        metrics = {
            "accuracy": accuracy,
            "wrong": is_wrong,
            "refusal": 1.0 - accuracy - is_wrong,
            "citation_coverage": cited,
            "score": 0.4 * accuracy + 0.6 * cited,
        }
        rows.append({"id": str(i), "metrics": metrics, "error": False})
    return EvalOutcome("report", "dev", rows)


def test_a_compile_that_cites_more_and_answers_worse_is_not_kept():
    shipped = _outcome(right=9, wrong=1, cited=0.6)
    compiled = _outcome(right=8, wrong=2, cited=1.0)
    assert compiled.score > shipped.score  # the composite alone would keep it
    assert not _holds_on_dev(compiled, shipped)


@pytest.mark.parametrize(
    ("right", "wrong", "cited", "kept"),
    [
        (8, 1, 0.6, True),  # a tie is kept: its prompts are compiled, the bar is "not worse"
        (8, 0, 0.6, True),  # a wrong answer became a refusal
        (8, 1, 0.5, False),  # cites less: the composite falls
        (9, 1, 0.6, True),
        (8, 2, 0.9, False),  # a refusal became a wrong answer
    ],
)
def test_the_dev_bar_holds_accuracy_wrong_answers_and_the_composite(right, wrong, cited, kept):
    shipped = _outcome(right=8, wrong=1, cited=0.6)  # and one refusal
    assert _holds_on_dev(_outcome(right, wrong, cited=cited), shipped) is kept


def test_a_set_without_answers_is_kept_on_its_score_alone():
    def planner(score: float) -> EvalOutcome:
        return EvalOutcome("planner", "dev", [{"metrics": {"score": score}, "error": False}])

    assert _holds_on_dev(planner(0.7), planner(0.7))
    assert not _holds_on_dev(planner(0.6), planner(0.7))


def test_using_a_program_by_default_needs_more_right_no_more_wrong_and_no_fewer_citations():
    shipped = _outcome(right=6, wrong=3, cited=0.7)
    assert _beats(_outcome(right=7, wrong=3, cited=0.7), shipped)
    assert not _beats(_outcome(right=6, wrong=2, cited=0.9), shipped)  # not more right
    assert not _beats(_outcome(right=7, wrong=3, cited=0.6), shipped)  # cites less
