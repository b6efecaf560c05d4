"""Web pages and news as citable sources, fetched safely.

A read page becomes a :class:`WebDocument` and a news hit a :class:`NewsItem`; each carries
what a citation needs (URL, title, publisher, published date when known, retrieval time)
and a stable short ``uid``, the way a filing page does. Nothing here goes online on its
own: a URL is read only when asked, and news needs a provider the user configured
(``WISSEN_NEWS_FEEDS``, ``WISSEN_SEARXNG_URL``; see :mod:`websources.settings`).

This is a leaf package: it imports no other package of the project, so the agents, the
command line and the web front end can all use it without an import cycle.
"""

from __future__ import annotations

from websources.errors import (
    FetchFailed,
    NotConfigured,
    RefusedAddress,
    RefusedURL,
    WebSourceError,
    WrongContentType,
)
from websources.news import NewsProvider, NewsSearch, news_search, provider_from_settings
from websources.read import read_url
from websources.records import NewsItem, WebDocument, web_uid
from websources.settings import WebSettings

__all__ = [
    "FetchFailed",
    "NewsItem",
    "NewsProvider",
    "NewsSearch",
    "NotConfigured",
    "RefusedAddress",
    "RefusedURL",
    "WebDocument",
    "WebSettings",
    "WebSourceError",
    "WrongContentType",
    "news_search",
    "provider_from_settings",
    "read_url",
    "web_uid",
]
