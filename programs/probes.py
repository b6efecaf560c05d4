"""ProbeGenerator: 1..max_probes orthogonal probes for one slice.

The count bound and de-duplication are enforced in code, because an optimiser may compile
the instructions into something that forgets them; a generator that fails or returns
nothing falls back to the user's question as the single probe, so a slice is never lost.
With room for one probe there is nothing to split: the question is the probe, and no LM
call is made.
"""

from __future__ import annotations

import logging
import os
import re

import dspy

from domain.cells import SliceRef
from signatures.probes import MANDATORY_ANGLES_ENV, GenerateProbes, Probe, with_mandatory_angles

logger = logging.getLogger(__name__)


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def period_words(slice: SliceRef) -> str:
    """The slice's period as the model should read it: the 10-K cell (Q4) is the whole
    fiscal year. Shown "FY2022 Q4", a small model wrote probes about "the quarter ending in
    Q4" for questions about the year."""
    if slice.fq in (None, 4):
        return f"FY{slice.fy}, the full fiscal year"
    return f"FY{slice.fy} Q{slice.fq}, the fiscal quarter"


def slice_words(slice: SliceRef) -> str:
    """``GLW FY2022, the full fiscal year``: the slice as the probe writer is shown it."""
    return f"{slice.ticker} {period_words(slice)}"


def question_probe(question: str) -> Probe:
    """The user's question as the one probe of a slice."""
    return Probe(probe_title="The question", probe_question=question)


class ProbeGenerator(dspy.Module):
    def __init__(self, max_probes: int = 5, mandatory_angles: str | None = None) -> None:
        super().__init__()
        self.max_probes = max_probes
        angles = (
            mandatory_angles
            if mandatory_angles is not None
            else os.environ.get(MANDATORY_ANGLES_ENV)
        )
        self.mandatory_angles = (angles or "").strip()
        self.generate = dspy.Predict(with_mandatory_angles(GenerateProbes, angles))

    def forward(
        self,
        question: str,
        slice: SliceRef,
        slice_context: str = "",
        max_probes: int | None = None,
    ) -> dspy.Prediction:
        """``max_probes`` below the configured bound leaves room for probes code adds."""
        limit = min(max_probes or self.max_probes, self.max_probes)
        if limit == 1:
            return dspy.Prediction(probes=[question_probe(question)], error=None)
        error = None
        try:
            raw = self.generate(
                question=question,
                slice_label=slice_words(slice),
                slice_context=slice_context or slice_words(slice),
                max_probes=limit,
            ).probes
        except Exception as exc:
            logger.warning("probe generation failed for %s: %s", slice.label, exc)
            raw, error = [], f"probe generation failed ({type(exc).__name__})"
        probes: list[Probe] = []
        seen: set[str] = set()
        for item in raw or []:
            probe = item if isinstance(item, Probe) else Probe.model_validate(item)
            key = _key(probe.probe_question)
            if key and key not in seen:
                seen.add(key)
                probes.append(probe)
            if len(probes) == limit:
                break
        if not probes:
            probes = [question_probe(question)]
        return dspy.Prediction(probes=probes, error=error)
