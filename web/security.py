"""The app's gate: access token, Host and Origin checks, and bounded request bodies.

Plain ASGI middleware, so server-sent event streams pass through untouched (Starlette's
``BaseHTTPMiddleware`` buffers around streaming responses).

- **Token**: when the app has one, every request must carry it: ``Authorization: Bearer``,
  the ``wissen_token`` cookie, or ``?token=`` once (which sets the cookie and redirects to
  the same URL without it, so the token leaves the address bar and the history).
- **Host**: on a loopback bind only loopback Host headers are served, so a web page cannot
  reach the app through a rebound DNS name.
- **Origin**: a state-changing request (POST) from another origin is refused, so a page on
  another site cannot start runs in the analyst's browser.
- **Body size**: a request body over the limit is refused with 413 before the app reads it.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from web.settings import WebSettings, is_loopback

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

TOKEN_COOKIE = "wissen_token"
TOKEN_PARAM = "token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}


def _host_name(host_header: str) -> str:
    """``127.0.0.1:8000`` -> ``127.0.0.1``; ``[::1]:8000`` -> ``::1``."""
    if host_header.startswith("["):
        return host_header[1 : host_header.find("]")] if "]" in host_header else host_header
    return host_header.rsplit(":", 1)[0] if host_header.count(":") == 1 else host_header


async def _respond(send: Send, status: int, message: str, headers: list | None = None) -> None:
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class Gate:
    """Wraps the app with the checks above; see the module docstring."""

    def __init__(self, app: ASGIApp, settings: WebSettings) -> None:
        self.app = app
        self.token = settings.token
        self.loopback_only = is_loopback(settings.host)
        self.max_body = settings.max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        host = headers.get("host", "")
        if self.loopback_only and not is_loopback(_host_name(host)):
            await _respond(send, 421, f"this server answers only on 127.0.0.1, not {host!r}")
            return
        if self.token is not None and not await self._authorised(scope, headers, send):
            return
        method = scope["method"]
        if method not in SAFE_METHODS:
            origin = headers.get("origin")
            if origin and origin != "null" and urlsplit(origin).netloc != host:
                await _respond(send, 403, "cross-origin requests may not change anything")
                return
            if origin == "null":
                await _respond(send, 403, "requests from an opaque origin may not change anything")
                return
        declared = headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body):
            await _respond(send, 413, f"request body over {self.max_body} bytes")
            return
        body, too_big = await self._read_body(receive) if method not in SAFE_METHODS else (b"", 0)
        if too_big:
            await _respond(send, 413, f"request body over {self.max_body} bytes")
            return
        await self.app(
            scope, _replay(body, receive) if method not in SAFE_METHODS else receive, send
        )

    async def _read_body(self, receive: Receive) -> tuple[bytes, bool]:
        """The whole body, up to the limit (a chunked body declares no length)."""
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return b"", True
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        return b"".join(chunks), False

    async def _authorised(self, scope: Scope, headers: dict[str, str], send: Send) -> bool:
        """Whether the request carries the token; answers it (401 or a redirect) if not."""
        assert self.token is not None
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        given = dict(query).get(TOKEN_PARAM)
        if given is not None and _same(given, self.token):
            if scope["method"] == "GET":  # drop the token from the URL, keep it in a cookie
                rest = urlencode([(k, v) for k, v in query if k != TOKEN_PARAM])
                location = scope.get("root_path", "") + scope["path"] + (f"?{rest}" if rest else "")
                cookie = f"{TOKEN_COOKIE}={self.token}; Path=/; HttpOnly; SameSite=Strict"
                await _respond(
                    send,
                    303,
                    "authorised",
                    [(b"location", location.encode()), (b"set-cookie", cookie.encode())],
                )
                return False
            return True
        auth = headers.get("authorization", "")
        if auth.lower().startswith("bearer ") and _same(auth[7:].strip(), self.token):
            return True
        cookies = SimpleCookie()
        try:
            cookies.load(headers.get("cookie", ""))
        except Exception:  # a malformed Cookie header is simply no token
            cookies = SimpleCookie()
        if TOKEN_COOKIE in cookies and _same(cookies[TOKEN_COOKIE].value, self.token):
            return True
        await _respond(
            send,
            401,
            "an access token is required: open the URL `research serve` printed "
            "(…/?token=…) or send `Authorization: Bearer TOKEN`",
        )
        return False


def _same(given: str, token: str) -> bool:
    return hmac.compare_digest(given.encode(), token.encode())


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the app the body already read, then defers to the server."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
