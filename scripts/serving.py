"""What the screenshot scripts share: a ``research`` server started in its own process
group, waited for, and stopped with Ctrl-C; Debian's Chromium launched by Playwright."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu"]


@contextlib.contextmanager
def research_server(args: list[str], url: str, what: str, timeout: float = 120.0) -> Iterator[None]:
    """``research ARGS`` running until the block ends, once ``url`` answers."""
    server = subprocess.Popen(
        [sys.executable, "-c", "from cli.app import main; main()", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                urllib.request.urlopen(url, timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit(f"{what} did not answer at {url}") from None
                time.sleep(1)
        yield
    finally:
        os.killpg(server.pid, signal.SIGINT)
        server.wait(timeout=30)


def launch_chromium(playwright: Any, executable: str) -> Any:
    """Debian's Chromium, headless (Playwright's own browser download needs the internet)."""
    return playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
