"""Citation coverage: is every sentence and every number followed by a valid citation?

The protocol asks for a marker after every sentence and every numeric token. A sentence
counts as cited when it carries at least one valid marker (anywhere in it, usually at the
end); a number counts when a valid marker follows it directly (closing punctuation such as
``.`` ``,`` ``)`` may sit in between: ``$1,577 million.¹``). A marker is valid when its
number has a footnote and, if the retrieved uids are known, that footnote's uid was
retrieved (a fabricated citation covers nothing).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, Field

from citations.markup import MARKER_RE, CitedAnswer, parse_marker
from citations.sentences import split_sentences
from metrics._inputs import as_answer, field, report_text
from metrics.numbers import extract_numbers

FOLLOWING_MARKER_RE = re.compile(rf"[\s.,;:)\]*_]{{0,3}}({MARKER_RE.pattern})")


class CoverageResult(BaseModel):
    sentences: int = 0
    cited_sentences: int = 0
    numbers: int = 0
    cited_numbers: int = 0
    uncited_sentences: list[str] = Field(default_factory=list)
    uncited_numbers: list[str] = Field(default_factory=list)

    @property
    def sentence_coverage(self) -> float:
        return self.cited_sentences / self.sentences if self.sentences else 0.0

    @property
    def numeric_coverage(self) -> float:
        """Share of numbers cited; 1.0 when the text has no numbers (nothing to cite)."""
        return self.cited_numbers / self.numbers if self.numbers else 1.0

    @property
    def score(self) -> float:
        """Mean of sentence and numeric coverage (sentence coverage alone without numbers)."""
        if not self.sentences:
            return 0.0
        if not self.numbers:
            return self.sentence_coverage
        return (self.sentence_coverage + self.numeric_coverage) / 2


def valid_numbers(answer: CitedAnswer, retrieved_uids: Iterable[str] | None = None) -> set[int]:
    """Citation numbers that resolve to a footnote (whose uid was retrieved, if known)."""
    allowed = None if retrieved_uids is None else set(retrieved_uids)
    return {
        f.number
        for f in answer.references.footnotes
        if allowed is None or f.citation.uid in allowed
    }


def score_citation_coverage(
    report: str | CitedAnswer, retrieved_uids: Iterable[str] | None = None
) -> CoverageResult:
    """Coverage of a report (Markdown or parsed); see the module docstring for the rules."""
    answer = as_answer(report)
    valid = valid_numbers(answer, retrieved_uids)
    result = CoverageResult()
    for sentence in split_sentences(answer.body):
        result.sentences += 1
        if valid.intersection(sentence.markers):
            result.cited_sentences += 1
        else:
            result.uncited_sentences.append(sentence.text)
        # Numbers are counted inside claim units only: headings and table headers are labels.
        for token in extract_numbers(sentence.text):
            result.numbers += 1
            m = FOLLOWING_MARKER_RE.match(sentence.text, token.end)
            if m and valid.intersection(parse_marker(m.group(1))):
                result.cited_numbers += 1
            else:
                result.uncited_numbers.append(token.raw)
    return result


def citation_coverage(gold: Any, pred: Any, trace: Any = None) -> float:
    """DSPy metric: combined coverage of ``pred.report`` (uses ``pred.retrieved_uids`` if set)."""
    return score_citation_coverage(report_text(pred), field(pred, "retrieved_uids")).score
