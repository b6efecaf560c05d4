"""The single-call baseline: top-k slice-locked passages and one cited answer.

What the multi-agent program is measured against: no planner, no probes, no review. The
question is searched once inside its slice with the agents' own tool (so the passages are
exactly what a researcher would be shown), the hits go to the model in one call, and the
answer's citations (hit numbers, as the researcher writes them) are resolved and verified in
code against the pages that search returned: a number or uid that search never returned is
removed and counted, as everywhere else in the project.
"""

from __future__ import annotations

import dspy

from citations import verify_answer
from programs.drafts import read_draft
from programs.observations import render_observation
from retrieval.search.tools import EquitySearchTool
from signatures.baseline import AnswerFromPassages

DEFAULT_K = 5


def format_passages(hits: list[dict], tool: EquitySearchTool) -> str:
    """The hits as the researcher reads a search result: each page's passage behind the hit
    number it is cited by."""
    return render_observation(hits, tool.mark) if hits else "(the search returned no page)"


class SingleCallBaseline(dspy.Module):
    """One search, one LM call, verified citations; predictor: ``answer``."""

    def __init__(self, k: int = DEFAULT_K) -> None:
        super().__init__()
        self.k = k
        self.answer = dspy.Predict(AnswerFromPassages)

    def forward(self, question: str, tool: EquitySearchTool, slice_label: str) -> dspy.Prediction:
        """Answer ``question`` from ``tool``'s top ``k`` hits (the tool is locked to the slice).

        The prediction's ``report`` is the verified answer; ``raw`` what the model wrote;
        ``retrieved_uids`` and ``page_texts`` are the pages searched (for the metrics).
        """
        hits = tool.search(question, k=self.k)
        written = self.answer(
            question=question, slice_label=slice_label, passages=format_passages(hits, tool)
        )
        raw = str(written.cited_answer or "")
        draft = read_draft(raw, tool)
        verified = verify_answer(draft.answer, tool.retrieved.keys())
        return dspy.Prediction(
            report=verified.answer.to_markdown(),
            raw=raw,
            fabricated=verified.fabricated_count + len(draft.unknown),
            retrieved_uids=sorted(tool.retrieved),
            page_texts={uid: hit.text for uid, hit in tool.retrieved.items()},
        )
