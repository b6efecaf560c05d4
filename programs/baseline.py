"""The single-call baseline: top-k slice-locked passages and one cited answer.

What the multi-agent program is measured against: no planner, no probes, no review. The
question is searched once inside its slice with the agents' own tool (so the passages are
exactly what a researcher would be shown), the hits go to the model in one call, and the
answer's citations are verified in code against the pages that search returned: a uid the
model made up is removed and counted, as everywhere else in the project.
"""

from __future__ import annotations

import dspy

from citations import parse_cited_answer, verify_answer
from retrieval.tool import EquitySearchTool
from signatures.baseline import AnswerFromPassages

DEFAULT_K = 5


def format_passages(hits: list[dict]) -> str:
    """The hits as the model reads them: a header line per page (what to cite), then its text."""
    blocks = []
    for n, hit in enumerate(hits, 1):
        header = (
            f"[{n}] uid: {hit['uid']}, page_id: {hit['page_id']}, "
            f"doc_label: {hit['doc_label']}, page: {hit['page']}"
        )
        blocks.append(f"{header}\n{hit['text'].strip()}")
    return "\n\n".join(blocks) if blocks else "(the search returned no page)"


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
            question=question, slice_label=slice_label, passages=format_passages(hits)
        )
        raw = str(written.cited_answer or "")
        verified = verify_answer(parse_cited_answer(raw), tool.retrieved.keys())
        return dspy.Prediction(
            report=verified.answer.to_markdown(),
            raw=raw,
            fabricated=verified.fabricated_count,
            retrieved_uids=sorted(tool.retrieved),
            page_texts={uid: hit.text for uid, hit in tool.retrieved.items()},
        )
