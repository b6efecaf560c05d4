"""SliceSynthesiser: probe answers -> one slice result with a cited 200-400 word summary.

The protocol does the books: probe answers are merged and renumbered slice-wide
(``merge_answers``), the summary may cite only those numbers (anything else is removed by
``verify_answer`` and counted), and the summary, the probe answers and the slice's one
Sources list share a numbering. Open issues come from the probes, not from the LLM.
A slice with one probe answer has nothing to bring together: that answer is the slice's
finding, and no summary is written (no LM call).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence

import dspy

from citations.markup import CitedAnswer, Footnote, ReferenceList, parse_cited_answer
from citations.renumbering import merge_answers, rewrite_markers
from citations.sentences import without_uncited
from citations.verification import verify_answer
from domain.cells import SliceRef
from signatures.synthesiser import ProbeAnswer, SliceReport, SynthesiseSlice

logger = logging.getLogger(__name__)


def merge_parts(parts: Sequence[CitedAnswer]) -> tuple[CitedAnswer, list[CitedAnswer]]:
    """Merge ``parts`` (numbered from 1 by first appearance) and each part in that numbering.

    Each returned part keeps its own body with markers rewritten to the merged numbers and
    the subset of merged footnotes it uses, so a section can be shown alone and still agree
    with the merged Sources list.
    """
    merged, mappings = merge_answers(parts)
    by_number = merged.references.by_number()
    renumbered = []
    for part, mapping in zip(parts, mappings, strict=True):
        used = sorted(set(mapping.values()))
        renumbered.append(
            CitedAnswer(
                body=rewrite_markers(part.body, mapping.get).strip(),
                references=ReferenceList(
                    footnotes=[Footnote(number=n, citation=by_number[n]) for n in used]
                ),
                dagger_notes=list(part.dagger_notes),
            )
        )
    return merged, renumbered


def with_references(text: str, references: ReferenceList) -> CitedAnswer:
    """An LLM's prose read against the references it was given (its own list if it wrote one)."""
    parsed = parse_cited_answer(text or "")
    if parsed.references.footnotes:
        return parsed
    return CitedAnswer(body=parsed.body, references=references)


def word_count(text: str) -> int:
    return len(re.findall(r"[A-Za-z0-9$%][\w$%.,'-]*", text))


def researched(probes: Sequence[ProbeAnswer]) -> list[ProbeAnswer]:
    """The probes a model answered: not the figures code computed from the statements."""
    return [p for p in probes if not p.figures]


class SliceSynthesiser(dspy.Module):
    """A slice's probe answers -> its summary. A slice with one researched probe (beside
    figures code computed, if any) needs none: its answers are its finding as they stand,
    and a model re-telling code's figure can only misquote it."""

    def __init__(self) -> None:
        super().__init__()
        self.synthesise = dspy.Predict(SynthesiseSlice)

    def forward(
        self,
        question: str,
        slice: SliceRef,
        probe_answers: Sequence[ProbeAnswer],
        retrieved_uids: Iterable[str],
    ) -> dspy.Prediction:
        retrieved = sorted(set(retrieved_uids))
        probes = sorted(probe_answers, key=lambda p: p.index)
        open_issues = [p.open_issue for p in probes if p.open_issue]
        sections = [
            CitedAnswer(
                body=f"#### Probe {p.index}: {p.probe_title}\n\n"
                + (p.answer.body.strip() or "_No answer: insufficient evidence._"),
                references=p.answer.references,
            )
            for p in probes
        ]
        merged_probes, _ = merge_parts(sections)
        summary, fabricated, error = CitedAnswer(), 0, None
        if len(researched(probes)) > 1:
            summary, fabricated, error = self._summary(
                question, slice, merged_probes, open_issues, retrieved
            )
        if error:
            # The probes' findings still stand, but nothing checked them together: flag it.
            open_issues = [*open_issues, f"slice summary not written ({error.split(':')[0]})"]
        merged, parts = merge_parts([summary, *(p.answer for p in probes)])
        renumbered_probes = [
            p.model_copy(update={"answer": part}) for p, part in zip(probes, parts[1:], strict=True)
        ]
        body = "\n\n".join(
            [parts[0].body]
            + [
                f"#### Probe {p.index}: {p.probe_title}\n\n"
                + (p.answer.body or "_No answer: insufficient evidence._")
                for p in renumbered_probes
            ]
        ).strip()
        merged = CitedAnswer(body=body, references=merged.references)
        report = SliceReport(
            slice=slice,
            answer=merged,
            open_issues=open_issues,
            summary=parts[0],
            probe_answers=renumbered_probes,
            retrieved_uids=retrieved,
        )
        return dspy.Prediction(
            slice_report=report,
            summary_words=word_count(parts[0].body),
            fabricated_citations=fabricated,
            error=error,
        )

    def _summary(
        self,
        question: str,
        slice: SliceRef,
        merged_probes: CitedAnswer,
        open_issues: list[str],
        retrieved: list[str],
    ) -> tuple[CitedAnswer, int, str | None]:
        """(the verified summary, fabricated citations removed, the error if it failed)."""
        try:
            out = self.synthesise(
                question=question,
                slice_label=slice.label,
                probe_answers=merged_probes.to_markdown(),
                open_issues="\n".join(open_issues) or "none",
            )
            checked = verify_answer(
                with_references(str(out.slice_summary or ""), merged_probes.references),
                retrieved,
                renumber_result=False,
            )
        except Exception as exc:
            logger.warning("slice synthesis failed for %s: %s", slice.label, exc)
            return CitedAnswer(), 0, f"{type(exc).__name__}: {exc}"[:500]
        summary = checked.answer.model_copy(update={"body": without_uncited(checked.answer.body)})
        return summary, checked.fabricated_count, None
