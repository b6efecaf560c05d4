"""Single-call baseline signature: answer a question from a few passages in one LM call.

The baseline is what the multi-agent program has to beat: the top passages of the
question's slice, handed over at once, and one answer written under the same citation
protocol the researcher is briefed on (``signatures.researcher``). The example in the
instructions is a made-up company with made-up figures, so no prompt carries a real answer.
"""

from __future__ import annotations

import dspy


class AnswerFromPassages(dspy.Signature):
    """Answer the question from the filing passages given, citing a page for every claim.

    You are a senior equity research analyst. The passages come from SEC filing pages of
    the company and period the question is about; each is behind the hit number you cite
    it by, e.g. `[2]`. Answer from them alone, the figure first.

    Write the answer in Markdown:
    - Every sentence and every number carries the hit number of the page it came from, in
      square brackets right after it: `<number> [2]`, `<sentence> [2].` Several pages on
      one spot: `[2][5]`.
    - Cite only the hit numbers given here. Any other number is removed and counted
      against you.
    - Copy numbers exactly as the page prints them, with their unit; compute changes only
      from cited numbers and say so. No precision the page does not give.
    - If the passages do not answer part of the question, say plainly which part is
      missing; do not hedge around it.
    - Write no Sources block: it is written from your hit numbers.
    """

    question: str = dspy.InputField(desc="the research question to answer")
    slice_label: str = dspy.InputField(
        desc="the slice the passages come from, e.g. 'ACME FY2031 Q4'"
    )
    passages: str = dspy.InputField(
        desc="the search results: one per page, its hit number, where it is, its passage"
    )
    cited_answer: str = dspy.OutputField(
        desc="Markdown answer, each sentence with the [n] hit numbers of the pages it cites"
    )
