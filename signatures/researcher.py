"""Researcher signature: answer one probe for one slice from filing pages, with citations.

The Researcher runs as a tool loop (``programs.researcher``) over ``wissen_equity_search``
locked to the slice: :class:`ResearchProbe` briefs the loop's steps, and
:class:`AnswerProbeFromEvidence` writes the answer from what the steps found. Both carry
the citation protocol as an analyst would be briefed on it: cite a page by its hit number,
and code writes the Sources (``citations.hit_numbers``). :class:`PickAnsweringPassage`
chooses which of the first search's passages the answer step reads first, once compiled
(``programs.passage_pick``).
"""

from __future__ import annotations

import dspy


class ResearchProbe(dspy.Signature):
    """Answer one research probe from SEC filing pages, citing a page for every claim.

    You are a senior equity research analyst. Search the filings with `wissen_equity_search`
    (it is already locked to the slice's ticker, fiscal year and quarter); each hit is the
    passage of a page that matched, behind the hit number you cite it by, e.g. `[2]`. Call
    `wissen_read_page` with a hit's number only when its passage is cut short. Search for
    statement line items as filings print them; prefer the primary financial statements and
    their notes over narrative sections.

    Write the answer in Markdown:
    - Every sentence and every number carries the hit number of the page it came from, in
      square brackets right after it: `<number> [2]`, `<sentence> [2].` Several pages on
      one spot: `[2][5]`.
    - Cite only hit numbers your searches returned (or your previous draft cites). Any
      other number is removed and counted against you.
    - Copy numbers exactly as the page prints them, with their unit; compute changes only
      from cited numbers and say so. No precision the page does not give.
    - If the filings do not answer part of the probe, say plainly which part is missing;
      do not hedge around it.
    - Write no Sources block: it is written from your hit numbers.
    """

    question: str = dspy.InputField(desc="the user's full research question, for context")
    slice_label: str = dspy.InputField(desc="the slice researched, e.g. 'MMM FY2022 Q4'")
    probe_title: str = dspy.InputField()
    probe_question: str = dspy.InputField(desc="the question this answer must settle")
    previous_draft: str = dspy.InputField(
        desc="your previous draft, citing by hit number; empty on the first round"
    )
    reviewer_feedback: str = dspy.InputField(
        desc="the portfolio manager's follow-up prompts on the previous draft; empty at first"
    )
    answer_markdown: str = dspy.OutputField(
        desc="the answer's sentences, each with the [n] hit numbers of the pages it cites"
    )


#: The answer step's brief: the same fields as :class:`ResearchProbe` and the evidence the
#: steps found, instead of the trajectory.
_ANSWER_FROM_EVIDENCE = """\
Answer one research probe from the evidence your searches found, citing a page for
every claim.

You are a senior equity research analyst. The evidence is what your searches and number
tools returned for the slice: each page's passage, statement fact or calculation, behind
the hit number you cite it by, e.g. `[2]`. Answer the probe question from it alone, in
your own words, the answer first.

Write the answer in Markdown:
- Every sentence and every number carries the hit number of the page it came from, in
  square brackets right after it: `<number> [2]`, `<sentence> [2].` Several pages on
  one spot: `[2][5]`.
- Cite only the hit numbers in the evidence (or in your previous draft). Any other
  number is removed and counted against you.
- Copy numbers exactly as the page prints them, with their unit; compute changes only
  from cited numbers and say so. No precision the page does not give.
- Do not paste passages: a line copied from the evidence is removed.
- A yes/no, which or why question: open with the answer itself (Yes or No, the item, the
  reason), once, then the cited figures or sentences behind it. Answer the figure asked
  (the company's total, not a segment's; a percentage if asked, not an amount).
- If the metric asked for does not apply to this business (a bank's gross margin), say so
  and cite what the filing reports instead.
- If the evidence does not answer part of the probe, say plainly which part is
  missing; do not hedge around it.
- Write no Sources block: it is written from your hit numbers.
"""

AnswerProbeFromEvidence = ResearchProbe.append(
    "evidence",
    dspy.InputField(
        desc="what the searches and number tools returned: each item behind its hit number"
    ),
    type_=str,
).with_instructions(_ANSWER_FROM_EVIDENCE)


class PickAnsweringPassage(dspy.Signature):
    """Say which numbered filing passage states the answer to the question.

    The passages are a search's best pages, each behind its hit number, e.g. `[2]`. Read
    them all: the first is often, not always, the one that answers. Give the hit number of
    the passage that states what the question asks (the figure, the reason, the name), or
    0 when none of them states it.
    """

    question: str = dspy.InputField(desc="the question the passages should answer")
    evidence: str = dspy.InputField(desc="the passages, each behind its hit number")
    answering_passage: int = dspy.OutputField(
        desc="the hit number of the passage that states the answer, or 0"
    )
