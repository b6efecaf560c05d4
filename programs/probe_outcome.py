"""A closed probe, and how code closes one without a model call.

Kept apart from :mod:`programs.probe_loop` because the scheduler, checkpoints and stages
pass outcomes around without running a probe.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from citations.markup import CitedAnswer
from retrieval.search.hybrid import Hit
from signatures.probes import Probe
from signatures.synthesiser import Figure, ProbeAnswer


@dataclass
class ProbeOutcome:
    """A closed probe: its answer, every page it retrieved, and its record."""

    answer: ProbeAnswer
    pages: dict[str, Hit] = field(default_factory=dict)
    record: dict[str, Any] = field(default_factory=dict)


def closed_by_code(
    probe: Probe,
    index: int,
    answer: CitedAnswer,
    pages: dict[str, Hit],
    answered_by: str,
    figures: list[Figure] | None = None,
    extra: dict[str, Any] | None = None,
) -> ProbeOutcome:
    """A probe code answered (from statement facts, or a page's own sentence): accepted
    with no rounds, its pages counted as retrieved, its record saying what answered it."""
    figures = figures or []
    cited = [f.citation.uid for f in answer.references.footnotes]
    result = ProbeAnswer(
        index=index,
        probe_title=probe.probe_title,
        probe_question=probe.probe_question,
        answer=answer,
        rounds=0,
        figures=figures,
    )
    record = {
        "index": index,
        "title": probe.probe_title,
        "question": probe.probe_question,
        "status": "accepted",
        "answered_by": answered_by,
        "reason": "",
        "rounds": [],
        **(extra or {}),
        "fabricated_citations": 0,
        "searches": 0,
        "citations": [u for f in figures for u in f.uids] if figures else cited,
    }
    return ProbeOutcome(answer=result, pages=pages, record=record)
