"""``news_search``: news over a pluggable provider, as citable :class:`NewsItem` records.

A provider is anything with a ``name`` and a ``search(query, since, limit)`` method
(:class:`NewsProvider`); two ship here, an RSS/Atom feed reader
(:mod:`websources.feeds`) and a SearXNG metasearch client (:mod:`websources.searxng`).
None is on by default: :func:`provider_from_settings` raises :class:`NotConfigured` until
the user names feeds or an instance, so nothing goes online unasked.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, Field

from websources.dates import utc_now
from websources.errors import NotConfigured, WebSourceError
from websources.matching import query_words
from websources.records import NewsItem
from websources.settings import WebSettings

PROVIDERS = ("auto", "searxng", "feeds")


@runtime_checkable
class NewsProvider(Protocol):
    """A source of news items. ``search`` returns the items (newest first is not
    required) and notes for the user (a feed that failed, engines that did not answer)."""

    name: str

    def search(
        self, query: str, since: datetime | None, limit: int
    ) -> tuple[list[NewsItem], list[str]]: ...


class NewsSearch(BaseModel):
    """The answer to one news search: its items and what the user should know."""

    query: str
    since: datetime | None = None
    provider: str
    retrieved_at: datetime
    items: list[NewsItem]
    notes: list[str] = Field(default_factory=list)


def provider_from_settings(settings: WebSettings, name: str = "auto") -> NewsProvider:
    """The provider ``name`` as configured; ``auto`` prefers SearXNG, then feeds.
    :class:`NotConfigured` when the one asked for (or any, for ``auto``) is not set up."""
    from websources.feeds import FeedProvider
    from websources.searxng import SearxngProvider

    if name not in PROVIDERS:
        raise NotConfigured(f"unknown news provider {name!r}; choose one of {', '.join(PROVIDERS)}")
    if name in ("auto", "searxng") and settings.searxng_url:
        return SearxngProvider(settings.searxng_url, settings)
    if name in ("auto", "feeds") and settings.feeds:
        return FeedProvider(settings.feeds, settings)
    if name == "searxng":
        raise NotConfigured("no SearXNG instance configured: set WISSEN_SEARXNG_URL")
    if name == "feeds":
        raise NotConfigured("no news feeds configured: set WISSEN_NEWS_FEEDS (feed URLs)")
    raise NotConfigured(
        "no news provider configured: set WISSEN_SEARXNG_URL (a SearXNG instance) or "
        "WISSEN_NEWS_FEEDS (RSS/Atom feed URLs)"
    )


def news_search(
    query: str,
    since: datetime | None = None,
    provider: NewsProvider | None = None,
    settings: WebSettings | None = None,
    limit: int | None = None,
) -> NewsSearch:
    """News about ``query`` published at or after ``since``, newest first, deduplicated by
    URL; ``provider`` defaults to the configured one."""
    if not query_words(query):
        raise WebSourceError("give a news query with at least one word")
    settings = settings or WebSettings.from_env()
    provider = provider or provider_from_settings(settings)
    if since is not None and since.tzinfo is None:
        since = since.replace(tzinfo=UTC)
    limit = limit or settings.news_limit
    retrieved_at = utc_now()
    items, notes = provider.search(query, since, limit)
    unique: dict[str, NewsItem] = {}
    for item in items:
        unique.setdefault(item.uid, item)
    oldest = datetime.min.replace(tzinfo=UTC)
    ordered = sorted(unique.values(), key=lambda i: i.published or oldest, reverse=True)
    return NewsSearch(
        query=query,
        since=since,
        provider=provider.name,
        retrieved_at=retrieved_at,
        items=ordered[:limit],
        notes=notes,
    )
