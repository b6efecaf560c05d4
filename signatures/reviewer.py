"""Reviewer signature and verdict: a portfolio manager who reads the evidence, not only prose.

The verdict is parsed into :class:`ReviewVerdict`; if the model's output cannot be parsed
the program fails closed (the draft is not accepted), see ``programs.reviewer``.
"""

from __future__ import annotations

import dspy
from pydantic import BaseModel, Field

MAX_FOLLOW_UPS = 3


class ReviewDraft(dspy.Signature):
    """Review an analyst's draft against the filing pages it cites. Be terse.

    You are a portfolio manager who will act on this answer. Accept it (done = true) only if
    all of the following hold; otherwise send at most three short follow-up prompts naming
    exactly what to fix or find:
    - It answers the probe question directly.
    - Every numeric claim cites a primary page (a financial statement, its notes, or the
      filing's own tables) and the number appears on the cited evidence page.
    - No unsupported precision: no figures, growth rates or ratios that the pages do not
      give or that cannot be computed from cited numbers.
    - Both sides of the case: if the draft argues a trend, it states what cuts the other way
      when the evidence shows it.
    - No hedging that hides missing data: a gap is stated as a gap.
    Set insufficient_evidence = true (with done = true) when the evidence pages clearly cannot
    answer the probe, so further rounds would not help. On the last round, decide: accept,
    or mark insufficient evidence.
    """

    question: str = dspy.InputField(desc="the user's full research question")
    slice_label: str = dspy.InputField()
    probe_question: str = dspy.InputField()
    draft: str = dspy.InputField(desc="the analyst's Markdown draft with its Sources block")
    evidence: str = dspy.InputField(desc="text of the pages the draft cites, by citation number")
    verification: str = dspy.InputField(desc="what citation checking found (fabricated, uncited)")
    round_number: int = dspy.InputField()
    max_rounds: int = dspy.InputField()
    done: bool = dspy.OutputField(desc="true to accept the draft (or to stop: see below)")
    follow_up_prompts: list[str] = dspy.OutputField(desc="at most 3; empty when done")
    insufficient_evidence: bool = dspy.OutputField(desc="true if the filings cannot answer it")


class ReviewVerdict(BaseModel):
    """The reviewer's decision on one draft, as the probe loop acts on it."""

    done: bool = False
    follow_up_prompts: list[str] = Field(default_factory=list, max_length=MAX_FOLLOW_UPS)
    insufficient_evidence: bool = False
    parsed: bool = Field(default=True, description="false when the LM output was unusable")
    reason: str = ""

    def describe(self, number: int) -> str:
        """The verdict of round ``number`` as the live trace shows it."""
        if self.done:
            state = "insufficient evidence" if self.insufficient_evidence else "accepted"
        else:
            state = f"{len(self.follow_up_prompts)} follow-up(s)"
        return f"round {number}: {state}" + ("" if self.parsed else " (unparsed verdict)")
