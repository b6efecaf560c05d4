"""A yes/no verdict on a figure, by code, where analysts share a benchmark for it.

"Does X have a healthy liquidity profile based on its quick ratio?" is answered by the
quick ratio and the floor it is read against: a small model shown 0.54 still writes "Yes,
healthy" as often as not, and a verdict that the figures contradict is the worst answer a
report can give. For the few figures with a benchmark every textbook states (liquidity
ratios against 1, working capital against 0), code compares the figure with it and says
which side it falls on, citing the figure's pages; a researched sentence that opens with
the other verdict is removed (:mod:`programs.figure_check`). Other figures get no verdict
from code: where the benchmark depends on the industry, the judgement stays the model's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from metrics.answer_verdicts import is_yes_no_question, yes_no_polarity


@dataclass(frozen=True)
class Benchmark:
    """The level a figure is read against, and what being at or above it means."""

    level: float
    meaning: str


#: Figures (by their calculator title, lower case) with a benchmark analysts share.
BENCHMARKS: dict[str, Benchmark] = {
    "quick ratio": Benchmark(1.0, "quick assets cover current liabilities"),
    "current ratio": Benchmark(1.0, "current assets cover current liabilities"),
    "working capital": Benchmark(0.0, "current assets exceed current liabilities"),
}

#: Words by which a yes/no question asks whether a figure is on the healthy side.
_HEALTH = re.compile(
    r"\b(?:health(?:y|ier)?|strong|solid|sound|adequate|sufficient|enough|good|robust|"
    r"positive|comfortable|able to (?:cover|meet|pay)|can (?:cover|meet|pay)|liquid(?:ity)?)\b",
    re.IGNORECASE,
)
#: Words that turn the question around ("is the quick ratio below 1?", "weak", "negative").
_INVERTED = re.compile(
    r"\b(?:below|under|less than|weak|poor|negative|unhealthy|insufficient|inadequate|"
    r"struggl\w*|strain\w*|risk\w*)\b",
    re.IGNORECASE,
)


def benchmark_verdict(question: str, title: str, value: float, text: str) -> str | None:
    """The verdict sentence (no citation marks) for a yes/no question asking whether the
    figure ``title`` (its ``value``, written ``text``) is healthy; None when the question
    is not such a question or the figure has no shared benchmark."""
    benchmark = BENCHMARKS.get(title.strip().lower())
    if benchmark is None or not is_yes_no_question(question):
        return None
    if not _HEALTH.search(question) or _INVERTED.search(question):
        return None
    if title.lower() not in question.lower():
        return None
    if benchmark.level:  # a ratio is judged as written: 0.999 shown as "1.00" is 1.00
        decimals = len(m.group(1)) if (m := re.search(r"\.(\d+)", text)) else 0
        value = round(value, decimals)
    healthy = value >= benchmark.level if benchmark.level else value > 0
    side = (
        ("at or above" if value >= benchmark.level else "below")
        if benchmark.level
        else ("positive" if value > 0 else "not positive")
    )
    level = f"{benchmark.level:g}" if benchmark.level else ""
    position = f"{side} {level}".strip()
    return (
        f"{'Yes' if healthy else 'No'}: a {title.lower()} of {text} is {position}, "
        f"the usual benchmark for whether {benchmark.meaning}"
    )


def opposes(sentence: str, verdict: str) -> bool:
    """Whether ``sentence`` opens with the other yes/no than ``verdict``."""
    theirs, ours = yes_no_polarity(sentence), yes_no_polarity(verdict)
    return theirs is not None and ours is not None and theirs != ours
