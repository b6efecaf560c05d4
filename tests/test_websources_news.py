"""News search over recorded feeds and a recorded SearXNG answer (no network)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import test_websources_server as server
from test_websources_server import allowed

from websources import NewsProvider, news_search, provider_from_settings
from websources.errors import FetchFailed, NotConfigured, WebSourceError
from websources.feeds import FeedProvider
from websources.searxng import SearxngProvider, time_range
from websources.settings import WebSettings

served = server.served  # the recorded-response server fixture


def feeds(served, *paths, **changes) -> FeedProvider:
    settings = allowed(served, **changes)
    return FeedProvider([served.url(p) for p in paths], settings)


def test_rss_items_are_filtered_by_query_words(served):
    result = news_search("3m", provider=feeds(served, "/rss"))
    titles = [i.title for i in result.items]
    # newest first, undated last, the file:// link dropped, PepsiCo not matching
    assert titles == [
        "3M raises capital spending plan for 2023",
        "3M settles earplug lawsuits",
        "3M opinion: what next for the conglomerate",
    ]
    first = result.items[0]
    assert first.publisher == "Example Markets Wire" and first.provider == "feeds"
    assert first.published == datetime(2023, 2, 14, 9, 30, tzinfo=UTC)
    assert first.summary == "3M expects capital expenditure of about $1.8 billion in 2023."
    assert first.source == served.url("/rss") and len(first.uid) == 12


def test_since_leaves_out_older_and_undated_items(served):
    result = news_search("3M", since=datetime(2023, 1, 1), provider=feeds(served, "/rss"))
    assert [i.title for i in result.items] == ["3M raises capital spending plan for 2023"]
    assert any("without a date were left out" in n for n in result.notes)


def test_every_query_word_must_match(served):
    result = news_search("3M capital", provider=feeds(served, "/rss", "/atom"))
    assert [i.url for i in result.items] == [
        "https://blog.example.org/3m-10k-2022",  # "capital spending" in its summary
        "https://news.example.com/2023/02/3m-capex",
    ]
    assert news_search("tesla", provider=feeds(served, "/rss")).items == []


def test_atom_entries_and_several_feeds(served):
    result = news_search("dividend", provider=feeds(served, "/rss", "/atom"))
    (item,) = result.items
    assert item.title == "Coca-Cola dividend increase, in context"
    assert item.publisher == "Example Filings Blog" and item.url.startswith("https://blog.")
    assert item.published == datetime(2023, 2, 16, 8, 0, tzinfo=UTC)


def test_a_failing_feed_is_a_note_when_others_answer(served):
    result = news_search("dividend", provider=feeds(served, "/atom", "/pdf"))
    assert len(result.items) == 1
    assert any(
        "skipped a feed: refused" in n and "content type application/pdf" in n for n in result.notes
    )


def test_all_feeds_failing_is_an_error(served):
    with pytest.raises(FetchFailed, match="HTTP 404"):
        news_search("3M", provider=feeds(served, "/missing"))


def test_feeds_are_refused_on_loopback_by_default(served):
    provider = FeedProvider([served.url("/rss")], WebSettings())
    with pytest.raises(FetchFailed, match="loopback"):
        news_search("3M", provider=provider)


def test_a_feed_body_naming_a_local_file_is_not_opened(served):
    """feedparser opens a file whose name it is given as a string: the reader hands it
    the fetched bytes as a stream, so a body naming a local feed file is only text."""
    with pytest.raises(FetchFailed, match="could not parse the feed"):
        news_search("3M", provider=feeds(served, "/local-file-feed"))


def test_searxng_results_dated_and_deduplicated(served):
    provider = SearxngProvider(served.base, WebSettings())  # no private allowance needed
    result = news_search("3M capex", provider=provider)
    assert [i.url for i in result.items] == [
        "https://www.reuters.example/business/3m-capex-2023",
        "https://finance.example.net/3m-q4",
        "https://blog.example.org/3m-undated",
    ]
    first = result.items[0]
    assert first.title == "3M lifts & expands 2023 capex"
    assert first.publisher == "reuters.example" and first.source == "bing news"
    assert first.published == datetime(2023, 2, 14, 9, 30, tzinfo=UTC)
    assert "engine google news did not answer: timeout" in result.notes
    asked = served.requests[-1]
    assert asked.startswith("/search?") and "format=json" in asked
    assert "categories=news" in asked and "q=3M+capex" in asked


def test_searxng_since_filters_and_narrows_the_time_range(served):
    provider = SearxngProvider(served.base, WebSettings())
    result = news_search("3M", since=datetime(2023, 2, 1, tzinfo=UTC), provider=provider)
    assert [i.title for i in result.items] == ["3M lifts & expands 2023 capex"]
    now = datetime(2023, 2, 20, tzinfo=UTC)
    assert time_range(now - timedelta(hours=3), now) == "day"
    assert time_range(now - timedelta(days=20), now) == "month"
    assert time_range(now - timedelta(days=900), now) is None


def test_searxng_bad_answers(served):
    with pytest.raises(FetchFailed, match="not a SearXNG JSON answer"):
        SearxngProvider(served.base + "/badjson#", WebSettings()).search("3M", None, 5)


def test_searxng_follows_no_redirect(served):
    provider = SearxngProvider(served.url("/redirect/0?"), WebSettings())
    with pytest.raises(FetchFailed, match="too many redirects"):
        provider.search("3M", None, 5)


def test_nothing_is_configured_by_default():
    with pytest.raises(NotConfigured, match=r"WISSEN_SEARXNG_URL.*WISSEN_NEWS_FEEDS"):
        provider_from_settings(WebSettings())
    with pytest.raises(NotConfigured, match="WISSEN_NEWS_FEEDS"):
        provider_from_settings(WebSettings(searxng_url="http://x"), "feeds")
    with pytest.raises(NotConfigured, match="unknown news provider"):
        provider_from_settings(WebSettings(), "bing")


def test_settings_from_the_environment():
    settings = WebSettings.from_env(
        {
            "WISSEN_NEWS_FEEDS": "https://a.example/rss, https://b.example/atom\nhttps://c.example",
            "WISSEN_SEARXNG_URL": "http://localhost:8888",
            "WISSEN_WEB_ALLOW_PRIVATE": "10.0.0.0/8, 127.0.0.1/32",
            "WISSEN_WEB_MAX_BYTES": "5000",
        }
    )
    assert settings.feeds == [
        "https://a.example/rss",
        "https://b.example/atom",
        "https://c.example",
    ]
    assert [str(n) for n in settings.allowed_networks] == ["10.0.0.0/8", "127.0.0.1/32"]
    assert not settings.allow_private and settings.max_bytes == 5000
    assert isinstance(provider_from_settings(settings), SearxngProvider)
    assert WebSettings.from_env({"WISSEN_WEB_ALLOW_PRIVATE": "true"}).allow_private
    assert WebSettings.from_env({}) == WebSettings()
    with pytest.raises(NotConfigured, match="WISSEN_WEB_ALLOW_PRIVATE"):
        WebSettings.from_env({"WISSEN_WEB_ALLOW_PRIVATE": "intranet"})
    with pytest.raises(NotConfigured, match="WISSEN_WEB_MAX_BYTES"):
        WebSettings.from_env({"WISSEN_WEB_MAX_BYTES": "lots"})


def test_providers_are_pluggable():
    class Canned:
        name = "canned"

        def search(self, query, since, limit):
            return [], ["nothing canned"]

    assert isinstance(Canned(), NewsProvider)
    result = news_search("anything", provider=Canned())
    assert result.provider == "canned" and result.notes == ["nothing canned"]
    with pytest.raises(WebSourceError, match="at least one word"):
        news_search("  ?! ", provider=Canned())
