"""A local HTTP server serving recorded responses, for the web-source tests (no network).

It listens on 127.0.0.1, so every test that reads from it must allow loopback in its
settings (``allowed(served)``): by default the reader refuses it, which is tested too.
Other web-source test modules import the ``served`` fixture from here.
"""

from __future__ import annotations

import contextlib
import gzip
import ipaddress
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from websources.settings import WebSettings

FIXTURES = Path(__file__).parent / "fixtures" / "websources"
BIG_BYTES = 3_000_000  # more than the test limit and the default 2 MB


@dataclass
class Served:
    """The running server: its base URL and the paths it was asked for."""

    base: str
    port: int
    requests: list[str] = field(default_factory=list)

    def url(self, path: str) -> str:
        return self.base + path


def allowed(served: Served, **changes) -> WebSettings:
    """Settings that allow the test server's loopback address (and nothing else private)."""
    values = {
        "allowed_networks": [ipaddress.ip_network("127.0.0.1/32")],
        "read_timeout": 2.0,
        "connect_timeout": 2.0,
        "total_timeout": 5.0,
        "max_bytes": 200_000,
        **changes,
    }
    return WebSettings(**values)


def _routes(port: int) -> dict[str, tuple[int, dict[str, str], bytes]]:
    article = (FIXTURES / "article.html").read_bytes()
    html = {"Content-Type": "text/html; charset=utf-8"}
    return {
        "/article": (200, html, article),
        "/plain": (200, {"Content-Type": "text/plain"}, b"Quarterly note\n\nSales rose 4%.\n"),
        "/rss": (
            200,
            {"Content-Type": "application/rss+xml"},
            (FIXTURES / "feed.rss").read_bytes(),
        ),
        "/atom": (
            200,
            {"Content-Type": "application/atom+xml; charset=utf-8"},
            (FIXTURES / "feed.atom").read_bytes(),
        ),
        "/search": (
            200,
            {"Content-Type": "application/json"},
            (FIXTURES / "searxng.json").read_bytes(),
        ),
        "/pdf": (200, {"Content-Type": "application/pdf"}, b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"),
        "/octet": (200, {"Content-Type": "application/octet-stream"}, b"\x00\x01\x02"),
        "/notype": (200, {}, b"<html><p>no type</p></html>"),
        "/missing": (404, html, b"<html>gone</html>"),
        "/forbidden-json": (403, html, b"<html>json disabled</html>"),
        "/badjson": (200, {"Content-Type": "application/json"}, b"<html>not json</html>"),
        "/local-file-feed": (
            200,
            {"Content-Type": "text/plain"},
            str(FIXTURES / "feed.rss").encode(),
        ),
        "/bomb": (
            200,
            {"Content-Type": "text/html", "Content-Encoding": "gzip"},
            gzip.compress(b"<p>" + b"a" * BIG_BYTES + b"</p>"),
        ),
        "/redirect/0": (302, {"Location": "/article"}, b""),
        "/redirect/1": (301, {"Location": "/redirect/0"}, b""),
        "/redirect/2": (307, {"Location": f"http://127.0.0.1:{port}/redirect/1"}, b""),
        "/loop": (302, {"Location": "/loop"}, b""),
        "/to-private": (302, {"Location": "http://10.0.0.1/admin"}, b""),
        "/to-metadata": (302, {"Location": "http://169.254.169.254/latest/meta-data/"}, b""),
        "/to-ipv6-loopback": (302, {"Location": f"http://[::1]:{port}/article"}, b""),
        "/to-mapped": (302, {"Location": f"http://[::ffff:127.0.0.2]:{port}/article"}, b""),
        "/to-file": (302, {"Location": "file:///etc/passwd"}, b""),
    }


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    """The recorded-response server, one per test module."""
    state: dict[str, Served] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            served = state["served"]
            served.requests.append(self.path)
            path = urlsplit(self.path).path
            if path == "/big":
                self._big()
                return
            if path == "/slow":
                time.sleep(3)
            status, headers, body = _routes(served.port).get(
                path, (404, {"Content-Type": "text/plain"}, b"not found")
            )
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            # The reader may refuse the body (its type, its size): what it should do.
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.wfile.write(body)

        def _big(self) -> None:
            """An oversized page, streamed in chunks with no Content-Length."""
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<html><body><article><h1>Big</h1>")
            chunk = b"<p>" + b"word " * 2000 + b"</p>\n"
            sent = 0
            try:
                while sent < BIG_BYTES:
                    self.wfile.write(chunk)
                    sent += len(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the reader cut the body: what it should do

        def log_message(self, *args) -> None:  # quiet
            pass

    class Server(ThreadingHTTPServer):
        def handle_error(self, request, client_address) -> None:  # a cut connection: quiet
            pass

    server = Server(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    port = server.server_address[1]
    state["served"] = Served(base=f"http://127.0.0.1:{port}", port=port)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state["served"]
    finally:
        server.shutdown()
        server.server_close()


def test_the_server_serves_recorded_responses(served):
    response = httpx.get(served.url("/article"), trust_env=False)
    assert response.status_code == 200 and b"3M raises capital" in response.content
