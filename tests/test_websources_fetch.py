"""The safe fetcher and ``read_url`` against recorded responses on a local server."""

from __future__ import annotations

import ipaddress
from datetime import UTC, datetime

import pytest
import test_websources_server as server
from test_websources_server import BIG_BYTES, allowed

from websources import read_url
from websources.errors import FetchFailed, RefusedAddress, RefusedURL, WrongContentType
from websources.fetch import GuardedTransport, fetch
from websources.records import web_uid
from websources.settings import WebSettings

served = server.served  # the recorded-response server fixture


def test_loopback_is_refused_by_default(served):
    with pytest.raises(RefusedAddress, match=r"127\.0\.0\.1, a loopback address"):
        read_url(served.url("/article"), WebSettings())
    assert "/article" not in served.requests  # refused before connecting


def test_article_title_publisher_date_and_main_text(served):
    doc = read_url(served.url("/article"), allowed(served))
    assert doc.title == "3M raises capital spending plan for 2023"
    assert doc.publisher == "Example Business News"
    assert doc.published is not None and doc.published.date().isoformat() == "2023-02-14"
    assert "capital expenditure of about $1.8 billion" in doc.text
    assert "ADVERTISEMENT" not in doc.text and "Sign in" not in doc.text  # boilerplate gone
    assert doc.retrieved_at.tzinfo is UTC and doc.retrieved_at <= datetime.now(UTC)
    assert doc.uid == web_uid(served.url("/article")) and len(doc.uid) == 12
    assert doc.content_type == "text/html" and not doc.truncated and not doc.notes


def test_uid_ignores_fragment_and_host_case():
    assert web_uid("https://News.Example.com/a#top") == web_uid("https://news.example.com/a")
    assert web_uid("https://news.example.com/a") != web_uid("https://news.example.com/b")


def test_plain_text_page(served):
    doc = read_url(served.url("/plain"), allowed(served))
    assert doc.title == "Quarterly note" and "Sales rose 4%." in doc.text
    assert doc.publisher == "127.0.0.1"


def test_redirect_chain_is_followed_and_recorded(served):
    doc = read_url(served.url("/redirect/2"), allowed(served))
    assert doc.url == served.url("/article") and doc.requested_url == served.url("/redirect/2")
    assert "3 hops" in doc.notes[0]


def test_too_many_redirects(served):
    with pytest.raises(FetchFailed, match=r"too many redirects \(more than 1\)"):
        read_url(served.url("/redirect/2"), allowed(served, max_redirects=1))
    with pytest.raises(FetchFailed, match="too many redirects"):
        read_url(served.url("/loop"), allowed(served))


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("/to-private", r"10\.0\.0\.1, a private address"),
        ("/to-metadata", r"169\.254\.169\.254, a link-local address"),
        ("/to-ipv6-loopback", r"::1, a loopback address"),
        ("/to-mapped", r"loopback \(IPv4 127\.0\.0\.2 inside IPv6\)"),
    ],
)
def test_a_redirect_to_a_private_address_is_refused_at_that_hop(served, path, reason):
    with pytest.raises(RefusedAddress, match=reason):
        read_url(served.url(path), allowed(served))


def test_a_redirect_to_another_scheme_is_refused(served):
    with pytest.raises(RefusedURL, match="only http and https"):
        read_url(served.url("/to-file"), allowed(served))


@pytest.mark.parametrize(
    "url",
    ["file:///etc/passwd", "ftp://example.com/a", "gopher://example.com", "javascript:alert(1)"],
)
def test_non_http_schemes_are_refused(url):
    with pytest.raises(RefusedURL, match="only http and https"):
        read_url(url, WebSettings())


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://user:secret@example.com/", "user name or password"),
        ("http:///nohost", "no host"),
        ("not a url", "only http and https"),
    ],
)
def test_malformed_urls_are_refused(url, message):
    with pytest.raises(RefusedURL, match=message):
        read_url(url, WebSettings())


def test_an_oversized_body_is_cut_with_a_note(served):
    doc = read_url(served.url("/big"), allowed(served, max_bytes=50_000))
    assert doc.truncated and "cut at 50,000 bytes" in doc.notes[0]
    assert doc.text.startswith("Big") or "word" in doc.text


def test_the_limit_counts_decompressed_bytes(served):
    fetched = fetch(served.url("/bomb"), allowed(served, max_bytes=10_000))
    assert fetched.truncated and len(fetched.body) == 10_000
    assert BIG_BYTES > 10_000


@pytest.mark.parametrize(
    ("path", "shown"),
    [("/pdf", "application/pdf"), ("/octet", "application/octet-stream"), ("/notype", "none")],
)
def test_wrong_content_types_are_refused(served, path, shown):
    with pytest.raises(WrongContentType, match=f"content type {shown}"):
        read_url(served.url(path), allowed(served))


def test_http_errors_say_the_status(served):
    with pytest.raises(FetchFailed, match="HTTP 404 Not Found"):
        read_url(served.url("/missing"), allowed(served))


def test_a_slow_server_times_out(served):
    with pytest.raises(FetchFailed, match="timed out"):
        read_url(served.url("/slow"), allowed(served, read_timeout=0.5))


def test_connection_refused_is_a_fetch_failure(served):
    with pytest.raises(FetchFailed, match="could not fetch"):
        read_url("http://127.0.0.1:9/", allowed(served))


def test_dns_rebinding_is_caught_where_the_connection_is_made(served):
    """The name passes the early check (a public address), then resolves to loopback when
    the transport connects: the transport's own check refuses it."""
    answers = iter([[ipaddress.ip_address("93.184.215.14")], [ipaddress.ip_address("127.0.0.1")]])

    def rebinding(host, port):
        return next(answers)

    settings = WebSettings(read_timeout=2.0, connect_timeout=2.0)
    url = f"http://rebind.example:{served.port}/article"
    with pytest.raises(RefusedAddress, match="loopback"):
        fetch(url, settings, resolver=rebinding)
    assert "/article" not in served.requests[-1:]


def test_the_guarded_backend_is_in_place():
    """httpx takes no network backend, so GuardedTransport swaps its pool: an httpx
    upgrade that renamed the attribute must fail here, not silently lose the check."""
    from websources.fetch import GuardedBackend

    transport = GuardedTransport(WebSettings())
    assert isinstance(transport._pool._network_backend, GuardedBackend)
