"""The answer as it stands: findings that answer the question with no model composing them.

A model re-telling findings loses their answer among them, and costs a call; where the
findings already hold the answer, it is shown as they state it (cited, checked), and the
composer adds only code's lines (verdicts, changes, gaps):

- the only slice with one researched probe at most: its cited answers (:func:`single_finding`);
- the only slice with angles beside the question's own probe: that probe and code's
  figures (:func:`answer_to_the_question`);
- several slices whose question probe a page answered in its own words, by code (the
  sentence saying what drove a trend's figure, :mod:`programs.page_answers`): that answer
  (:func:`code_answer_to_the_question`).
"""

from __future__ import annotations

from collections.abc import Sequence

from citations.markup import CitedAnswer, iter_markers
from metrics.answer_verdicts import yes_no_polarity
from programs.synthesiser import merge_parts, researched
from signatures.synthesiser import ProbeAnswer, SliceReport


def cites(body: str) -> bool:
    """Whether ``body`` carries a citation marker at all."""
    return next(iter_markers(body), None) is not None


def single_finding(slices: Sequence[SliceReport]) -> str | None:
    """The answer as it stands, when the only slice has one researched probe at most (its
    other probes code's figures): the probes' cited answers, code's figure with its verdict
    first, then an answer that opens with a yes or a no, then the rest in order (code's
    figure before the researched answer); None otherwise, or when none of them cites
    anything. "Is 3M a capital-intensive business?", which code gives no verdict when its
    capex share is neither plainly high nor plainly low, is so answered "Yes, …" or "No, …"
    before the figure the answer rests on."""
    if len(slices) != 1 or len(researched(slices[0].probe_answers)) > 1:
        return None
    probes = slices[0].probe_answers
    cited = [p for p in probes if p.answer.references.footnotes and cites(p.answer.body)]

    def place(probe: ProbeAnswer) -> int:  # stable sort: code's verdict, a yes/no, the rest
        if any(f.verdict for f in probe.figures):
            return 0
        return 1 if yes_no_polarity(probe.answer.body.strip()) is not None else 2

    return "\n\n".join(p.answer.body.strip() for p in sorted(cited, key=place)) or None


def answer_to_the_question(slices: Sequence[SliceReport], question: str) -> CitedAnswer | None:
    """The only slice's answer to the question as asked, when it has angles beside it: code's
    figures and the question's own probe (its first), cited. The angles are findings; a model
    re-telling them all as the answer lost the question's answer among them (a Verizon
    capital-intensity report whose opening "Yes" went missing)."""
    if len(slices) != 1 or len(researched(slices[0].probe_answers)) < 2:
        return None
    probes = slices[0].probe_answers
    asked = [p for p in researched(probes) if p.probe_question == question][:1]
    chosen = [p for p in probes if p.figures or p in asked]
    cited = [p.answer for p in chosen if p.answer.references.footnotes and cites(p.answer.body)]
    if not asked or not any(a is asked[0].answer for a in cited):
        return None
    merged, _ = merge_parts(cited)
    return merged


def code_answer_to_the_question(slices: Sequence[SliceReport], question: str) -> CitedAnswer | None:
    """The question's own probe answered by code from a page (no rounds, no figure), when
    exactly one slice has it and there are several slices. "What drove Oracle's operating
    margin change in FY2022?" had the 10-K's sentence as its FY2022 probe's answer, beside
    both years' margins; the composed answer gave the margins and left the sentence out."""
    if len(slices) < 2:
        return None
    asked = [
        p
        for report in slices
        for p in report.probe_answers
        if p.probe_question == question and p.rounds == 0 and not p.figures
    ]
    cited = [p.answer for p in asked if p.answer.references.footnotes and cites(p.answer.body)]
    return cited[0] if len(cited) == 1 else None
