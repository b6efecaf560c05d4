"""Shared pieces of the web app's tests: a client on a loopback Host, a live server,
hostile text, and the Chromium the browser tests drive."""

from __future__ import annotations

import shutil
import socket
from pathlib import Path

from fastapi.testclient import TestClient

from web.app import create_app
from web.settings import WebSettings

LOCAL = "http://127.0.0.1:8000"
HOSTILE = (
    '<script>alert("page")</script><img src=x onerror="alert(1)"> '
    "Purchases of property, plant and equipment (1,234) <b onmouseover=alert(2)>bold</b>"
)


def client(settings: WebSettings, runs=None, base_url: str = LOCAL) -> TestClient:
    """A test client of the app for ``settings``; the app's lifespan runs on enter."""
    return TestClient(create_app(settings, runs=runs), base_url=base_url)


CHROMIUM = shutil.which("chromium") or (
    "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def free_port() -> int:
    """A loopback port nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LiveServer:
    """The app served by uvicorn on a free loopback port, in a thread of the test process
    (so the test's monkeypatched LM is the one the app's runs use)."""

    def __init__(self, app, port: int | None = None, runs=None) -> None:
        """``runs``: the app's run control, stopped before uvicorn waits for connections,
        as ``research serve`` does (a live trace would otherwise hold shutdown)."""
        import uvicorn

        self.port = port or free_port()
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        if runs is None:
            self.server = uvicorn.Server(config)
        else:
            from cli.serve_command import run_stopping_server

            self.server = run_stopping_server()(config, runs)
        self.url = f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> LiveServer:
        import threading
        import time

        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


def run_errors(home) -> list[str]:
    """Every ``error`` a run record under ``home`` holds (a probe that raised, a synthesis
    that failed): what a test says when a run it expected to complete did not."""
    import json
    from pathlib import Path

    found: list[str] = []

    def walk(node) -> None:
        if isinstance(node, dict):
            found.extend(str(v) for k, v in node.items() if k == "error" and v)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for record in Path(home).rglob("run.json"):
        walk(json.loads(record.read_text()))
    return found
