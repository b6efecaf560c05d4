"""Numeric grounding: does each number in the report appear on a page it cites?

A number cites the pages of the marker directly after it, else those of its sentence. It is
grounded when some cited page holds the same quantity after normalising format and scale
(``$1,577 million`` ~ ``1.577 billion`` ~ ``1577.0``; ``24.3%`` ~ ``0.243``; ``(1,577)`` is
-1577 and matched by magnitude), within 1% relative tolerance as in FinLFQA, or within the
precision the writer rounded to. Years and citation numbers are not claims. Numbers with no
citation, or citing only pages whose text is unknown, are not grounded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field

from citations.markup import CitedAnswer, parse_marker
from citations.sentences import split_sentences
from metrics._inputs import as_answer, field, report_text
from metrics.citation_coverage import FOLLOWING_MARKER_RE
from metrics.numbers import NumberIndex, extract_numbers


class GroundingResult(BaseModel):
    numbers: int = 0
    grounded: int = 0
    uncited: list[str] = Field(default_factory=list, description="numbers citing nothing")
    unverifiable: list[str] = Field(default_factory=list, description="cited pages unknown")
    ungrounded: list[str] = Field(default_factory=list, description="not on the cited pages")

    @property
    def score(self) -> float:
        """Share of numbers grounded; 1.0 for a text without numbers (nothing to get wrong)."""
        return self.grounded / self.numbers if self.numbers else 1.0


def score_numeric_grounding(
    report: str | CitedAnswer, page_texts: Mapping[str, str], rel_tol: float = 0.01
) -> GroundingResult:
    """Check every number of ``report`` against the text of the pages it cites (uid -> text)."""
    answer = as_answer(report)
    uid_of = {n: c.uid for n, c in answer.references.by_number().items()}
    result = GroundingResult()
    for sentence in split_sentences(answer.body):
        for token in extract_numbers(sentence.text):
            result.numbers += 1
            m = FOLLOWING_MARKER_RE.match(sentence.text, token.end)
            numbers = parse_marker(m.group(1)) if m else list(sentence.markers)
            uids = [uid_of[n] for n in numbers if n in uid_of]
            texts = [page_texts[u] for u in uids if u in page_texts]
            if not uids:
                result.uncited.append(token.raw)
            elif not texts:
                result.unverifiable.append(token.raw)
            elif any(NumberIndex.from_text(t).matches(token, rel_tol=rel_tol) for t in texts):
                result.grounded += 1
            else:
                result.ungrounded.append(token.raw)
    return result


def numeric_grounding(gold: Any, pred: Any, trace: Any = None) -> float:
    """DSPy metric: grounding of ``pred.report`` against ``pred.page_texts`` (uid -> text)."""
    return score_numeric_grounding(report_text(pred), field(pred, "page_texts", {}) or {}).score
