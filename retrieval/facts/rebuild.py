"""Re-reading the facts of documents already in a store, without ingesting them again.

The extractor and its vocabulary (``concepts.toml``) improve; a grid built before that
keeps its old facts until its documents are re-read. This reads every stored page again
and replaces each document's facts, one document per transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from retrieval.facts.extract import document_facts
from retrieval.facts.model import Fact
from retrieval.pages import Page


class DocumentStore(Protocol):
    def document_names(self) -> list[str]: ...

    def document_pages(self, doc_name: str) -> list[Page]: ...

    def replace_facts(self, doc_name: str, facts: list[Fact]) -> None: ...


def rebuild_facts(store: DocumentStore, on_document: Callable[[str], None] | None = None) -> int:
    """Replace every document's facts with a fresh reading of its pages; returns facts written."""
    written = 0
    for doc_name in store.document_names():
        facts = document_facts(store.document_pages(doc_name))
        store.replace_facts(doc_name, facts)
        written += len(facts)
        if on_document:
            on_document(doc_name)
    return written
