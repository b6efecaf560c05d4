"""``wissen_equity_search`` and ``wissen_read_page``: the retrieval tools agents call.

The caller (a Researcher working on one slice) locks ticker/FY/FQ; whatever the LM
passes for a locked field is overridden, so an agent can never read outside its slice.
A search hit shows the **passage** that matched (the rows around the query's words, with
the table's column header), not the whole page: a hit takes a quarter of the space a
page took. ``wissen_read_page`` gives a whole page of the slice when the passage is not enough.
Every page handed out is remembered, which is what citation verification checks against,
and numbered in the order it was first handed out: the hit number a model cites it by
(``[3]``; see ``citations.hit_numbers``), the same for that page in every later search.

A fault of the store itself (its server stopped or refuses the grid) is raised as
:class:`StoreFault`, never handed to the model as a result to read: no query can mend it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager

from retrieval.pages import Page, normalise_doc_type
from retrieval.search.hybrid import Hit, HybridSearcher, prepared_query
from retrieval.search.passages import DEFAULT_BUDGET, select_passage
from retrieval.search.rows import page_rows
from retrieval.store import GridFilter, StoreFault

MAX_K = 10
#: A whole page as ``wissen_read_page`` returns it, at most (the longest filing pages).
MAX_PAGE_CHARS = 8000


@contextmanager
def store_faults(doing: str) -> Iterator[None]:
    """Run store work (``doing``: "searching"); a fault of the store itself leaves as
    :class:`StoreFault` with a one-line message, anything else as it was raised (a bad
    query is the caller's to handle)."""
    try:
        yield
    except Exception as exc:
        message = _fault_message(exc, doing)
        if message is None:
            raise
        raise StoreFault(message) from exc


def _fault_message(exc: Exception, doing: str) -> str | None:
    """``exc``'s one-line message if it is a fault of the store, else None."""
    if "psycopg" not in sys.modules:
        # Only the PostgreSQL store raises store faults, and a grid on SQLite never imports
        # psycopg (``retrieval.open_store``): nothing to recognise, nothing to import.
        return None
    from retrieval.postgres.errors import store_fault_message

    return store_fault_message(exc, doing)


class EquitySearchTool:
    """A slice-locked view of the grid that records the pages it handed out."""

    def __init__(
        self,
        searcher: HybridSearcher,
        lock: GridFilter | None = None,
        default_k: int = 5,
        max_chars: int = DEFAULT_BUDGET,
    ) -> None:
        self.searcher = searcher
        self.lock = lock or GridFilter()
        self.default_k = default_k
        self.max_chars = max_chars
        self.retrieved: dict[str, Hit] = {}
        self.numbers: dict[str, int] = {}  # uid -> hit number, in order of first retrieval
        self.calls = 0

    def remember(self, hit: Hit) -> int:
        """Record ``hit`` as retrieved (the first record of a page wins); its hit number."""
        self.retrieved.setdefault(hit.uid, hit)
        return self.numbers.setdefault(hit.uid, len(self.numbers) + 1)

    def mark(self, uid: str) -> str:
        """The hit number a model cites a retrieved page by, as it writes it: ``[3]``."""
        return f"[{self.numbers[uid]}]" if uid in self.numbers else ""

    def uid_of(self, ref: str) -> str:
        """The uid a model's page reference means: a hit number (``3``, ``[3]``) or a uid."""
        ref = str(ref).strip().strip("[]").strip().lower()
        if ref.isdigit():
            return next((uid for uid, n in self.numbers.items() if n == int(ref)), "")
        return ref

    def search(
        self,
        query: str,
        ticker: str | None = None,
        fy: int | None = None,
        fq: int | None = None,
        doc_type: str | None = None,
        k: int | None = None,
        skip: Collection[str] = (),
    ) -> list[dict]:
        """Search filing pages; locked fields win over the arguments given. Pages whose uid
        is in ``skip`` are passed over for the next best ones (a search engine's next page)."""
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
        with store_faults("searching"):
            hits = self.searcher.search(query, where, k=k + len(skip))
        hits = [hit for hit in hits if hit.uid not in skip][:k]
        terms = prepared_query(query, where).terms
        for hit in hits:
            self.remember(hit)
        return [self.compact(hit, terms) for hit in hits]

    def compact(self, hit: Hit, terms: tuple[str, ...] = ()) -> dict:
        """What the LM sees of a hit: enough to cite it, and the passage that matched
        ``terms`` (``max_chars`` at most; the page's opening rows without terms)."""
        text = select_passage(hit.text, terms, budget=self.max_chars).text
        return {
            "uid": hit.uid,
            "page_id": hit.page_id,
            "doc_label": hit.doc_label,
            "page": hit.page_index + 1,
            "cite": self.mark(hit.uid),
            "score": hit.score,
            "text": text,
        }

    def read_page(self, ref: str) -> dict | str:
        """A whole page of the slice by hit number or uid, remembered as retrieved; a
        refusal otherwise."""
        uid = self.uid_of(ref)
        lookup = getattr(self.searcher, "pages_by_uid", None)
        if lookup is None:
            return "Whole pages cannot be read here: use the search passages."
        with store_faults("reading a page"):
            pages = lookup([uid]) if uid else []
        if not pages:
            return f"No page {str(ref).strip()!r}: read only pages that a search returned."
        page = pages[0]
        if not self._in_slice(page):
            return (
                f"Page {uid} is outside the slice under research ({self._slice_label()}): "
                "read only pages of this slice."
            )
        hit = page_hit(page)
        self.remember(hit)
        text = "\n".join(row.text for row in page_rows(page.text))
        if len(text) > MAX_PAGE_CHARS:
            text = text[: MAX_PAGE_CHARS - 1] + "…"
        return {
            "uid": hit.uid,
            "page_id": hit.page_id,
            "doc_label": hit.doc_label,
            "page": hit.page_index + 1,
            "cite": self.mark(hit.uid),
            "text": text,
        }

    def _in_slice(self, page: Page) -> bool:
        lock = self.lock
        return (
            (not lock.ticker or page.ticker == lock.ticker.upper())
            and (lock.fy is None or page.fy == lock.fy)
            and (lock.fq is None or page.fq == lock.fq)
            and (not lock.doc_type or page.doc_type == lock.doc_type)
        )

    def _slice_label(self) -> str:
        lock = self.lock
        parts = [
            lock.ticker or "",
            f"FY{lock.fy}" if lock.fy is not None else "",
            f"Q{lock.fq}" if lock.fq is not None else "",
            lock.doc_type or "",
        ]
        return " ".join(p for p in parts if p) or "the whole grid"

    def read_page_function(self, budget: int | None = None) -> Callable[[str], dict | str]:
        """``wissen_read_page`` for DSPy's tool calling; ``budget`` caps pages read per turn."""
        used = 0

        def wissen_read_page(hit: str) -> dict | str:
            """Read one whole filing page of this slice: `hit` is its number in a search
            result, e.g. "3". Use it when a passage is cut short or lacks its table.
            """
            nonlocal used
            if budget is not None and used >= budget:
                return (
                    f"Page budget spent ({budget} pages this turn): "
                    "call finish and write the answer from the pages you have."
                )
            used += 1
            return self.read_page(hit)

        return wissen_read_page

    def as_function(
        self,
        budget: int | None = None,
        on_search: Callable[[str, list[dict]], None] | None = None,
        skip_first: Collection[str] = (),
    ) -> Callable[..., list[dict] | str]:
        """A plain function with the tool's public name, for DSPy's tool calling.

        ``budget`` caps the searches this function makes (one agent turn): past it the
        model is told to answer from what it has. ``on_search`` sees each query and its hits.
        The turn's first search passes over the pages in ``skip_first`` (:meth:`search`).
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

            Returns ranked pages, each with uid, page_id, doc_label, page, the hit
            number to cite it by (e.g. [3]) and the passage that matched as text. Ticker,
            fiscal year and quarter may be locked to the slice under research.
            """
            nonlocal used
            if budget is not None and used >= budget:
                return (
                    f"Search budget spent ({budget} searches this turn): "
                    "call finish and write the answer from the pages you have."
                )
            skip = skip_first if used == 0 else ()
            used += 1
            hits = self.search(
                query, ticker=ticker, fy=fy, fq=fq, doc_type=doc_type, k=k, skip=skip
            )
            if on_search is not None:
                on_search(query, hits)
            return hits

        return wissen_equity_search

    def slice_function(
        self,
        budget: int | None = None,
        on_search: Callable[[str, list[dict]], None] | None = None,
        skip_first: Collection[str] = (),
    ) -> Callable[[str], list[dict] | str]:
        """:meth:`as_function` for an agent locked to one slice: the query is the only
        argument (the lock decides ticker, year and quarter, and ``k`` is the tool's).

        A small model copies an argument schema it sees into its call; locked arguments
        it cannot change are only prompt to pay for and schema to copy.
        """
        search = self.as_function(budget=budget, on_search=on_search, skip_first=skip_first)

        def wissen_equity_search(query: str) -> list[dict] | str:
            """Search this slice's filing pages (10-K, 10-Q, 8-K, earnings).

            Returns the best pages, each with its hit number to cite it by, e.g. [3],
            and the passage that matched.
            """
            return search(query)

        return wissen_equity_search


def page_hit(page: Page) -> Hit:
    """A page read by uid, in the form search hits take (no rank, so score 0)."""
    return Hit(
        uid=page.uid,
        page_id=page.page_id or 0,
        doc_label=page.doc_label,
        doc_name=page.doc_name,
        ticker=page.ticker,
        fy=page.fy,
        fq=page.fq,
        doc_type=page.doc_type,
        page_index=page.page_index,
        score=0.0,
        text=page.text,
    )
