"""Main text, title, site name and date of a fetched page (trafilatura).

trafilatura drops navigation, adverts and footers, which a citation must not quote, and
reads the metadata publishers put in ``<meta>`` tags (OpenGraph, JSON-LD). When it finds
no main text (a very short page) the page's plain text is used, so a page is never
"read" as empty while it has words.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import trafilatura

from websources.dates import as_utc


@dataclass(frozen=True)
class Extracted:
    """What a page says about itself."""

    title: str | None
    site_name: str | None
    published: datetime | None
    text: str


def extract_html(html: bytes | str, url: str) -> Extracted:
    """The main text and metadata of an HTML page."""
    doc = trafilatura.bare_extraction(
        html,
        url=url,
        with_metadata=True,
        include_comments=False,
        include_tables=True,
        include_images=False,
    )
    if doc is None:
        meta = trafilatura.extract_metadata(html, default_url=url)
        text = trafilatura.html2txt(html) or ""
        return Extracted(
            title=getattr(meta, "title", None) or None,
            site_name=getattr(meta, "sitename", None) or None,
            published=as_utc(getattr(meta, "date", None)),
            text=text.strip(),
        )
    return Extracted(
        title=(doc.title or None),
        site_name=(doc.sitename or None),
        published=as_utc(doc.date),
        text=(doc.text or "").strip(),
    )


def extract_plain(text: str) -> Extracted:
    """A plain-text page: its first non-empty line is the best title it has."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return Extracted(title=first[:200] or None, site_name=None, published=None, text=text.strip())
