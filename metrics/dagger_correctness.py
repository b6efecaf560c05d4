"""Dagger correctness: are the daggers exactly where flagged slices' data is used?

A sentence *should* carry ``†`` when it cites a page (uid) belonging to a slice with open
issues. Precision: share of daggered sentences that should be; recall: share of sentences
that should be daggered that are; explanation: share of flagged slices used in the text
that have a ``† Evidence incomplete for <slice label> – …`` note (and 0 if daggers appear
with no note at all). The score is the mean of the three, so a composer that never daggers
and one that daggers everything are both penalised, and a bare dagger is not enough.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, Field

from citations.daggers import SliceResult
from citations.markup import CitedAnswer
from citations.sentences import split_sentences
from metrics._inputs import as_answer, field, report_text

FlaggedSlices = Mapping[str, Iterable[str]] | Sequence[SliceResult]


class DaggerResult(BaseModel):
    daggered: int = 0
    expected: int = 0
    correct: int = 0
    slices_used: list[str] = Field(default_factory=list)
    slices_explained: list[str] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list, description="sentences lacking a dagger")
    spurious: list[str] = Field(default_factory=list, description="daggers with no cause")
    unexplained_daggers: bool = False

    @property
    def precision(self) -> float:
        return self.correct / self.daggered if self.daggered else 1.0

    @property
    def recall(self) -> float:
        return self.correct / self.expected if self.expected else 1.0

    @property
    def explained(self) -> float:
        if self.unexplained_daggers:
            return 0.0
        if not self.slices_used:
            return 1.0
        return len(self.slices_explained) / len(self.slices_used)

    @property
    def score(self) -> float:
        return (self.precision + self.recall + self.explained) / 3


def flagged_uid_map(flagged: FlaggedSlices | None) -> dict[str, set[str]]:
    """Slice label -> uids, from SliceResults (only those with open issues) or a mapping."""
    if not flagged:
        return {}
    if isinstance(flagged, Mapping):
        return {label: set(uids) for label, uids in flagged.items()}
    return {r.slice.label: r.uids() for r in flagged if r.flagged}


def score_daggers(report: str | CitedAnswer, flagged: FlaggedSlices | None) -> DaggerResult:
    """Compare the daggers of ``report`` with the slices that have open issues."""
    answer = as_answer(report)
    slices = flagged_uid_map(flagged)
    uid_of = {n: c.uid for n, c in answer.references.by_number().items()}
    result = DaggerResult()
    used: list[str] = []
    for sentence in split_sentences(answer.body):
        uids = {uid_of[n] for n in sentence.markers if n in uid_of}
        hit = [label for label, s_uids in slices.items() if uids & s_uids]
        used.extend(label for label in hit if label not in used)
        result.expected += bool(hit)
        result.daggered += sentence.has_dagger
        if hit and sentence.has_dagger:
            result.correct += 1
        elif hit:
            result.missing.append(sentence.text)
        elif sentence.has_dagger:
            result.spurious.append(sentence.text)
    noted = {n.slice_label for n in answer.dagger_notes}
    result.slices_used = used
    result.slices_explained = [label for label in used if label in noted]
    result.unexplained_daggers = result.daggered > 0 and not answer.dagger_notes
    return result


def dagger_correctness(gold: Any, pred: Any, trace: Any = None) -> float:
    """DSPy metric: uses ``pred.flagged_slices``, else ``gold.flagged_slices``."""
    flagged = field(pred, "flagged_slices") or field(gold, "flagged_slices")
    return score_daggers(report_text(pred), flagged).score
