"""The web tools in a Researcher's loop (``research ask --web-sources``, off by default).

``wissen_read_url`` and ``wissen_news_search`` (``websources.tools``) are offered beside the
slice's filing tools in the follow-up rounds' tool loop. A web document or news item a tool
returns joins the probe's pages: it is remembered in the probe's ``EquitySearchTool`` as a
:class:`~retrieval.search.hybrid.Hit` of ``doc_type`` "web" and numbered in the same
sequence, so the model cites it ``[5]`` like a page, citation verification accepts it only
when a tool returned it in this probe (as a page must have been retrieved), and it travels
with the probe's pages to the synthesis, the report and a resumed run's checkpoint. Its
footnote (``citations.markup``) names its title, publisher, URL and retrieval time.

News search needs a provider (``WISSEN_SEARXNG_URL`` or ``WISSEN_NEWS_FEEDS``); without
one only ``wissen_read_url`` is offered: a tool that can only refuse is prompt paid for nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from programs.drafts import WEB_DOC_TYPE, citation_of
from retrieval.search.hybrid import Hit
from retrieval.search.tools import EquitySearchTool
from websources.errors import WebSourceError
from websources.records import NewsItem, WebDocument, host_of
from websources.settings import WebSettings
from websources.tools import MAX_TEXT_CHARS, WebTools

READ_URL_TOOL = "wissen_read_url"
NEWS_TOOL = "wissen_news_search"


def web_settings_from_env() -> WebSettings:
    """What the web tools may do, from the ``WISSEN_*`` variables (``websources.settings``);
    a bad value is a ``ValueError`` naming the variable, never its value."""
    try:
        return WebSettings.from_env()
    except WebSourceError as exc:
        raise ValueError(f"web sources: {exc}") from None


def offered_tools(settings: WebSettings) -> tuple[str, ...]:
    """The web tools a Researcher offers under ``settings``: reading a URL always, news
    search only when a news provider is configured."""
    if settings.searxng_url or settings.feeds:
        return (READ_URL_TOOL, NEWS_TOOL)
    return (READ_URL_TOOL,)


def prototypes(names: tuple[str, ...]) -> list[Callable[..., Any]]:
    """The tools ``names`` as the prompt describes them (they hold no probe's books)."""
    tools = WebTools(WebSettings())
    functions = [tools.read_function(), tools.news_function()]
    return [f for f in functions if f.__name__ in names]


def retrieved_stamp(when: datetime) -> str:
    """When a source was read, as its footnote prints it: ``2026-12-03 15:00 UTC``."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def web_hit(source: WebDocument | NewsItem, tool: EquitySearchTool) -> Hit:
    """``source`` as one of the probe's pages: its text (a news item's title and summary)
    for the answer step, the reviewer and code's attribution, and what its citation prints."""
    if isinstance(source, WebDocument):
        text = source.text[:MAX_TEXT_CHARS]
    else:
        text = f"{source.title}\n{source.summary}".strip()
    publisher = _one_line(source.publisher).replace("”", '"') or host_of(source.url)
    lock = tool.lock
    return Hit(
        uid=source.uid,
        page_id=0,
        doc_label=_one_line(source.title) or source.url,
        doc_name=source.url.strip().replace(" ", "%20"),
        ticker=lock.ticker or "",
        fy=lock.fy or 0,
        fq=lock.fq or 0,
        doc_type=WEB_DOC_TYPE,
        page_index=0,
        score=0.0,
        text=text,
        publisher=publisher or "unknown publisher",
        retrieved=retrieved_stamp(source.retrieved_at),
    )


class ProbeWebTools:
    """One probe's web tools, numbering what they return in the probe's page sequence."""

    def __init__(
        self,
        tool: EquitySearchTool,
        settings: WebSettings,
        names: tuple[str, ...] = (READ_URL_TOOL, NEWS_TOOL),
    ) -> None:
        self.tool = tool
        self.names = names
        self.web = WebTools(settings, mark=self._mark)

    def _mark(self, source: WebDocument | NewsItem) -> str:
        """Remember ``source`` among the probe's pages (a page read replaces a news hit of
        the same URL); its hit number, or "" when it cannot be cited (an odd URL)."""
        hit = web_hit(source, self.tool)
        try:
            citation_of(hit)  # what verification will build: a source it cannot is not cited
        except ValueError:
            return ""
        self.tool.remember(hit)
        if isinstance(source, WebDocument):
            self.tool.retrieved[source.uid] = hit
        return self.tool.mark(source.uid)

    def functions(self) -> list[Callable[..., Any]]:
        """The offered tools, bound to this probe."""
        functions = [self.web.read_function(), self.web.news_function()]
        return [f for f in functions if f.__name__ in self.names]
