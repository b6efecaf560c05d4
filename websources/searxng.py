"""News from a SearXNG metasearch instance the user runs or chose (its JSON API).

``GET {base}/search?q=…&format=json&categories=news``. The instance must have ``json`` in
``search.formats`` of its ``settings.yml`` (public instances often do not, and answer 403).

The configured instance is trusted by address, because the user named it: a SearXNG on
``localhost`` works without opening private addresses to ``read``. That trust covers only
the host's own addresses at the time of the search, and no redirect is followed from it.
"""

from __future__ import annotations

import ipaddress
import json
from datetime import datetime, timedelta

import httpx

from websources.addresses import Resolver, system_resolver
from websources.dates import as_utc, utc_now
from websources.errors import FetchFailed
from websources.feeds import plain_summary
from websources.fetch import JSON_TYPES, checked_url, fetch
from websources.records import NewsItem, host_of, web_uid
from websources.settings import WebSettings

#: SearXNG's ``time_range`` values, by the span they cover.
TIME_RANGES = (
    (timedelta(days=1), "day"),
    (timedelta(days=7), "week"),
    (timedelta(days=31), "month"),
    (timedelta(days=366), "year"),
)


def time_range(since: datetime | None, now: datetime) -> str | None:
    """The narrowest SearXNG ``time_range`` that still covers ``since`` (None: no limit)."""
    if since is None:
        return None
    span = now - since
    return next((name for limit, name in TIME_RANGES if span <= limit), None)


class SearxngProvider:
    """Searches the news category of one SearXNG instance."""

    name = "searxng"

    def __init__(
        self, base_url: str, settings: WebSettings, resolver: Resolver = system_resolver
    ) -> None:
        self.base_url = base_url.strip().rstrip("/")
        self.settings = settings
        self.resolver = resolver

    def _trusted_settings(self, url: httpx.URL) -> WebSettings:
        """``settings`` allowing the instance's own addresses, with no redirects."""
        port = url.port or (443 if url.scheme == "https" else 80)
        own = [ipaddress.ip_network(ip) for ip in self.resolver(url.host, port)]
        return self.settings.model_copy(
            update={"allowed_networks": [*self.settings.allowed_networks, *own], "max_redirects": 0}
        )

    def search(
        self, query: str, since: datetime | None, limit: int
    ) -> tuple[list[NewsItem], list[str]]:
        base = checked_url(self.base_url + "/search")
        params = {"q": query, "format": "json", "categories": "news"}
        now = utc_now()
        span = time_range(since, now)
        if span:
            params["time_range"] = span
        url = str(base.copy_merge_params(params))
        try:
            fetched = fetch(url, self._trusted_settings(base), JSON_TYPES, self.resolver)
        except FetchFailed as exc:
            if "HTTP 403" in str(exc):
                raise FetchFailed(
                    f"{exc} (does the instance allow format=json? see search.formats in its "
                    "settings.yml)"
                ) from None
            raise
        if fetched.truncated:
            raise FetchFailed(
                f"the SearXNG answer was larger than {self.settings.max_bytes:,} bytes and was cut"
            )
        try:
            answer = json.loads(fetched.body)
            results = answer["results"]
            if not isinstance(results, list):
                raise TypeError("results is not a list")
        except (ValueError, KeyError, TypeError) as exc:
            raise FetchFailed(f"not a SearXNG JSON answer from {self.base_url}: {exc}") from None
        items: list[NewsItem] = []
        undated = 0
        for result in results:
            if not isinstance(result, dict):
                continue
            link = str(result.get("url") or "").strip()
            if not link.lower().startswith(("http://", "https://")):
                continue
            title = plain_summary(str(result.get("title") or "")) or link
            summary = plain_summary(str(result.get("content") or ""))
            published = as_utc(result.get("publishedDate"))
            if since is not None:
                if published is None:
                    undated += 1
                    continue
                if published < since:
                    continue
            engine = result.get("engine") or ", ".join(result.get("engines") or [])
            items.append(
                NewsItem(
                    uid=web_uid(link),
                    url=link,
                    title=title,
                    publisher=host_of(link),
                    published=published,
                    retrieved_at=now,
                    summary=summary,
                    provider=self.name,
                    source=str(engine),
                )
            )
        notes = []
        if undated:
            notes.append(f"{undated} results without a date were left out (--since)")
        for entry in answer.get("unresponsive_engines") or []:
            if isinstance(entry, list | tuple) and entry:
                reason = f": {entry[1]}" if len(entry) > 1 else ""
                notes.append(f"engine {entry[0]} did not answer{reason}")
        return items, notes
