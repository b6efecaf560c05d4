"""The yes/no a figure computed by code settles, tried in one order.

A question that asks "is it healthy?", "is it above 10?", "is it negative?", "did it grow?"
or "did it pay one?" about a figure code computed is answered by code, first: a shared
benchmark, a level the question names, a sign, the direction of a change, whether the
statements print the item at all, and whether capex makes the business plainly
capital-intensive or not. The first that reads the question decides; none: the judgement
stays the model's.
"""

from __future__ import annotations

import re

from programs.intensity_verdicts import intensity_verdict
from programs.threshold_verdicts import sign_verdict, threshold_verdict
from programs.verdicts import benchmark_verdict, change_verdict, presence_verdict


def settled_verdict(
    question: str, formula: str, title: str, value: float, text: str, display: str, sector: str
) -> str | None:
    """The verdict sentence (no citation marks) the figure ``title`` (its ``value``, written
    ``text``; computed by ``formula``, shown as ``display``) gives ``question``, or None."""
    return (
        benchmark_verdict(question, title, value, text)
        or threshold_verdict(question, title, value, text, display)
        or sign_verdict(question, title, value, text)
        or change_verdict(question, title, value, text, sector)
        or presence_verdict(question, formula, title, value, text)
        or intensity_verdict(question, formula, value, text)
    )


def verdict_with_period(verdict: str, value: str, when: str) -> str | None:
    """``verdict`` with the period its figure is ``when`` beside the figure it states, so the
    answer says the figure once: "No: a quick ratio of 0.54 in FY2022 is below 1", not that
    verdict followed by "Quick ratio in FY2022 was 0.54." A figure qualified by what it is a
    share of keeps it ("16.9% of revenue in FY2022"), and a change's size is found without
    its sign ("fell by 1.6 percentage points" of -1.6). None when the verdict does not state
    the figure (the figure's own sentence follows it then)."""
    for text in (value, value.lstrip("-−+ ")):  # "fell by 1.6 points" states -1.6 unsigned
        found = re.search(rf"(?<![\d.,$-]){re.escape(text)}(?!\d|[.,]\d)(?: of \w+)?", verdict)
        if found:
            return f"{verdict[: found.end()]} {when}{verdict[found.end() :]}"
    return None
