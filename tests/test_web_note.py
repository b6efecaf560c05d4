"""``/note``: the research note as a page, over the sample grid and the sample prices; news
from the recorded-response server, never the network."""

from __future__ import annotations

import re
import shutil

import pytest
import test_websources_server as server
from web_helpers import HOSTILE, client

from market.local import SAMPLE_DIR, LocalFileProvider
from notes import OutsideSources, build_note
from notes.gather import gather_market
from retrieval.store import GridFilter
from web.routes_note import PRICES_HOW
from web.settings import WebSettings

served = server.served
HTML = {"accept": "text/html"}


@pytest.fixture(scope="module")
def web(sample_store_path):
    with client(WebSettings(store=sample_store_path)) as c:
        yield c


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    for name in (
        "WISSEN_NEWS_FEEDS",
        "WISSEN_SEARXNG_URL",
        "WISSEN_WEB_ALLOW_PRIVATE",
        "WISSEN_PRICES_DIR",
    ):
        monkeypatch.delenv(name, raising=False)


def test_the_form_is_linked_from_every_page(web):
    response = web.get("/note", headers=HTML)
    assert response.status_code == 200
    assert '<form class="search" method="get" action="/note">' in response.text
    assert 'name="ticker"' in response.text and 'id="note"' not in response.text
    assert '<a href="/note">Note</a>' in web.get("/grid", headers=HTML).text


def test_the_page_is_the_cli_note_with_linked_citations(web, sample_store):
    response = web.get("/note", params={"ticker": "mmm"}, headers=HTML)
    assert response.status_code == 200, response.text
    html = response.text
    for title in ("Business snapshot", "Latest results", "Three-year trends", "Risks"):
        assert f"<h2>{title}" in html
    assert "Revenue was 34,229 million USD in FY2022, down 3.2% from 35,355 million USD" in html
    # a page citation is a superscript link to the cited page; the price series is text
    assert re.search(r'<sup class="cites"><a class="cite" href="/pages/[0-9a-f]+', html)
    assert 'id="synthetic"' in html and "The last close was 87.32 on 2023-06-30." in html
    sources = html.split('id="sources"', 1)[1].split("</ol>", 1)[0]
    outside = OutsideSources()
    facts = list(sample_store.facts(GridFilter(ticker="MMM")))
    gather_market(outside, "MMM", facts, LocalFileProvider, PRICES_HOW)
    expected = build_note(sample_store, "MMM", outside).sources
    assert sources.count("<li ") == len(expected) > 8  # pages and the price series
    assert all(f'id="source-{n}"' in sources for n in range(1, len(expected) + 1))
    assert 'href="/pages/' in sources and "MMM 10-K FY2022 p.48" in sources
    assert "price series: local (market/sample/MMM.csv), as of 2023-06-30" in sources
    assert 'id="cited-page"' in html  # the cited page opens beside the note


def test_the_review_is_the_last_section(web):
    html = web.get("/note", params={"ticker": "PEP"}, headers=HTML).text
    review = html.split('id="review-title"', 1)[1]
    assert html.index('id="sources"') < html.index('id="review-title"')
    assert "No issues found by the review checks." in review.split("</article>", 1)[0]


def test_unconfigured_and_missing_sources_are_one_line(web, tmp_path, monkeypatch):
    html = web.get("/note", params={"ticker": "MMM"}, headers=HTML).text
    assert "News is not configured: start research serve with WISSEN_SEARXNG_URL" in html
    shutil.copy(SAMPLE_DIR / "PEP.csv", tmp_path / "PEP.csv")
    monkeypatch.setenv("WISSEN_PRICES_DIR", str(tmp_path))
    html = web.get("/note", params={"ticker": "MMM"}, headers=HTML).text
    assert "No price data for MMM" in html and "WISSEN_PRICES_DIR" in html
    assert 'id="synthetic"' not in html and "P/E is" not in html


def test_news_is_read_only_when_configured(web, served, monkeypatch):
    monkeypatch.setenv("WISSEN_WEB_ALLOW_PRIVATE", "127.0.0.1/32")
    monkeypatch.setenv("WISSEN_NEWS_FEEDS", served.url("/rss"))
    html = web.get("/note", params={"ticker": "MMM"}, headers=HTML).text
    assert "/rss" in " ".join(served.requests)
    sources = html.split('id="sources"', 1)[1]
    assert "web: “3M raises capital spending plan for 2023”" in sources
    link = '<a href="https://news.example.com/2023/02/3m-capex" rel="noopener noreferrer"'
    assert link in sources and "file:///" not in html


@pytest.mark.parametrize("ticker", ["NOPE", HOSTILE[:20]])
def test_a_ticker_off_the_grid_is_the_error_line_not_a_traceback(web, ticker):
    response = web.get("/note", params={"ticker": ticker}, headers=HTML)
    assert response.status_code == 404
    error = response.text.split('id="note-error">', 1)[1].split("</p>", 1)[0]
    assert "is not in the grid; it holds KO, MMM, PEP" in error
    assert "<script>" not in response.text and "Traceback" not in response.text
    assert 'id="note"' not in response.text


def test_a_ticker_too_long_is_a_bad_request(web):
    response = web.get("/note", params={"ticker": "X" * 200}, headers=HTML)
    assert response.status_code == 400 and "ticker" in response.text
    assert web.get("/note", params={"ticker": "X" * 200}).json()["error"].startswith("bad ticker")
