"""SliceSynthesiser signature and the slice-level result it produces.

The LLM writes the summary prose; merging the probe answers, numbering citations within
the slice and listing open issues are code (``citations.renumbering``), so
:class:`SliceReport` numbers are consistent across the summary, the probe answers and the
one Sources list of the slice.
"""

from __future__ import annotations

import dspy
from pydantic import BaseModel, Field

from citations.daggers import SliceResult
from citations.markup import CitedAnswer, Footnote


class Figure(BaseModel):
    """A figure computed by code from statement facts: what the table and Notes show of it.

    ``formula`` is the Notes line with the inputs' citations numbered 1..n in ``uids`` order
    (renumbered when the report's numbering is known); empty for a single line item.
    """

    title: str
    period: str
    value: float
    unit: str
    text: str = Field(description="the value as stated, e.g. '$4,817.3 million'")
    formula: str = ""
    uids: list[str] = Field(default_factory=list)
    inputs: list[str] = Field(default_factory=list, description="each input as read")
    verdict: str = Field(
        default="", description="code's yes/no against a shared benchmark (programs.verdicts)"
    )


class ProbeAnswer(BaseModel):
    """One probe's final answer (verified citations) and how it closed."""

    index: int = Field(ge=1, description="1-based probe number within the slice")
    probe_title: str
    probe_question: str
    answer: CitedAnswer = Field(default_factory=CitedAnswer)
    insufficient_evidence: bool = False
    reason: str = Field(default="", description="why evidence is insufficient, if it is")
    rounds: int = 0
    figures: list[Figure] = Field(default_factory=list, description="computed by code")

    @property
    def open_issue(self) -> str | None:
        """``† Probe 2: insufficient evidence on “What drove …?” (why)``: the dagger
        protocol's wording with the probe's question, so a dagger's note can say what is
        missing in words a reader acts on (no section of the report is named "Probe 2");
        None when the probe closed with its evidence."""
        if not self.insufficient_evidence:
            return None
        return f"† Probe {self.index}: insufficient evidence on “{self.probe_question}”" + (
            f" ({self.reason})" if self.reason else ""
        )


class SliceReport(SliceResult):
    """A synthesised slice: ``answer`` is summary + probe answers, numbered within the slice.

    Being a :class:`SliceResult`, it feeds ``apply_daggers`` and the dagger metric directly.
    """

    summary: CitedAnswer = Field(default_factory=CitedAnswer, description="slice-numbered")
    probe_answers: list[ProbeAnswer] = Field(default_factory=list, description="slice-numbered")
    retrieved_uids: list[str] = Field(default_factory=list)

    @property
    def slice_summary(self) -> str:
        return self.summary.body

    @property
    def citations(self) -> list[Footnote]:
        return list(self.answer.references.footnotes)


class SynthesiseSlice(dspy.Signature):
    """Summarise the researched probes of one slice in 200-400 words, citing every claim.

    You are the senior analyst signing off this company-period. Write a summary that covers
    every probe, leads with the answer to the user's question, and keeps the numbers
    exactly as the probe answers give them.
    - Reuse the probe answers' citation markers (superscript numbers, slice-wide, as listed
      in the Sources block): every sentence and every number ends with one. Add no Sources
      block of your own and cite nothing that is not listed.
    - State open issues plainly ("the filing does not disclose …"); do not paper over them.
    - Plain Markdown paragraphs; no headings, no tables.
    """

    question: str = dspy.InputField(desc="the user's full research question")
    slice_label: str = dspy.InputField()
    probe_answers: str = dspy.InputField(desc="the probes' answers with one Sources block")
    open_issues: str = dspy.InputField(desc="probes that closed with insufficient evidence")
    slice_summary: str = dspy.OutputField(desc="200-400 words, cited with the given markers")
