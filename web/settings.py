"""What one ``research serve`` process is configured with, and the loopback rule.

The app binds to 127.0.0.1 by default. On any other address anyone on the network could
reach it, so an access token is then required (``research serve`` generates one unless it
is given one).
"""

from __future__ import annotations

import ipaddress
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from retrieval.store_location import StoreLocation

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
#: Forms and JSON bodies are small: a question is at most 2,000 characters.
MAX_BODY_BYTES = 64 * 1024
#: Longest search query the grid page accepts.
MAX_QUERY_CHARS = 500
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain"})


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a bind address or a Host header's name) is this machine only."""
    name = host.strip().strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def new_token() -> str:
    """A fresh access token: 32 URL-safe characters from the OS's random source."""
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)
class WebSettings:
    """The app's configuration; ``token`` None means no token is asked for (loopback only)."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    token: str | None = None
    store: StoreLocation | None = None  # a path or address given here is parsed once
    pdf_dirs: tuple[Path, ...] = field(default_factory=tuple)
    max_body_bytes: int = MAX_BODY_BYTES
    mlflow_ui: str = "http://127.0.0.1:5000"
    max_runs: int = 1
    concurrency: int = 8
    track: bool = True

    def __post_init__(self) -> None:
        if self.store is not None and not isinstance(self.store, StoreLocation):
            object.__setattr__(self, "store", StoreLocation.parse(self.store))
        if not is_loopback(self.host) and not self.token:
            raise ValueError(
                f"binding to {self.host} exposes the app beyond this machine: an access token "
                "is required"
            )
        if self.max_runs > 1 and self.track:
            raise ValueError(
                "MLflow's autolog is process-wide, so runs going at once would mix their "
                "traces: use --no-track with --max-runs above 1"
            )
        if self.token is not None and len(self.token) < 16:
            raise ValueError("the access token must be at least 16 characters long")
