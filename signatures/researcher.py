"""Researcher signature: answer one probe for one slice from filing pages, with citations.

The Researcher runs as a tool loop (``programs.researcher``) over ``wissen_equity_search``
locked to the slice; this signature is what the loop's final answer must satisfy, and its
instructions are the citation protocol as an analyst would be briefed on it.
"""

from __future__ import annotations

import dspy


class ResearchProbe(dspy.Signature):
    """Answer one research probe from SEC filing pages, citing a page for every claim.

    You are a senior equity research analyst. Search the filings with `wissen_equity_search`
    (it is already locked to the slice's ticker, fiscal year and quarter); each hit is the
    passage of a page that matched. Call `wissen_read_page` with a hit's uid only when its
    passage is cut short. Search for statement line items as filings print them; prefer the
    primary financial statements and their notes over narrative sections.

    Write the answer in Markdown:
    - Every sentence and every number carries a superscript citation to the page it came
      from: `Contoso's capex was $4,817.3 million¹ in FY2031.¹` Several pages on one spot are joined
      with `˒`: `¹˒²`.
    - Cite only pages returned by your searches in this session (or cited in your previous
      draft). Citations to any other page are removed and counted against you.
    - Copy numbers exactly as the page prints them, with their unit; compute changes only
      from cited numbers and say so. No precision the page does not give.
    - If the filings do not answer part of the probe, say plainly which part is missing;
      do not hedge around it.
    - End with a `**Sources**` block, one line per cited page: its marker, then the page's
      `cite_as` copied exactly from the search result (`¹ <cite_as>`).
    """

    question: str = dspy.InputField(desc="the user's full research question, for context")
    slice_label: str = dspy.InputField(desc="the slice researched, e.g. 'MMM FY2022 Q4'")
    probe_title: str = dspy.InputField()
    probe_question: str = dspy.InputField(desc="the question this answer must settle")
    previous_draft: str = dspy.InputField(desc="your previous draft, empty on the first round")
    reviewer_feedback: str = dspy.InputField(
        desc="the portfolio manager's follow-up prompts on the previous draft; empty at first"
    )
    answer_markdown: str = dspy.OutputField(
        desc="the answer's sentences first, each with its superscript citation, then the "
        "**Sources** block"
    )
