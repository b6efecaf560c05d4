"""``wissen_read_url`` and ``wissen_news_search``: the web sources in the shape of the
agents' tools (``retrieval.search.tools``): plain functions with a docstring a model reads, that
return compact dicts or a refusal sentence and never raise.

Like ``EquitySearchTool``, :class:`WebTools` remembers every source it handed out
(``retrieved``, by uid) and numbers it in order (``[W1]``), so a citation check can require
a cited web source to be one the agent actually read. An agent that cites pages and web
sources in one sequence passes ``mark``: the Researcher does, under ``research ask
--web-sources`` (``programs.web_sources``), so a web source is cited ``[5]`` like a page.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from websources.errors import WebSourceError
from websources.news import NewsProvider, news_search, provider_from_settings
from websources.read import read_url
from websources.records import NewsItem, WebDocument
from websources.settings import WebSettings

#: A page's text as a tool returns it, at most (``retrieval.search.tools.MAX_PAGE_CHARS``).
MAX_TEXT_CHARS = 8000


class WebTools:
    """Web reading and news search for an agent, remembering what it handed out."""

    def __init__(
        self,
        settings: WebSettings | None = None,
        provider: NewsProvider | None = None,
        max_items: int = 5,
        mark: Callable[[WebDocument | NewsItem], str] | None = None,
    ) -> None:
        self.settings = settings or WebSettings.from_env()
        self.provider = provider
        self.max_items = max_items
        #: Numbers a source in the caller's own sequence and returns its mark (None: [Wn]).
        self.mark = mark
        self.retrieved: dict[str, WebDocument | NewsItem] = {}
        self.numbers: dict[str, int] = {}

    def remember(self, source: WebDocument | NewsItem) -> str:
        """Record ``source`` (a page read wins over a news hit of the same URL); its mark."""
        if isinstance(source, WebDocument) or source.uid not in self.retrieved:
            self.retrieved[source.uid] = source
        number = self.numbers.setdefault(source.uid, len(self.numbers) + 1)
        return self.mark(source) if self.mark is not None else f"[W{number}]"

    def read(self, url: str) -> dict | str:
        """One page as the model sees it, or why it could not be read."""
        try:
            doc = read_url(url, self.settings)
        except WebSourceError as exc:
            return f"Could not read that page: {exc}"
        text = doc.text
        if len(text) > MAX_TEXT_CHARS:
            text = text[: MAX_TEXT_CHARS - 1] + "…"
        return {
            "uid": doc.uid,
            "cite": self.remember(doc),
            "title": doc.title,
            "publisher": doc.publisher,
            "url": doc.url,
            "published": doc.published.date().isoformat() if doc.published else None,
            "retrieved_at": doc.retrieved_at.isoformat(),
            "notes": doc.notes,
            "text": text,
        }

    def news(self, query: str, since: str | None = None) -> list[dict] | str:
        """News hits as the model sees them, or why there are none."""
        try:
            start = datetime.fromisoformat(since) if since else None
            provider = self.provider or provider_from_settings(self.settings)
            result = news_search(query, start, provider, self.settings, self.max_items)
        except ValueError:
            return f"Could not read since={since!r}: give a date such as 2024-05-01."
        except WebSourceError as exc:
            return f"News search failed: {exc}"
        if not result.items:
            return "No news found for that query: try other words or an earlier date."
        return [
            {
                "uid": item.uid,
                "cite": self.remember(item),
                "title": item.title,
                "publisher": item.publisher,
                "url": item.url,
                "published": item.published.date().isoformat() if item.published else None,
                "summary": item.summary,
            }
            for item in result.items
        ]

    def read_function(self) -> Callable[[str], dict | str]:
        """``wissen_read_url`` for DSPy's tool calling."""

        def wissen_read_url(url: str) -> dict | str:
            """Read a public web page (a news article, a company press release) by its
            http(s) URL. Returns its title, publisher, date, the mark to cite it by
            (e.g. [4]) and its main text.
            """
            return self.read(url)

        return wissen_read_url

    def news_function(self) -> Callable[..., list[dict] | str]:
        """``wissen_news_search`` for DSPy's tool calling."""

        def wissen_news_search(query: str, since: str | None = None) -> list[dict] | str:
            """Search recent news about a company or topic. `since` is an optional date
            (2024-05-01). Returns articles with title, publisher, date, URL, a summary and
            the mark to cite each by (e.g. [5]); read one with wissen_read_url.
            """
            return self.news(query, since)

        return wissen_news_search
