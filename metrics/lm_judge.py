"""An LM's opinion on whether an answer states the gold answer, for ``judge_answer``.

Off by default: the rules in ``metrics.answer_correctness`` decide unless a caller passes
``lm_judge=LMAnswerJudge(lm)`` (``benchmarks/metric_validity.py --judge-lm MODEL``). The LM is
asked the question a FinanceBench labeller answers: does the answer give the gold answer's
figures and verdict, allowing rounding, units and extra detail? It is never asked to judge
refusals, which the rules detect well.
"""

from __future__ import annotations

from typing import Any

import dspy
from dspy.utils.exceptions import AdapterParseError


class AnswerMatchesGold(dspy.Signature):
    """Decide whether a model's answer to a financial question is correct, given the gold answer.

    Correct: it states the gold answer's key figures (rounding, units and scale may differ:
    $1,577 million = $1.58 billion; 0.165 = 16.5%) and its verdict or named items; extra
    detail or a different but equivalent wording is fine. Incorrect: a different figure,
    the opposite verdict, missing the asked fact, or a hedge that never commits.
    """

    question: str = dspy.InputField()
    gold_answer: str = dspy.InputField()
    answer: str = dspy.InputField()
    correct: bool = dspy.OutputField(desc="True when the answer states the gold answer")


class LMAnswerJudge:
    """Asks ``lm`` (any ``dspy.LM``, or a scripted stand-in in tests) through a Predict."""

    def __init__(self, lm: Any) -> None:
        self.lm = lm
        self.predict = dspy.Predict(AnswerMatchesGold)

    def __call__(self, question: str | None, answer: str, gold: str) -> bool | None:
        """True/False from the LM; None when its output cannot be read (the rules stand)."""
        try:
            with dspy.context(lm=self.lm):
                out = self.predict(question=question or "", gold_answer=gold, answer=answer)
        except (AdapterParseError, ValueError):  # output the adapter cannot read
            return None
        value = getattr(out, "correct", None)
        return value if isinstance(value, bool) else None
