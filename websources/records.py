"""The records a web source becomes: everything a citation needs, and a stable id.

A filing page is cited by its 12-hex-digit uid; a web page gets one of the same shape
(:func:`web_uid`), derived from its URL alone so the same article read twice, or found by
two providers, is the same source.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from urllib.parse import urlsplit, urlunsplit

from pydantic import BaseModel, Field


def normalised_url(url: str) -> str:
    """``url`` with a lower-case scheme and host and no fragment: the parts that do not
    change which document the server sends."""
    parts = urlsplit(url.strip())
    return urlunsplit(
        (parts.scheme.lower(), parts.netloc.lower(), parts.path or "/", parts.query, "")
    )


def web_uid(url: str) -> str:
    """Stable 12-hex-digit id of a web source (sha256 of its normalised URL), the shape of
    a filing page's uid so both can be cited the same way."""
    return hashlib.sha256(normalised_url(url).encode()).hexdigest()[:12]


def host_of(url: str) -> str:
    """The host of ``url`` without a leading ``www.``: the publisher when nothing better
    is known."""
    host = (urlsplit(url).hostname or "").lower()
    return host.removeprefix("www.")


class WebDocument(BaseModel):
    """A web page that was read: its text and what a citation of it needs."""

    uid: str = Field(description="12 hex digits from the URL; cite it like a page uid")
    url: str = Field(description="the URL the text came from (after redirects)")
    requested_url: str = Field(description="the URL that was asked for")
    title: str
    publisher: str = Field(description="the site name, or the host when the page gives none")
    published: datetime | None = Field(None, description="the page's date, when it gives one")
    retrieved_at: datetime = Field(description="when it was read (UTC)")
    content_type: str
    text: str
    truncated: bool = Field(False, description="the body was cut at the size limit")
    notes: list[str] = Field(default_factory=list, description="what a reader should know")


class NewsItem(BaseModel):
    """One news hit: enough to cite it and to decide whether to read it."""

    uid: str
    url: str
    title: str
    publisher: str
    published: datetime | None = None
    retrieved_at: datetime = Field(description="when the provider was asked (UTC)")
    summary: str = ""
    provider: str = Field(description="which provider found it: feeds or searxng")
    source: str = Field("", description="the feed URL or search engine it came through")
