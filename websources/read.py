"""``read_url``: a web page as a citable :class:`~websources.records.WebDocument`."""

from __future__ import annotations

from websources.addresses import Resolver, system_resolver
from websources.dates import utc_now
from websources.extract import extract_html, extract_plain
from websources.fetch import PAGE_TYPES, fetch
from websources.records import WebDocument, host_of, web_uid
from websources.settings import WebSettings


def read_url(
    url: str, settings: WebSettings | None = None, resolver: Resolver = system_resolver
) -> WebDocument:
    """Fetch ``url`` safely (:mod:`websources.fetch`) and extract its main text.

    Raises a :class:`~websources.errors.WebSourceError` on any failure. A body cut at the
    size limit is still read, and the document says so (``truncated`` and a note).
    """
    settings = settings or WebSettings.from_env()
    retrieved_at = utc_now()
    fetched = fetch(url, settings, PAGE_TYPES, resolver)
    if fetched.media_type == "text/plain":
        extracted = extract_plain(fetched.text())
    else:
        extracted = extract_html(fetched.body, fetched.url)
    notes: list[str] = []
    if fetched.truncated:
        notes.append(
            f"the page was cut at {settings.max_bytes:,} bytes; the text may be incomplete"
        )
    if fetched.redirects:
        notes.append(f"redirected from {fetched.requested_url} ({len(fetched.redirects)} hops)")
    if not extracted.text:
        notes.append("no readable text was found on the page")
    return WebDocument(
        uid=web_uid(fetched.url),
        url=fetched.url,
        requested_url=fetched.requested_url,
        title=extracted.title or host_of(fetched.url) or fetched.url,
        publisher=extracted.site_name or host_of(fetched.url),
        published=extracted.published,
        retrieved_at=retrieved_at,
        content_type=fetched.media_type,
        text=extracted.text,
        truncated=fetched.truncated,
        notes=notes,
    )
