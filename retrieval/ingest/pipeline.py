"""Turning filings into grid pages: PDF folders and pre-extracted ``pages.jsonl.gz``.

Each source yields whole documents so the store can replace a document atomically;
a file that cannot be read is reported as skipped and the rest goes on. This module
finds the documents under a path (PDFs here, a pages file by
:mod:`retrieval.ingest.pages_file`), bounds what reaches a store (a page's text is at
most :data:`MAX_PAGE_CHARS` characters: a page of megabytes would stall every search that
touches it; a fact's numbers must fit every store's columns) and writes each document
with its statement facts and any shipped vectors.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from retrieval.companies import Company, load_companies
from retrieval.facts.extract import document_facts
from retrieval.facts.model import Fact
from retrieval.ingest.cover_period import as_its_cover_says
from retrieval.ingest.filenames import parse_doc_name
from retrieval.ingest.pages_file import jsonl_documents
from retrieval.ingest.report import Document, IngestReport, shown
from retrieval.ingest.vectors_file import VectorsFile, attach_vectors
from retrieval.pages import Page
from retrieval.store import PageStore

#: The most characters one page may hold; a longer page is refused (named, exit 1), not
#: split: a page is what a citation points at, and its ``page_index`` is the filing's.
#: FinanceBench's longest page has about 10,700 characters.
MAX_PAGE_CHARS = 200_000
#: The range a fact's whole-number fields (year, quarter, page) must fit to be stored.
_INT32 = (-(2**31), 2**31 - 1)


def pdf_documents(
    paths: list[Path], companies: tuple[Company, ...], report: IngestReport
) -> Iterator[Document]:
    """Pages of each PDF by PyMuPDF; unreadable, encrypted or unnamed files are skipped."""
    import pymupdf

    for path in paths:
        try:
            meta = parse_doc_name(path.name, companies)
        except ValueError as exc:
            report.skipped.append((str(path), str(exc)))
            continue
        try:
            with pymupdf.open(path) as pdf:
                if pdf.needs_pass:
                    raise ValueError("encrypted: a password is needed to read it")
                texts = [page.get_text() for page in pdf]
        except Exception as exc:  # PyMuPDF raises several types for damaged files
            report.skipped.append((str(path), f"unreadable PDF: {exc}"))
            continue
        yield Document(
            meta.doc_name,
            [
                Page(
                    doc_name=meta.doc_name,
                    ticker=meta.ticker,
                    company=meta.company,
                    fy=meta.fy,
                    fq=meta.fq,
                    doc_type=meta.doc_type,
                    doc_date=meta.doc_date,
                    page_index=i,
                    text=text,
                )
                for i, text in enumerate(texts)
            ],
        )


def is_pdf(path: Path) -> bool:
    """A PDF by name, in any case: ``ACME_2017_10K.PDF`` is one too."""
    return path.suffix.lower() == ".pdf"


def folder_pdfs(folder: Path, report: IngestReport | None = None) -> list[Path]:
    """Every PDF under ``folder``, sorted; with ``report``, what else was found is noted.

    A folder that cannot be listed is skipped with its reason and other files are listed
    as ignored, so no file is passed over in silence. Hidden files (``.DS_Store``) are not
    filings and are not listed.
    """
    pdfs: list[Path] = []

    def unreadable(error: OSError) -> None:
        if report is not None:
            report.skipped.append((str(error.filename), f"unreadable folder: {error.strerror}"))

    for root, folders, files in os.walk(folder, onerror=unreadable):
        folders.sort()
        for name in files:
            path = Path(root, name)
            if is_pdf(path):
                pdfs.append(path)
            elif report is not None and not name.startswith("."):
                report.ignored.append(str(path))
    return sorted(pdfs)


def documents_at(
    path: Path,
    report: IngestReport,
    companies_file: str | None = None,
    on_total: Callable[[int], None] | None = None,
):
    """Every document under ``path``: a PDF, a folder of PDFs, or a pages JSONL file.

    ``on_total`` is told how many documents there are as soon as that is known: at once
    for PDFs (the folder is listed first), after the first pass over a pages file.
    """
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist")
    companies = load_companies(companies_file)
    if path.is_dir() or is_pdf(path):
        pdfs = folder_pdfs(path, report) if path.is_dir() else [path]
        if on_total:
            on_total(len(pdfs))
        return pdf_documents(pdfs, companies, report)
    if path.name.endswith((".jsonl", ".jsonl.gz")):
        return jsonl_documents(path, report, on_total)
    raise ValueError(f"{path}: expected a folder of PDFs, a PDF, or a .jsonl(.gz) of pages")


def _within_page_limit(document: Document, report: IngestReport) -> Document | None:
    """``document`` without its pages over :data:`MAX_PAGE_CHARS`, each reported by name.

    Refused rather than split: a page is the unit a citation points at and its
    ``page_index`` is the filing's own, so a piece of one cannot become a page of its own.
    None when no page is left.
    """
    kept = [page for page in document.pages if len(page.text) <= MAX_PAGE_CHARS]
    if len(kept) == len(document.pages):
        return document
    for page in document.pages:
        if len(page.text) > MAX_PAGE_CHARS:
            report.skipped.append(
                (
                    f"{document.name} page_index {page.page_index}",
                    f"page not stored: its text is {len(page.text):,} characters, over the "
                    f"limit of {MAX_PAGE_CHARS:,} per page",
                )
            )
    return Document(document.name, kept) if kept else None


def _fits(fact: Fact) -> bool:
    """Whether every store can hold ``fact``: a finite value, whole numbers in 32 bits."""
    low, high = _INT32
    whole = (fact.fy, fact.fq or 0, fact.page_index)
    return math.isfinite(fact.value) and all(low <= n <= high for n in whole)


def _storable_facts(doc_name: str, facts: list[Fact], report: IngestReport) -> list[Fact]:
    """``facts`` less those no store can hold (a 400-digit number reads as infinity), each
    left out with a warning, so one such value costs itself and not the document."""
    kept = [fact for fact in facts if _fits(fact)]
    if len(kept) < len(facts):
        first = next(fact for fact in facts if not _fits(fact))
        report.warnings.append(
            (
                doc_name,
                f"{len(facts) - len(kept):,} statement facts not stored: a value out of range "
                f"(page_index {first.page_index}, {first.label!r}: {shown(first.value)})",
            )
        )
    return kept


def ingest(
    path: Path,
    store: PageStore,
    companies_file: str | None = None,
    on_document: Callable[[Document], None] | None = None,
    vectors: VectorsFile | None = None,
    on_total: Callable[[int], None] | None = None,
) -> IngestReport:
    """Write every readable document under ``path`` into ``store`` (replacing old copies).

    A 10-K or 10-Q of a company the map knows whose cover states another period than its
    name is stored in the cover's cell, with a warning
    (:mod:`retrieval.ingest.cover_period`). Each document's statement facts are extracted
    and written with its pages, in one transaction. With ``vectors``, pages whose text and
    model match a shipped vector get it instead of waiting for the embedder; the others
    are counted as mismatched.
    ``report.pages`` counts the pages stored; pages over :data:`MAX_PAGE_CHARS` are
    refused and reported. ``on_total(n)`` is called once, as soon as the number of
    documents to read is known (for a progress bar: before the first ``on_document``).
    """
    report = IngestReport()
    model_id = getattr(store, "model_id", None) if vectors else None

    def counted_facts(pages: Sequence[Page]) -> list[Fact]:
        doc_name = pages[0].doc_name if pages else ""
        try:
            facts = document_facts(pages)
        except ArithmeticError as exc:  # a number too large for the extractor's arithmetic
            report.warnings.append(
                (doc_name, f"statement facts not read ({exc}): pages stored without them")
            )
            return []
        facts = _storable_facts(doc_name, facts, report)
        report.facts += len(facts)
        return facts

    documents = documents_at(path, report, companies_file, on_total)
    # A cover's date is placed in the company's fiscal calendar, so only a company the map
    # knows is moved: an unknown one's year end is not known.
    year_ends = {c.ticker: c.fiscal_year_end for c in load_companies(companies_file)}
    for read in documents:
        document = _within_page_limit(read, report)
        if document is None:
            continue
        ticker = document.pages[0].ticker
        if ticker in year_ends:
            document, moved = as_its_cover_says(document, year_ends[ticker])
            if moved:
                report.warnings.append((document.name, moved))
        written = store.upsert_document(document.pages, facts=counted_facts)
        report.pages += written
        report.documents += 1
        if vectors is not None and model_id is not None:
            match = attach_vectors(store, model_id, document.pages, vectors)
            report.vectors_used += match.used
            report.vectors_mismatched += match.mismatched
        if on_document:
            on_document(document)
    return report
