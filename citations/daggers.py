"""Daggers: mark report sentences whose data comes from a slice with open issues.

A slice result carries ``open_issues`` such as ``"† Probe 2: insufficient evidence"``. A
sentence of the report "uses a slice's data" when it cites a page (uid) that the slice's
answer cites. Every such sentence gets a ``†`` right after its markers
(``…fell 3%.¹˒²†``), and the Notes block explains each dagger once per flagged slice used:
``† Evidence incomplete for KO FY2024 Q1 – see Probe 2``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel, Field

from citations.markup import DAGGER, CitedAnswer, DaggerNote
from citations.sentences import Sentence, split_sentences
from domain.cells import SliceRef


class SliceResult(BaseModel):
    """What the slice synthesiser hands the report composer (minimal form)."""

    slice: SliceRef
    answer: CitedAnswer = Field(default_factory=CitedAnswer)
    open_issues: list[str] = Field(default_factory=list)

    @property
    def flagged(self) -> bool:
        return bool(self.open_issues)

    def uids(self) -> set[str]:
        return self.answer.references.uids()


_PROBE_RE = re.compile(r"(Probe\s+\d+)", re.IGNORECASE)
_ASKED_RE = re.compile(r"“(?P<question>[^”]+)”(?:\s*\((?P<why>.*)\))?\s*$")


def explain_issue(issue: str) -> str:
    """What a dagger's note says: ``"† Probe 2: insufficient evidence on “What drove …?”
    (reason)"`` -> ``"the filing pages found do not answer “What drove …?” (reason)"``; an
    issue that names no question keeps its own words. Never "see Probe 2": the report has
    no section of that name, and a reader needs to know what is missing, not where."""
    if m := _ASKED_RE.search(issue):
        why = f" ({m.group('why')})" if m.group("why") else ""
        return f"the filing pages found do not answer “{m.group('question')}”{why}"
    text = issue.strip().lstrip(DAGGER).strip()
    if m := _PROBE_RE.match(text):
        text = text[m.end() :].lstrip(": ").strip() or "insufficient evidence"
    return text or "open issue"


def dagger_notes_for(result: SliceResult) -> list[DaggerNote]:
    """One note per open issue of a flagged slice (de-duplicated, order kept)."""
    notes: list[DaggerNote] = []
    for issue in result.open_issues:
        note = DaggerNote(slice_label=result.slice.label, reason=explain_issue(issue))
        if note not in notes:
            notes.append(note)
    return notes


def cited_uids(sentence: Sentence, answer: CitedAnswer) -> set[str]:
    """The uids a sentence points at through its markers."""
    table = answer.references.by_number()
    return {table[n].uid for n in sentence.markers if n in table}


def flagged_uids(slices: Sequence[SliceResult]) -> dict[str, list[SliceResult]]:
    """uid -> flagged slices whose answers cite that page."""
    out: dict[str, list[SliceResult]] = {}
    for result in slices:
        if result.flagged:
            for uid in result.uids():
                out.setdefault(uid, []).append(result)
    return out


def apply_daggers(report: CitedAnswer, slices: Sequence[SliceResult]) -> CitedAnswer:
    """Put ``†`` on every sentence that uses a flagged slice's data; add the Notes block.

    Idempotent: existing daggers on those sentences are kept, not doubled; daggers on
    sentences that use no flagged data are removed (they would claim a gap that isn't there).
    """
    by_uid = flagged_uids(slices)
    used: list[SliceResult] = []
    body = report.body
    pieces: list[str] = []
    cursor = 0
    for sentence in split_sentences(body):
        hits = [r for uid in sorted(cited_uids(sentence, report)) for r in by_uid.get(uid, [])]
        text = sentence.text.replace(DAGGER, "")
        if hits:
            text = text + DAGGER
            for r in hits:
                if r not in used:
                    used.append(r)
        pieces.append(body[cursor : sentence.start])
        pieces.append(text)
        cursor = sentence.end
    pieces.append(body[cursor:])
    notes = [n for r in used for n in dagger_notes_for(r)]
    kept = [
        n
        for n in report.dagger_notes
        if n not in notes and n.slice_label not in {r.slice.label for r in slices}
    ]
    return report.model_copy(update={"body": "".join(pieces), "dagger_notes": kept + notes})
