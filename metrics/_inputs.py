"""Read the plain inputs metrics need from DSPy examples/predictions or plain values.

Metrics receive ``gold`` (a ``dspy.Example``) and ``pred`` (a ``dspy.Prediction`` or any
object) from optimisers, but are also called on plain strings in tests and benchmarks; one
place decides where the report, the page texts and the flagged slices live.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from citations.markup import CitedAnswer, parse_cited_answer, without_report_notes


def field(obj: Any, name: str, default: Any = None) -> Any:
    """``obj.name`` or ``obj[name]``; DSPy examples support both, dicts only the latter."""
    if obj is None:
        return default
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    try:
        value = getattr(obj, name)
    except (AttributeError, KeyError):
        try:
            return obj[name]
        except (KeyError, TypeError, IndexError):
            return default
    return default if value is None else value


def report_text(pred: Any) -> str:
    """The report Markdown of a prediction: ``report``, else ``answer``, else ``str(pred)``."""
    if isinstance(pred, str):
        return pred
    if isinstance(pred, CitedAnswer):
        return pred.to_markdown()
    for name in ("report", "answer", "markdown"):
        value = field(pred, name)
        if isinstance(value, CitedAnswer):
            return value.to_markdown()
        if isinstance(value, str):
            return value
    return "" if pred is None else str(pred)


def as_answer(report: str | CitedAnswer) -> CitedAnswer:
    """The report's answer and sources, without its Formulas and Scope notes."""
    if isinstance(report, CitedAnswer):
        return report
    return parse_cited_answer(without_report_notes(report))
