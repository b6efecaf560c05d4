"""Merge cited answers and renumber their citations, deterministically.

A slice synthesiser merges probe answers (slice level); the report composer merges slice
results (report level). Both use the same rule, so report numbering is independent of the
numbering inside any slice:

* citations are de-duplicated by ``uid`` (one page, one number);
* numbers are assigned by first appearance in the merged text, from 1, without gaps;
* every inline marker is rewritten; a marker group is de-duplicated and sorted;
* footnotes never referenced in the text are dropped (they cannot be numbered by
  appearance), and markers whose number has no footnote are removed (nothing to point to).
  ``citations.verification`` counts both before they disappear.

Renumbering an already canonical answer changes nothing (idempotent).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from citations.markup import (
    MARKER_RE,
    Citation,
    CitedAnswer,
    DaggerNote,
    Footnote,
    ReferenceList,
    parse_marker,
    render_marker,
)


def rewrite_markers(text: str, mapping: Callable[[int], int | None]) -> str:
    """Rewrite every marker group through ``mapping``; numbers mapped to None are removed."""

    def _sub(match) -> str:
        new = sorted({m for n in parse_marker(match.group()) if (m := mapping(n)) is not None})
        return render_marker(new)

    return MARKER_RE.sub(_sub, text)


def merge_answers(
    answers: Sequence[CitedAnswer], separator: str = "\n\n"
) -> tuple[CitedAnswer, list[dict[int, int]]]:
    """Merge several answers into one, renumbered from 1 by first appearance.

    Returns the merged answer and, per input answer, the map old number -> new number, so a
    composer can translate references it wrote against the inputs.
    """
    uid_to_new: dict[str, int] = {}
    citations: list[Citation] = []
    mappings: list[dict[int, int]] = []
    for answer in answers:
        local = answer.references.by_number()
        mapping: dict[int, int] = {}
        for match in MARKER_RE.finditer(answer.body):
            for number in parse_marker(match.group()):
                cite = local.get(number)
                if cite is None:
                    continue
                if cite.uid not in uid_to_new:
                    uid_to_new[cite.uid] = len(citations) + 1
                    citations.append(cite)
                mapping[number] = uid_to_new[cite.uid]
        mappings.append(mapping)
    bodies = [
        rewrite_markers(a.body, m.get).strip() for a, m in zip(answers, mappings, strict=True)
    ]
    notes: list[DaggerNote] = []
    for answer in answers:
        notes.extend(n for n in answer.dagger_notes if n not in notes)
    merged = CitedAnswer(
        body=separator.join(b for b in bodies if b),
        references=ReferenceList(
            footnotes=[Footnote(number=i, citation=c) for i, c in enumerate(citations, 1)]
        ),
        dagger_notes=notes,
    )
    return merged, mappings


def renumber(answer: CitedAnswer) -> CitedAnswer:
    """Renumber one answer canonically (same rules as ``merge_answers``)."""
    merged, _ = merge_answers([answer])
    # Keep the body's own leading/trailing layout exactly as merging a single answer strips it.
    return merged
