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
    the company and period the question is about; each carries the page's uid, page_id,
    doc_label and page number. Answer from them alone, the figure first.

    Write the answer in Markdown:
    - Every sentence and every number carries a superscript citation to the page it came
      from: `Capex was $4,817.3 million¹ in FY2031.¹` Several pages on one spot are joined
      with `˒`: `¹˒²`.
    - Cite only the pages given here. Citations to any other page are removed and counted
      against you.
    - Copy numbers exactly as the page prints them, with their unit; compute changes only
      from cited numbers and say so. No precision the page does not give.
    - If the passages do not answer part of the question, say plainly which part is
      missing; do not hedge around it.
    - End with a `**Sources**` block, one line per cited page, exactly in this form:
      `¹ ACME 10-K FY2031 p.48 (page_id: 1234, uid: 0a1b2c3d4e5f)` using the doc_label, page,
      page_id and uid of the passage.
    """

    question: str = dspy.InputField(desc="the research question to answer")
    slice_label: str = dspy.InputField(
        desc="the slice the passages come from, e.g. 'ACME FY2031 Q4'"
    )
    passages: str = dspy.InputField(
        desc="the search results: one block per page with uid, page_id, doc_label, page, text"
    )
    cited_answer: str = dspy.OutputField(
        desc="Markdown answer with superscript citations and a **Sources** block"
    )
