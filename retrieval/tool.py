"""``wissen_equity_search``: the one retrieval tool agents call.

The caller (a Researcher working on one slice) locks ticker/FY/FQ; whatever the LM
passes for a locked field is overridden, so an agent can never read outside its slice.
Every page returned is remembered, which is what citation verification checks against.
"""

from __future__ import annotations

from collections.abc import Callable

from retrieval.pages import normalise_doc_type
from retrieval.search import Hit, HybridSearcher
from retrieval.store import GridFilter

MAX_K = 10


class EquitySearchTool:
    """A slice-locked view of the grid that records the pages it handed out."""

    def __init__(
        self,
        searcher: HybridSearcher,
        lock: GridFilter | None = None,
        default_k: int = 5,
        max_chars: int = 2000,
    ) -> None:
        self.searcher = searcher
        self.lock = lock or GridFilter()
        self.default_k = default_k
        self.max_chars = max_chars
        self.retrieved: dict[str, Hit] = {}
        self.calls = 0

    def search(
        self,
        query: str,
        ticker: str | None = None,
        fy: int | None = None,
        fq: int | None = None,
        doc_type: str | None = None,
        k: int | None = None,
    ) -> list[dict]:
        """Search filing pages; locked fields win over the arguments given."""
        where = GridFilter(
            ticker=(self.lock.ticker or ticker or None),
            fy=self.lock.fy if self.lock.fy is not None else (int(fy) if fy else None),
            fq=self.lock.fq if self.lock.fq is not None else (int(fq) if fq else None),
            doc_type=(self.lock.doc_type or (normalise_doc_type(doc_type) if doc_type else None)),
        )
        if where.ticker:
            where = GridFilter(where.ticker.upper(), where.fy, where.fq, where.doc_type)
        k = max(1, min(int(k or self.default_k), MAX_K))
        self.calls += 1
        hits = self.searcher.search(query, where, k=k)
        for hit in hits:
            self.retrieved.setdefault(hit.uid, hit)
        return [self.compact(hit) for hit in hits]

    def compact(self, hit: Hit) -> dict:
        """What the LM sees of a hit: enough to cite it, and the page text to read."""
        text = hit.text if len(hit.text) <= self.max_chars else hit.text[: self.max_chars] + "…"
        return {
            "uid": hit.uid,
            "page_id": hit.page_id,
            "doc_label": hit.doc_label,
            "page": hit.page_index + 1,
            "score": hit.score,
            "text": text,
        }

    def as_function(
        self,
        budget: int | None = None,
        on_search: Callable[[str, list[dict]], None] | None = None,
    ) -> Callable[..., list[dict] | str]:
        """A plain function with the tool's public name, for DSPy's tool calling.

        ``budget`` caps the searches this function makes (one agent turn): past it the
        model is told to answer from what it has. ``on_search`` sees each query and its hits.
        """
        used = 0

        def wissen_equity_search(
            query: str,
            ticker: str | None = None,
            fy: int | None = None,
            fq: int | None = None,
            doc_type: str | None = None,
            k: int = self.default_k,
        ) -> list[dict] | str:
            """Search SEC filing pages (10-K, 10-Q, 8-K, earnings) of the research grid.

            Returns ranked pages, each with uid, page_id, doc_label, page and text;
            cite pages by uid. Ticker, fiscal year and quarter may be locked to the
            slice under research.
            """
            nonlocal used
            if budget is not None and used >= budget:
                return (
                    f"Search budget spent ({budget} searches this turn): "
                    "call finish and write the answer from the pages you have."
                )
            used += 1
            hits = self.search(query, ticker=ticker, fy=fy, fq=fq, doc_type=doc_type, k=k)
            if on_search is not None:
                on_search(query, hits)
            return hits

        return wissen_equity_search
