"""The safe fetcher every web source goes through: one GET, checked at every step.

What it enforces, and why:

* **http and https only**, no credentials in the URL: a ``file:`` or ``ftp:`` URL, or a
  password pasted into a link, has no business in a citation reader.
* **Public addresses only** (unless the settings allow more): the host is resolved and
  every address checked before connecting (:mod:`websources.addresses`), and again by the
  transport at the moment it connects, to the very address it connects to. The second
  check is what defeats DNS rebinding (a name that resolves to a public address for the
  check, then to 127.0.0.1 for the connection): the socket is opened to the checked IP,
  while TLS still verifies the certificate against the host name.
* **Every redirect hop re-checked**: redirects are followed here, one hop at a time, each
  new URL going through the same checks; at most ``max_redirects`` hops.
* **Timeouts**: connect, read (between bytes) and a deadline for the whole fetch, so a
  server dripping one byte at a time cannot hold the reader.
* **A body size limit while streaming**: the body is cut at ``max_bytes`` (counted after
  decompression, so a gzip bomb is cut too) and the result says it was cut.
* **Content types checked** before the body is read: a PDF or an image is refused by
  name, not fed to an HTML parser.
* **No proxies or ``.netrc`` from the environment** (``trust_env=False``): a proxy would
  connect on our behalf to addresses we never see.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import httpcore
import httpx

from websources.addresses import Resolver, checked_addresses, system_resolver
from websources.errors import FetchFailed, RefusedURL, WrongContentType
from websources.settings import WebSettings

#: What a page reader accepts.
PAGE_TYPES = frozenset({"text/html", "application/xhtml+xml", "text/plain"})
#: What a feed reader accepts (feeds are often served as plain XML or text).
FEED_TYPES = frozenset(
    {
        "application/rss+xml",
        "application/atom+xml",
        "application/rdf+xml",
        "application/x-rss+xml",  # legacy names, still served (Python's own mimetypes)
        "application/x-atom+xml",
        "application/xml",
        "text/xml",
        "text/plain",
    }
)
JSON_TYPES = frozenset({"application/json"})

_REDIRECTS = {301, 302, 303, 307, 308}


@dataclass(frozen=True)
class Fetched:
    """A fetched body and what is known about it."""

    url: str  # after redirects
    requested_url: str
    status: int
    media_type: str  # "text/html", without parameters
    charset: str | None
    body: bytes
    truncated: bool
    redirects: list[str] = field(default_factory=list)

    def text(self) -> str:
        """The body decoded by its declared charset (UTF-8 when none), never failing."""
        try:
            return self.body.decode(self.charset or "utf-8", errors="replace")
        except LookupError:  # an unknown charset name
            return self.body.decode("utf-8", errors="replace")


class GuardedBackend(httpcore.SyncBackend):
    """httpcore's socket backend, connecting only to addresses the settings allow.

    httpcore hands this the host name of the URL; it is resolved here, every address
    checked, and the socket opened to a checked IP itself, so no second lookup can answer
    differently. TLS (``start_tls``) still uses the host name for SNI and certificates.
    """

    def __init__(self, settings: WebSettings, resolver: Resolver) -> None:
        self.settings = settings
        self.resolver = resolver

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        addresses = checked_addresses(host, port, self.settings, self.resolver)
        last: Exception | None = None
        for ip in addresses:
            try:
                return super().connect_tcp(str(ip), port, timeout, local_address, socket_options)
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                last = exc
        assert last is not None  # addresses is never empty
        raise last


class GuardedTransport(httpx.HTTPTransport):
    """An httpx transport whose connections go through :class:`GuardedBackend`.

    httpx takes no network backend, so its connection pool is replaced by one built with
    ours; ``tests/test_websources_fetch.py`` checks the swap still takes (a rebinding name
    is refused at connect time), so an httpx upgrade that renames ``_pool`` fails a test
    rather than silently dropping the check.
    """

    def __init__(self, settings: WebSettings, resolver: Resolver = system_resolver) -> None:
        super().__init__(trust_env=False)
        self._pool = httpcore.ConnectionPool(
            ssl_context=httpx.create_ssl_context(trust_env=False),
            max_connections=4,
            network_backend=GuardedBackend(settings, resolver),
        )


def checked_url(url: str) -> httpx.URL:
    """``url`` parsed, or :class:`RefusedURL` saying what is wrong with it."""
    try:
        parsed = httpx.URL(url.strip())
    except (httpx.InvalidURL, TypeError, ValueError) as exc:
        raise RefusedURL(f"not a valid URL: {url!r} ({exc})") from None
    if not parsed.scheme and url.strip():
        raise RefusedURL(
            f"refused {url!r}: only http and https URLs are read; give the whole URL, "
            "e.g. https://example.com/page"
        )
    if parsed.scheme not in ("http", "https"):
        scheme = parsed.scheme or "none"
        raise RefusedURL(f"refused {url!r}: only http and https URLs are read (scheme {scheme})")
    if not parsed.host:
        raise RefusedURL(f"refused {url!r}: the URL has no host")
    if parsed.userinfo:
        raise RefusedURL(f"refused {url!r}: URLs with a user name or password are not read")
    return parsed


def fetch(
    url: str,
    settings: WebSettings,
    accept: frozenset[str] = PAGE_TYPES,
    resolver: Resolver = system_resolver,
) -> Fetched:
    """GET ``url`` under every rule of this module; a :class:`~websources.errors.
    WebSourceError` on any failure."""
    deadline = time.monotonic() + settings.total_timeout
    timeout = httpx.Timeout(
        settings.read_timeout, connect=settings.connect_timeout, pool=settings.connect_timeout
    )
    headers = {
        "User-Agent": settings.user_agent,
        "Accept": ", ".join(sorted(accept)) + ";q=1.0, */*;q=0.1",
    }
    current = url.strip()
    hops: list[str] = []
    with httpx.Client(
        transport=GuardedTransport(settings, resolver),
        timeout=timeout,
        follow_redirects=False,
        trust_env=False,
        headers=headers,
    ) as client:
        for _ in range(settings.max_redirects + 1):
            target = checked_url(current)
            port = target.port or (443 if target.scheme == "https" else 80)
            checked_addresses(target.host, port, settings, resolver)  # a clear message early
            try:
                with client.stream("GET", target) as response:
                    location = response.headers.get("location")
                    if response.status_code in _REDIRECTS and location:
                        hops.append(str(target))
                        try:
                            current = str(response.url.join(location))
                        except httpx.InvalidURL as exc:
                            raise FetchFailed(f"bad redirect from {target}: {exc}") from None
                        continue
                    return _finish(url, target, response, accept, settings, deadline, hops)
            except httpx.TimeoutException:
                raise FetchFailed(
                    f"timed out fetching {target} (connect {settings.connect_timeout:g} s, "
                    f"read {settings.read_timeout:g} s)"
                ) from None
            except httpx.HTTPError as exc:
                raise FetchFailed(
                    f"could not fetch {target}: {exc or type(exc).__name__}"
                ) from None
    raise FetchFailed(f"too many redirects (more than {settings.max_redirects}) from {url}")


def _finish(
    requested: str,
    target: httpx.URL,
    response: httpx.Response,
    accept: frozenset[str],
    settings: WebSettings,
    deadline: float,
    hops: list[str],
) -> Fetched:
    """Check the final response's status and type, then read its body within the limits."""
    if response.status_code >= 400:
        raise FetchFailed(f"HTTP {response.status_code} {response.reason_phrase} from {target}")
    raw_type = response.headers.get("content-type", "")
    media_type = raw_type.split(";")[0].strip().lower()
    if media_type not in accept:
        shown = media_type or "none given"
        raise WrongContentType(
            f"refused {target}: content type {shown} is not read here "
            f"(accepted: {', '.join(sorted(accept))})"
        )
    chunks: list[bytes] = []
    size = 0
    truncated = False
    for chunk in response.iter_bytes():
        if time.monotonic() > deadline:
            raise FetchFailed(
                f"timed out fetching {target}: the whole fetch took over "
                f"{settings.total_timeout:g} s"
            )
        room = settings.max_bytes - size
        if len(chunk) > room:
            chunks.append(chunk[:room])
            truncated = True
            break
        chunks.append(chunk)
        size += len(chunk)
    return Fetched(
        url=str(target),
        requested_url=requested,
        status=response.status_code,
        media_type=media_type,
        charset=response.charset_encoding,
        body=b"".join(chunks),
        truncated=truncated,
        redirects=hops,
    )
