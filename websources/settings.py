"""One small model of everything the web sources may do, read from the environment.

Defaults are the safe ones: no private addresses, no news provider (so nothing goes online
unless the user configured it), short timeouts, a 2 MB body limit, 5 redirect hops. The
environment variables a user sets:

``WISSEN_NEWS_FEEDS``
    RSS/Atom feed URLs, separated by commas or whitespace.
``WISSEN_SEARXNG_URL``
    Base URL of a SearXNG instance with the JSON format enabled.
``WISSEN_WEB_ALLOW_PRIVATE``
    ``1``/``true`` allows every private/loopback/link-local address (a trusted intranet);
    otherwise a comma-separated list of networks (``10.1.0.0/16,127.0.0.1/32``) to allow.
``WISSEN_WEB_MAX_BYTES``, ``WISSEN_WEB_TIMEOUT``
    The body size limit in bytes and the read timeout in seconds.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Mapping

from pydantic import BaseModel, Field, ValidationError

from websources.errors import NotConfigured

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

_TRUE = {"1", "true", "yes", "on", "all"}
_FALSE = {"", "0", "false", "no", "off", "none"}


class WebSettings(BaseModel):
    """What the safe fetcher and the news providers are allowed to do."""

    allow_private: bool = Field(
        False, description="allow every non-public address (loopback, private, link-local…)"
    )
    allowed_networks: list[IPNetwork] = Field(
        default_factory=list, description="non-public networks allowed all the same"
    )
    feeds: list[str] = Field(default_factory=list, description="RSS/Atom feed URLs")
    searxng_url: str | None = Field(None, description="base URL of a SearXNG instance")
    connect_timeout: float = Field(5.0, gt=0)
    read_timeout: float = Field(10.0, gt=0, description="longest wait for the next bytes")
    total_timeout: float = Field(30.0, gt=0, description="longest a whole fetch may take")
    max_bytes: int = Field(2_000_000, gt=0, description="body size limit (decoded bytes)")
    max_redirects: int = Field(5, ge=0)
    user_agent: str = "wissen-research/0.1 (+web sources; a citation reader)"
    news_limit: int = Field(20, gt=0, description="most news items returned")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> WebSettings:
        """Settings from ``WISSEN_*`` variables (see the module docstring); a bad value is
        a :class:`NotConfigured` naming the variable."""
        env = os.environ if environ is None else environ
        values: dict[str, object] = {}
        feeds = env.get("WISSEN_NEWS_FEEDS", "")
        if feeds.strip():
            values["feeds"] = [f for f in re.split(r"[\s,]+", feeds.strip()) if f]
        searxng = env.get("WISSEN_SEARXNG_URL", "").strip()
        if searxng:
            values["searxng_url"] = searxng
        allow = env.get("WISSEN_WEB_ALLOW_PRIVATE", "").strip()
        if allow.lower() in _TRUE:
            values["allow_private"] = True
        elif allow.lower() not in _FALSE:
            values["allowed_networks"] = [n.strip() for n in allow.split(",") if n.strip()]
        for variable, field in (
            ("WISSEN_WEB_MAX_BYTES", "max_bytes"),
            ("WISSEN_WEB_TIMEOUT", "read_timeout"),
        ):
            if env.get(variable, "").strip():
                values[field] = env[variable].strip()
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            first = exc.errors()[0]
            field = str(first["loc"][0]) if first["loc"] else "settings"
            variable = {
                "allowed_networks": "WISSEN_WEB_ALLOW_PRIVATE",
                "max_bytes": "WISSEN_WEB_MAX_BYTES",
                "read_timeout": "WISSEN_WEB_TIMEOUT",
            }.get(field, field)
            raise NotConfigured(f"bad value in {variable}: {first['msg']}") from None
