"""What an ingest reads and what it reports: shared by every source and by the pipeline.

:class:`Document` is one filing's pages, the unit a store replaces atomically; an
:class:`IngestReport` collects what was stored, skipped, ignored or changed, filled in by
the readers (:mod:`retrieval.ingest.pages_file`, the PDF reader) and by
:func:`retrieval.ingest.pipeline.ingest`. It is its own module so the readers and the
pipeline share it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from retrieval.pages import Page


@dataclass
class IngestReport:
    documents: int = 0
    pages: int = 0  # pages stored: a page given by several rows counts once
    facts: int = 0
    vectors_used: int = 0  # pages given a vector from a shipped vectors file
    vectors_mismatched: int = 0  # pages a vectors file had no current vector for
    skipped: list[tuple[str, str]] = field(default_factory=list)  # not stored: what, why
    ignored: list[str] = field(default_factory=list)  # files in a folder that are not PDFs
    warnings: list[tuple[str, str]] = field(default_factory=list)  # stored, but changed
    duplicates: int = 0  # page rows repeating a (doc_name, page_index): the last one is kept
    duplicates_differing: int = 0  # ... of which differed from the row they replaced
    file_error: str | None = None  # why a pages file could not be read to its end


@dataclass(frozen=True)
class Document:
    name: str
    pages: list[Page]


def shown(value: object, limit: int = 24) -> str:
    """``value`` for a one-line message: a 5,000-digit number is not printed whole."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"
