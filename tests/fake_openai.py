"""An OpenAI-compatible fake server that answers like the scripted LM and faults on demand.

The research program reaches it exactly as it reaches vLLM or llama.cpp (``--api-base``,
LiteLLM's ``hosted_vllm`` route, real HTTP), so the fault tests exercise the real client
path: timeouts, status codes, ``Retry-After`` headers and unreadable bodies are produced by
a socket, not by a mock. Answers come from :class:`scripted_lm.ScriptedLM`, which reads the
system and last user message and replies in the asking agent's schema.

Which request faults is decided by a hash of the seed, the request's messages and how many
times they have been seen, never by arrival order: with eight worker threads racing,
a run still draws the same faults on the same requests, and a retry of a faulted request
(the same messages again) draws afresh.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import uuid
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from scripted_lm import ScriptedLM

# What a fault can be: a server error, rate limiting (with Retry-After), a reply slower than
# the client's timeout, a body that is not JSON, output cut at max_tokens, no output at all.
FAULT_KINDS: tuple[str, ...] = (
    "http_500",
    "rate_limit",
    "hang",
    "invalid_json",
    "truncated",
    "empty",
)


@dataclass
class FaultPlan:
    """How often to fault (`rate`, 0..1) and with which kinds, chosen deterministically.

    `rule` ((model, last user message) -> kind or None) faults chosen requests every time,
    whatever the draw: a test can doom one probe or one model without relying on hashes.
    """

    rate: float = 0.0
    kinds: tuple[str, ...] = FAULT_KINDS
    seed: int = 0
    retry_after: float = 0.05
    hang_s: float = 5.0
    rule: Callable[[str, str], str | None] | None = None

    def choose(self, key: str, seen: int, model: str, user: str) -> str | None:
        """The fault for the `seen`-th arrival of the messages hashed to `key`, or None."""
        if self.rule and (kind := self.rule(model, user)):
            return kind
        if self.rate <= 0 or not self.kinds:
            return None
        digest = hashlib.sha256(f"{self.seed}:{key}:{seen}".encode()).digest()
        draw = int.from_bytes(digest[:8], "big") / 2**64
        if draw >= self.rate:
            return None
        return self.kinds[int.from_bytes(digest[8:12], "big") % len(self.kinds)]


@dataclass
class FakeOpenAI:
    """The server: `url` is its `/v1` base; counters say what it served and injected."""

    lm: ScriptedLM = field(default_factory=ScriptedLM)
    plan: FaultPlan = field(default_factory=FaultPlan)
    # A fresh id per server keeps DSPy's response cache from answering for it across tests.
    model: str = field(default_factory=lambda: f"scripted-{uuid.uuid4().hex[:8]}")
    requests: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    answered: int = 0
    errors: list[str] = field(default_factory=list)
    delay: float = 0.0  # seconds before each chat answer: a slow server, for deadlines

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: Counter[str] = Counter()
        self._queued: deque[str | None] = deque()
        self._stopping = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    @property
    def total_faults(self) -> int:
        return sum(self.faults.values())

    def start(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # releases hanging handlers at once
        self._server.shutdown()
        self._server.server_close()

    def fault(self, rate: float, kinds: tuple[str, ...] = FAULT_KINDS, **plan: Any) -> None:
        """Fault `rate` of the chat requests from now on, with `kinds` (see FaultPlan)."""
        self.plan = FaultPlan(rate=rate, kinds=kinds, **plan)

    def queue(self, *fates: str | None) -> None:
        """The fates of the next requests, in arrival order (None: answer normally)."""
        with self._lock:
            self._queued.extend(fates)

    # -- request handling (handler threads) ------------------------------------------------
    def decide(self, request: dict[str, Any]) -> str | None:
        """This request's fault (None: answer), and the counts. Keyed on the messages only:
        the model id is per server, and the same conversation must draw the same faults."""
        messages = request.get("messages") or []
        key = hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()
        user = _system_and_user(messages)[1]
        with self._lock:
            self.requests += 1
            self._seen[key] += 1
            if self._queued:
                kind = self._queued.popleft()
            else:
                kind = self.plan.choose(key, self._seen[key], request.get("model", ""), user)
            if kind:
                self.faults[kind] += 1
            else:
                self.answered += 1
        return kind

    def wait(self, seconds: float) -> None:
        """Sleep in a handler, cut short when the server stops."""
        self._stopping.wait(seconds)

    def completion(self, request: dict[str, Any], kind: str | None) -> dict[str, Any]:
        """A chat.completion body for `request`, cut or emptied for those fault kinds."""
        system, user = _system_and_user(request.get("messages") or [])
        text = self.lm.respond(system, user)
        finish = "stop"
        if kind == "truncated":
            text, finish = text[: max(1, len(text) // 3)], "length"
        elif kind == "empty":
            text = ""
        return {
            "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.get("model") or self.model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": finish,
                }
            ],
            "usage": {
                "prompt_tokens": len(system + user) // 4,
                "completion_tokens": len(text) // 4,
                "total_tokens": (len(system + user) + len(text)) // 4,
            },
        }


def _text(content: Any) -> str:
    """A message's text, whether a string or a list of content parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def _system_and_user(messages: list[dict[str, Any]]) -> tuple[str, str]:
    system = next((_text(m.get("content")) for m in messages if m.get("role") == "system"), "")
    user = next(
        (_text(m.get("content")) for m in reversed(messages) if m.get("role") == "user"), ""
    )
    return system, user


def _handler_for(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass  # keep pytest output clean

        def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a hang it timed out on)

        def _json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
            self._send(status, json.dumps(payload).encode(), headers)

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                self._json(200, {"object": "list", "data": [{"id": fake.model, "object": "model"}]})
            else:
                self._json(404, {"error": {"message": f"no route {self.path}"}})

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._json(404, {"error": {"message": f"no route {self.path}"}})
                return
            request = json.loads(body)
            kind = fake.decide(request)
            if fake.delay:
                fake.wait(fake.delay)
            if kind == "http_500":
                self._json(500, {"error": {"message": "injected fault", "type": "server_error"}})
            elif kind == "rate_limit":
                error = {"error": {"message": "slow down", "type": "rate_limit_error"}}
                self._json(429, error, {"Retry-After": f"{fake.plan.retry_after:g}"})
            elif kind == "hang":
                fake.wait(fake.plan.hang_s)
                self._json(504, {"error": {"message": "hung"}})
            elif kind == "invalid_json":
                self._send(200, b'{"id": "chatcmpl-x", "choices": [{"index": 0, "mess')
            else:
                self._answer(request, kind)

        def _answer(self, request: dict[str, Any], kind: str | None) -> None:
            try:
                payload = fake.completion(request, kind)
            except Exception as exc:  # a responder bug must show in the test, not as a fault
                fake.errors.append(f"{type(exc).__name__}: {exc}")
                self._json(500, {"error": {"message": f"fake server bug: {exc}"}})
                return
            self._json(200, payload)

    return Handler


@pytest.fixture(name="fake_openai")
def fake_openai_fixture() -> Iterator[FakeOpenAI]:
    """A started fake server on a free port of 127.0.0.1, stopped after the test."""
    fake = FakeOpenAI().start()
    try:
        yield fake
    finally:
        fake.stop()
