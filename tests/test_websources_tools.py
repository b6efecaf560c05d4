"""The web sources in the shape of agent tools: dicts or refusal sentences, never raising."""

from __future__ import annotations

import test_websources_server as server
from test_websources_server import allowed

from websources.feeds import FeedProvider
from websources.settings import WebSettings
from websources.tools import WebTools

served = server.served  # the recorded-response server fixture


def test_read_tool_returns_a_citable_page_and_remembers_it(served):
    tools = WebTools(allowed(served))
    page = tools.read_function()(served.url("/article"))
    assert isinstance(page, dict) and page["cite"] == "[W1]"
    assert page["publisher"] == "Example Business News" and page["published"] == "2023-02-14"
    assert page["uid"] in tools.retrieved and "$1.8 billion" in page["text"]


def test_read_tool_refuses_in_words():
    tools = WebTools(WebSettings())
    answer = tools.read_function()("http://169.254.169.254/latest/meta-data/")
    assert isinstance(answer, str) and answer.startswith("Could not read that page: refused")
    assert not tools.retrieved


def test_news_tool_numbers_items_after_pages(served):
    settings = allowed(served)
    tools = WebTools(settings, FeedProvider([served.url("/rss")], settings), max_items=2)
    tools.read(served.url("/article"))
    hits = tools.news_function()("3M", since="2022-01-01")
    assert [h["cite"] for h in hits] == ["[W2]", "[W3]"]
    assert hits[0]["title"] == "3M raises capital spending plan for 2023"
    assert tools.news_function()("tesla").startswith("No news found")
    assert tools.news_function()("3M", since="soon").startswith("Could not read since=")


def test_news_tool_without_a_provider_says_so():
    answer = WebTools(WebSettings()).news("3M")
    assert isinstance(answer, str) and "no news provider configured" in answer
