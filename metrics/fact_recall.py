"""Fact recall: does a report state the facts a good answer must contain, citing their page?

Each gold fact has a ``value`` (e.g. ``"1,749"``) and the ``uid`` of the page it comes
from. A fact is *stated* when some number in the report equals the value under the same
normalisation as numeric grounding (``$1.7 billion`` states ``1,749`` million at the
precision written); it is *cited* when a sentence stating it cites the fact's page. A value
without digits is matched as text. Recall is the share of facts stated; cited recall the
share stated and cited, the stricter of the two.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, Field

from citations.markup import CitedAnswer
from citations.sentences import split_sentences
from metrics._inputs import as_answer, field, report_text
from metrics.numbers import extract_numbers, readings, token_matches


class FactResult(BaseModel):
    facts: int = 0
    stated: int = 0
    cited: int = 0
    missing: list[str] = Field(default_factory=list, description="facts the report lacks")
    uncited: list[str] = Field(default_factory=list, description="stated, not cited to the page")

    @property
    def recall(self) -> float:
        return self.stated / self.facts if self.facts else 1.0

    @property
    def cited_recall(self) -> float:
        return self.cited / self.facts if self.facts else 1.0


def _states(sentence: str, value: str) -> bool:
    gold = extract_numbers(value)
    if not gold:
        return value.strip().lower() in sentence.lower()
    candidates = [v for token in gold for v in readings(token)]
    return any(token_matches(token, candidates) for token in extract_numbers(sentence))


def score_facts(report: str | CitedAnswer, facts: Iterable[Mapping[str, Any]]) -> FactResult:
    """Which of ``facts`` (``fact``, ``value``, ``uid``) the report states and cites."""
    answer = as_answer(report)
    cited_uid = answer.references.by_number()
    sentences = [
        (s.text, {cited_uid[n].uid for n in s.markers if n in cited_uid})
        for s in split_sentences(answer.body)
    ]
    result = FactResult()
    for fact in facts:
        result.facts += 1
        value, name = str(fact.get("value", "")), str(fact.get("fact", fact.get("value", "")))
        stating = [uids for text, uids in sentences if value and _states(text, value)]
        if not stating:
            result.missing.append(name)
            continue
        result.stated += 1
        if any(fact.get("uid") in uids for uids in stating):
            result.cited += 1
        else:
            result.uncited.append(name)
    return result


def fact_recall(gold: Any, pred: Any, trace: Any = None) -> float:
    """DSPy metric: share of ``gold.facts`` the report states and cites to their page."""
    return score_facts(report_text(pred), field(gold, "facts") or []).cited_recall
