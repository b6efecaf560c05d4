"""``research read`` and ``research news`` end to end, against the local recorded server."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
import test_websources_server as server
from typer.testing import CliRunner

from cli.app import app
from cli.web_sources_command import parse_since

served = server.served  # the recorded-response server fixture
runner = CliRunner()

ENV = (
    "WISSEN_NEWS_FEEDS",
    "WISSEN_SEARXNG_URL",
    "WISSEN_WEB_ALLOW_PRIVATE",
    "WISSEN_WEB_MAX_BYTES",
)


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for name in ENV:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def loopback_allowed(monkeypatch):
    monkeypatch.setenv("WISSEN_WEB_ALLOW_PRIVATE", "127.0.0.1/32")


def research(*args):
    return runner.invoke(app, list(args))


def test_read_shows_the_source_and_the_first_lines(served, loopback_allowed):
    result = research("read", served.url("/article"), "--lines", "2")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "3M raises capital spending plan for 2023" in out and "Example Business News" in out
    assert served.url("/article") in out and "2023-02-14" in out and "UTC" in out
    assert "capital expenditure of about $1.8 billion" in out
    assert "more lines (--json for the whole text)" in out


def test_read_json_is_the_whole_record(served, loopback_allowed):
    result = research("read", served.url("/article"), "--json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["publisher"] == "Example Business News" and len(record["uid"]) == 12
    assert record["retrieved_at"].endswith("Z") or "+00:00" in record["retrieved_at"]
    assert "free cash flow conversion" in record["text"]


def test_read_says_when_the_page_was_cut(served, loopback_allowed, monkeypatch):
    monkeypatch.setenv("WISSEN_WEB_MAX_BYTES", "20000")
    result = research("read", served.url("/big"))
    assert result.exit_code == 0, result.output
    assert "note: the page was cut at 20,000 bytes" in result.output


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/pdf", "content type application/pdf is not read here"),
        ("/to-metadata", "169.254.169.254, a link-local address"),
        ("/missing", "HTTP 404 Not Found"),
    ],
)
def test_read_failures_are_one_line_and_exit_2(served, loopback_allowed, path, message):
    result = research("read", served.url(path))
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert result.output.startswith("error:") and result.output.count("\n") == 1


def test_read_refuses_loopback_without_the_setting(served):
    result = research("read", served.url("/article"))
    assert result.exit_code == 2
    assert "a loopback address (set WISSEN_WEB_ALLOW_PRIVATE to allow it)" in result.output


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("file:///etc/passwd", "only http and https"),
        ("ftp://example.com/x", "only http and https"),
        ("", "give the URL of a web page"),
        ("example.com/news", "give the whole URL, e.g. https://"),
        ("http://[::1", "not a valid URL"),
    ],
)
def test_read_bad_urls(url, message):
    result = research("read", url)
    assert result.exit_code == 2 and message in result.output


def test_news_from_feeds_as_a_table(served, loopback_allowed, monkeypatch):
    monkeypatch.setenv("WISSEN_NEWS_FEEDS", f"{served.url('/rss')},{served.url('/atom')}")
    result = research("news", "3M", "--since", "2023-01-01")
    assert result.exit_code == 0, result.output
    assert "3M raises capital spending plan" in result.stdout
    assert "Reading 3M's 2022 10-K" in result.stdout
    assert "earplug" not in result.stdout  # August 2022, before --since
    assert "2 items from feeds" in result.stdout


def test_news_json_lines(served, loopback_allowed, monkeypatch):
    monkeypatch.setenv("WISSEN_NEWS_FEEDS", served.url("/rss"))
    result = research("news", "pepsico", "--json")
    assert result.exit_code == 0, result.output
    (record,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert record["publisher"] == "Example Markets Wire" and record["provider"] == "feeds"
    assert record["published"].startswith("2023-02-09")


def test_news_from_searxng(served, monkeypatch):
    monkeypatch.setenv("WISSEN_SEARXNG_URL", served.base)  # trusted: no allowance needed
    result = research("news", "3M capex", "--json")
    assert result.exit_code == 0, result.output
    urls = [json.loads(line)["url"] for line in result.stdout.splitlines()]
    assert urls[0] == "https://www.reuters.example/business/3m-capex-2023" and len(urls) == 3
    assert "note: engine google news did not answer: timeout" in result.output


def test_news_without_a_provider_is_exit_2():
    result = research("news", "3M")
    assert result.exit_code == 2
    assert "no news provider configured: set WISSEN_SEARXNG_URL" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["news", "   "], "give a news query"),
        (["news", "3M", "--since", "last tuesday"], "cannot read --since 'last tuesday'"),
        (["news", "3M", "--provider", "bing"], "unknown news provider 'bing'"),
        (["news", "3M", "--provider", "searxng"], "set WISSEN_SEARXNG_URL"),
    ],
)
def test_news_bad_input(args, message, monkeypatch):
    monkeypatch.setenv("WISSEN_NEWS_FEEDS", "https://feeds.example/rss")
    result = research(*args)
    assert result.exit_code == 2 and message in result.output
    assert "Traceback" not in result.output


def test_news_with_a_bad_setting_is_exit_2(monkeypatch):
    monkeypatch.setenv("WISSEN_NEWS_FEEDS", "https://feeds.example/rss")
    monkeypatch.setenv("WISSEN_WEB_ALLOW_PRIVATE", "the office")
    result = research("news", "3M")
    assert result.exit_code == 2 and "bad value in WISSEN_WEB_ALLOW_PRIVATE" in result.output


def test_since_forms():
    now = datetime(2024, 5, 10, 12, tzinfo=UTC)
    assert parse_since("7d", now) == datetime(2024, 5, 3, 12, tzinfo=UTC)
    assert parse_since("24h", now) == datetime(2024, 5, 9, 12, tzinfo=UTC)
    assert parse_since("2024-05-01", now) == datetime(2024, 5, 1, tzinfo=UTC)
    assert parse_since("2024-05-01T09:00Z", now) == datetime(2024, 5, 1, 9, tzinfo=UTC)
