"""Reviewer: the portfolio manager's verdict on one draft, failing closed.

An unreadable verdict never passes a draft: before the last round it asks for another
round, at the cap it closes the probe as insufficient evidence. Follow-ups are capped at
three in code, whatever the compiled prompt says.
"""

from __future__ import annotations

import logging

import dspy

from signatures.reviewer import MAX_FOLLOW_UPS, ReviewDraft, ReviewVerdict

logger = logging.getLogger(__name__)

UNPARSED_FOLLOW_UP = (
    "The review could not be completed: re-check that every sentence and every number cites "
    "a page you retrieved, and state plainly what the filings do not show."
)


def _as_bool(value: object) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in {"true", "false"}:
        return value.strip().lower() == "true"
    return None


class Reviewer(dspy.Module):
    def __init__(self, max_follow_ups: int = MAX_FOLLOW_UPS) -> None:
        super().__init__()
        self.max_follow_ups = min(max_follow_ups, MAX_FOLLOW_UPS)
        self.review = dspy.Predict(ReviewDraft)

    def fail_closed(self, round_number: int, max_rounds: int, reason: str) -> ReviewVerdict:
        """Not done before the cap; done with insufficient evidence at it."""
        at_cap = round_number >= max_rounds
        return ReviewVerdict(
            done=at_cap,
            insufficient_evidence=at_cap,
            follow_up_prompts=[] if at_cap else [UNPARSED_FOLLOW_UP],
            parsed=False,
            reason=reason,
        )

    def forward(
        self,
        question: str,
        slice_label: str,
        probe_question: str,
        draft: str,
        evidence: str,
        verification: str,
        round_number: int,
        max_rounds: int,
    ) -> ReviewVerdict:
        try:
            out = self.review(
                question=question,
                slice_label=slice_label,
                probe_question=probe_question,
                draft=draft,
                evidence=evidence,
                verification=verification,
                round_number=round_number,
                max_rounds=max_rounds,
            )
        except Exception as exc:
            logger.warning("review of %s failed: %s", slice_label, exc)
            return self.fail_closed(
                round_number, max_rounds, f"reviewer output unusable ({type(exc).__name__})"
            )
        done = _as_bool(out.done)
        insufficient = _as_bool(out.insufficient_evidence)
        if done is None or insufficient is None:
            return self.fail_closed(round_number, max_rounds, "reviewer verdict not boolean")
        if insufficient:
            # "Insufficient evidence" closes the probe whatever `done` says: flagged, not passed.
            return ReviewVerdict(
                done=True, insufficient_evidence=True, reason="reviewer: insufficient evidence"
            )
        prompts = [str(p).strip() for p in (out.follow_up_prompts or []) if str(p).strip()]
        prompts = prompts[: self.max_follow_ups]
        if not done and not prompts:
            prompts = ["Tighten the draft: cite a primary page for every number."]
        return ReviewVerdict(done=done, follow_up_prompts=[] if done else prompts)
