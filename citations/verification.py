"""Verify an answer's citations against the pages actually retrieved while producing it.

A citation whose uid was never retrieved for that answer is fabricated: the LLM made up a
source (or copied one from elsewhere). It is removed from the text and from the Sources
block and counted, so the reviewer and the metrics can punish it. Markers with no footnote
(dangling) and footnotes never used in the text are reported too.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, Field

from citations.markup import MARKER_RE, CitedAnswer, Footnote, ReferenceList, parse_marker
from citations.renumbering import renumber, rewrite_markers


class VerificationResult(BaseModel):
    """What verification found, and the cleaned answer."""

    answer: CitedAnswer = Field(description="fabricated and dangling citations removed")
    fabricated: list[Footnote] = Field(default_factory=list)
    dangling_markers: list[int] = Field(
        default_factory=list, description="marker numbers with no footnote, sorted, unique"
    )
    unused_footnotes: list[int] = Field(
        default_factory=list, description="footnote numbers never referenced in the text"
    )

    @property
    def fabricated_count(self) -> int:
        return len(self.fabricated)

    @property
    def ok(self) -> bool:
        return not (self.fabricated or self.dangling_markers or self.unused_footnotes)


def used_numbers(body: str) -> set[int]:
    """Every citation number referenced by a marker in ``body``."""
    return {n for m in MARKER_RE.finditer(body) for n in parse_marker(m.group())}


def verify_answer(
    answer: CitedAnswer, retrieved_uids: Iterable[str] | None, *, renumber_result: bool = True
) -> VerificationResult:
    """Check ``answer`` against ``retrieved_uids`` (None: skip the fabrication check).

    The cleaned answer keeps only footnotes that are both used and retrieved, with markers
    rewritten to match; by default it is also renumbered so numbering stays contiguous.
    """
    allowed = None if retrieved_uids is None else set(retrieved_uids)
    used = used_numbers(answer.body)
    defined = {f.number for f in answer.references.footnotes}
    fabricated = [
        f
        for f in answer.references.footnotes
        if allowed is not None and f.citation.uid not in allowed
    ]
    bad_numbers = {f.number for f in fabricated}
    kept = [f for f in answer.references.footnotes if f.number not in bad_numbers]
    keep_numbers = {f.number for f in kept}
    body = rewrite_markers(answer.body, lambda n: n if n in keep_numbers else None)
    cleaned = CitedAnswer(
        body=body,
        references=ReferenceList(footnotes=[f for f in kept if f.number in used]),
        dagger_notes=list(answer.dagger_notes),
    )
    if renumber_result:
        cleaned = renumber(cleaned).model_copy(update={"dagger_notes": list(answer.dagger_notes)})
    return VerificationResult(
        answer=cleaned,
        fabricated=fabricated,
        dangling_markers=sorted(used - defined),
        unused_footnotes=sorted(defined - used),
    )
