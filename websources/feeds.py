"""News from RSS and Atom feeds the user listed, filtered by query words and date.

Each feed is fetched with the safe fetcher (:mod:`websources.fetch`) and parsed by
feedparser **from the bytes fetched**, handed over as a stream: given a string, feedparser
would fetch a URL itself (past every check here) or open a local file of that name.
A feed that fails is a note, not the end of the search, unless every feed failed.
"""

from __future__ import annotations

import html
import io
import re
from datetime import datetime

import feedparser

from websources.addresses import Resolver, system_resolver
from websources.dates import as_utc, utc_now
from websources.errors import FetchFailed, WebSourceError
from websources.fetch import FEED_TYPES, fetch
from websources.matching import matches, query_words
from websources.records import NewsItem, host_of, web_uid
from websources.settings import WebSettings

SUMMARY_CHARS = 300


def plain_summary(markup: str) -> str:
    """A feed summary (often HTML) as one line of plain text, cut to a few sentences."""
    text = html.unescape(re.sub(r"<[^>]+>", " ", markup or ""))
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 1] + "…"


class FeedProvider:
    """Searches the entries of a fixed list of feeds (no search engine involved)."""

    name = "feeds"

    def __init__(
        self, feeds: list[str], settings: WebSettings, resolver: Resolver = system_resolver
    ) -> None:
        self.feeds = feeds
        self.settings = settings
        self.resolver = resolver

    def search(
        self, query: str, since: datetime | None, limit: int
    ) -> tuple[list[NewsItem], list[str]]:
        words = query_words(query)
        items: list[NewsItem] = []
        notes: list[str] = []
        failures: list[str] = []
        undated = 0
        for feed_url in self.feeds:
            try:
                entries = self._entries(feed_url)
            except WebSourceError as exc:
                message = str(exc)
                failures.append(message if feed_url in message else f"feed {feed_url}: {message}")
                continue
            for item in entries:
                if not matches(words, item.title, item.summary):
                    continue
                if since is not None:
                    if item.published is None:
                        undated += 1
                        continue
                    if item.published < since:
                        continue
                items.append(item)
        if failures and len(failures) == len(self.feeds):
            raise FetchFailed(failures[0] if len(failures) == 1 else "; ".join(failures))
        notes.extend(f"skipped a feed: {failure}" for failure in failures)
        if undated:
            notes.append(f"{undated} matching items without a date were left out (--since)")
        return items, notes

    def _entries(self, feed_url: str) -> list[NewsItem]:
        """Every entry of one feed as a NewsItem."""
        retrieved_at = utc_now()
        fetched = fetch(feed_url, self.settings, FEED_TYPES, self.resolver)
        parsed = feedparser.parse(io.BytesIO(fetched.body))
        if not parsed.entries and parsed.get("bozo"):
            reason = parsed.get("bozo_exception") or "not RSS or Atom"
            raise FetchFailed(f"could not parse the feed: {reason}")
        feed_title = (parsed.feed.get("title") or "").strip()
        items = []
        for entry in parsed.entries:
            link = (entry.get("link") or "").strip()
            if not link.lower().startswith(("http://", "https://")):
                continue
            source = entry.get("source") or {}
            items.append(
                NewsItem(
                    uid=web_uid(link),
                    url=link,
                    title=plain_summary(entry.get("title") or "") or link,
                    publisher=(source.get("title") or feed_title or host_of(link)).strip(),
                    published=as_utc(entry.get("published_parsed") or entry.get("updated_parsed")),
                    retrieved_at=retrieved_at,
                    summary=plain_summary(entry.get("summary") or ""),
                    provider=self.name,
                    source=fetched.url,
                )
            )
        return items
