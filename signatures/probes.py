"""ProbeGenerator signature: the analytic angles a slice is researched from.

``MANDATORY_ANGLES`` is a placeholder line in the instructions. A desk can require angles
(e.g. "capital allocation; liquidity") through ``ResearchSettings.mandatory_angles`` or the
``WISSEN_MANDATORY_ANGLES`` environment variable without touching code; the line stays in
the prompt either way, so an optimiser compiles around it rather than deleting the slot.
"""

from __future__ import annotations

import dspy
from pydantic import BaseModel, Field

MANDATORY_ANGLES_PLACEHOLDER = "MANDATORY_ANGLES: none"
MANDATORY_ANGLES_ENV = "WISSEN_MANDATORY_ANGLES"
#: The title suffix of a probe code answers from statement facts, with no model call: the
#: research program reads the figure's title back from it.
FROM_THE_STATEMENTS = " (from the statements)"


class Probe(BaseModel):
    """One analytic angle on one slice."""

    probe_title: str = Field(min_length=1, description="short noun phrase, e.g. 'Capex trend'")
    probe_question: str = Field(min_length=1, description="one answerable question")


class GenerateProbes(dspy.Signature):
    """Split an equity research question into orthogonal probes for one filing slice.

    You are a senior equity analyst planning the work on one company-period (a slice of the
    filing grid: one ticker, one fiscal year, one fiscal quarter). Write between 1 and
    `max_probes` probes; each is a question a researcher can answer from that slice's
    filings alone (10-K, 10-Q, 8-K, earnings release).

    - Cover what the user asked first; add an angle only if it changes the answer (the
      drivers of a number, the other side of the case, a risk the filing discloses).
    - Probes must not overlap: two probes that would read the same pages for the same
      number are one probe.
    - Name line items as filings print them ("purchases of property, plant and equipment",
      "net cash provided by operating activities") so searches find the statements.
    - Stay inside the slice: no other companies, no other years, no forecasts.
    - Fewer, sharper probes beat many vague ones; a narrow factual question needs one probe.

    MANDATORY_ANGLES: none
    """

    question: str = dspy.InputField(desc="the user's full research question")
    slice_label: str = dspy.InputField(desc="the slice, e.g. 'MMM FY2022, the full fiscal year'")
    slice_context: str = dspy.InputField(desc="company name and the documents the slice holds")
    max_probes: int = dspy.InputField()
    probes: list[Probe] = dspy.OutputField(desc="1..max_probes orthogonal probes")


def with_mandatory_angles(signature: type[dspy.Signature], angles: str | None):
    """The signature with its MANDATORY_ANGLES line filled in (unchanged if no angles)."""
    angles = (angles or "").strip()
    if not angles or MANDATORY_ANGLES_PLACEHOLDER not in signature.instructions:
        return signature
    line = (
        "MANDATORY_ANGLES: every slice must have a probe on each of these angles, in addition "
        f"to the user's question: {angles}"
    )
    return signature.with_instructions(
        signature.instructions.replace(MANDATORY_ANGLES_PLACEHOLDER, line)
    )
