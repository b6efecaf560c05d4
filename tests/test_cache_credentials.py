"""A password in `--api-base` never reaches DSPy's response cache, and the cache still works.

DSPy keeps `api_base` out of its cache keys, but it pickles LiteLLM's response object to
disk, and that object records the URL it was sent to. The run goes to the fake OpenAI
server over real HTTP in a process of its own, so DSPy's disk cache lives where the test
points ``DSPY_CACHEDIR`` (it is fixed when DSPy is first imported).
"""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

from fake_openai import FakeOpenAI

REPO = Path(__file__).resolve().parents[1]
QUESTION = "How did 3M's capital expenditure compare with PepsiCo's in FY2022, and what drove it?"
PASSWORD = "pw-PLANTED/93c1+e"  # a slash and a plus: it must be percent-encoded in a URL


def _forms(secret: str) -> list[bytes]:
    """The secret as it may appear in a file: raw, percent-encoded, in a Basic header."""
    basic = base64.b64encode(f"analyst:{secret}".encode())
    return [secret.encode(), quote(secret, safe="").encode(), basic]


def _holding(root: Path, needles: list[bytes]) -> list[str]:
    return [
        str(path)
        for path in root.rglob("*")
        if path.is_file() and any(n in path.read_bytes() for n in needles)
    ]


def test_url_credentials_stay_out_of_the_response_cache(wissen_home, sample_store_path):
    cache = wissen_home / "dspy-cache"
    fake = FakeOpenAI().start()
    try:
        api_base = fake.url.replace("://", f"://analyst:{quote(PASSWORD, safe='')}@")
        command = [
            sys.executable, "-m", "cli.app", "ask", QUESTION, "--api-base", api_base,
            "--store", str(sample_store_path), "--max-probes", "1", "--max-rounds", "1",
            "--no-track", "--quiet",
        ]  # fmt: skip
        env = {**os.environ, "DSPY_CACHEDIR": str(cache)}
        first = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True)
        assert first.returncode == 0, first.stderr
        requests = fake.requests
        again = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True)
        assert again.returncode == 0, again.stderr
    finally:
        fake.stop()
    assert requests > 0 and any(cache.rglob("cache.db"))
    assert fake.requests == requests  # the second run was answered from the cache
    assert _holding(wissen_home, _forms(PASSWORD)) == []
    assert PASSWORD not in first.stdout + first.stderr + again.stdout + again.stderr
