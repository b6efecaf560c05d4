"""Wissen Research: deterministic metrics (no LLM) over the citation protocol.

Each ``*_metric``-style function takes ``(gold, pred, trace=None)`` and returns a float, so
it can be passed to ``dspy.Evaluate`` or an optimiser; the ``score_*``/``judge_answer``
functions take plain inputs and return result objects with the details.
"""

from metrics.answer_correctness import AnswerJudgement, answer_correctness, judge_answer
from metrics.citation_coverage import CoverageResult, citation_coverage, score_citation_coverage
from metrics.composite import composite_feedback_metric, composite_metric
from metrics.dagger_correctness import DaggerResult, dagger_correctness, score_daggers
from metrics.fact_recall import FactResult, fact_recall, score_facts
from metrics.numbers import NumberToken, extract_numbers
from metrics.numeric_grounding import GroundingResult, numeric_grounding, score_numeric_grounding
from metrics.slice_match import SliceMatch, score_slices, slice_feedback_metric, slice_match

__all__ = [
    "AnswerJudgement",
    "CoverageResult",
    "DaggerResult",
    "FactResult",
    "GroundingResult",
    "NumberToken",
    "SliceMatch",
    "answer_correctness",
    "citation_coverage",
    "composite_feedback_metric",
    "composite_metric",
    "dagger_correctness",
    "extract_numbers",
    "fact_recall",
    "judge_answer",
    "numeric_grounding",
    "score_citation_coverage",
    "score_daggers",
    "score_facts",
    "score_numeric_grounding",
    "score_slices",
    "slice_feedback_metric",
    "slice_match",
]
