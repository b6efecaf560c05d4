"""Turning filings into grid pages: PDF folders and pre-extracted ``pages.jsonl.gz``.

Each source yields whole documents so the store can replace a document atomically;
a file that cannot be read is reported as skipped and the rest goes on.
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path

from retrieval.companies import Company, load_companies
from retrieval.facts.extract import document_facts
from retrieval.facts.model import Fact
from retrieval.filenames import fiscal_quarter, parse_doc_name
from retrieval.pages import Page, normalise_doc_type
from retrieval.store import PageStore
from retrieval.vectors_file import VectorsFile, attach_vectors


@dataclass
class IngestReport:
    documents: int = 0
    pages: int = 0
    facts: int = 0
    vectors_used: int = 0  # pages given a vector from a shipped vectors file
    vectors_mismatched: int = 0  # pages a vectors file had no current vector for
    skipped: list[tuple[str, str]] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)  # files in a folder that are not PDFs


@dataclass(frozen=True)
class Document:
    name: str
    pages: list[Page]


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


def _page_from_row(row: dict) -> Page:
    doc_type = normalise_doc_type(row["doc_type"])
    return Page(
        doc_name=row["doc_name"],
        ticker=row["ticker"],
        company=row["company"],
        fy=int(row["doc_period"]),
        fq=fiscal_quarter(doc_type, row.get("fiscal_quarter"), row.get("doc_date")),
        doc_type=doc_type,
        doc_date=row.get("doc_date"),
        page_index=int(row["page_num"]),
        text=row.get("text") or "",
    )


def jsonl_documents(path: Path, report: IngestReport) -> Iterator[Document]:
    """Documents from a FinanceBench-format ``pages.jsonl(.gz)`` (rows grouped by doc)."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        rows = (json.loads(line) for line in handle if line.strip())
        for doc_name, group in groupby(rows, key=lambda r: r.get("doc_name")):
            try:
                pages = [_page_from_row(r) for r in group]
            except (KeyError, ValueError, TypeError) as exc:
                report.skipped.append((str(doc_name), f"bad page row: {exc}"))
                continue
            yield Document(str(doc_name), pages)


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


def count_documents(path: Path) -> int | None:
    """Documents a path holds, for the progress bar (None when unknown without reading)."""
    if path.is_dir():
        return len(folder_pdfs(path))
    if is_pdf(path):
        return 1
    return None


def documents_at(path: Path, report: IngestReport, companies_file: str | None = None):
    """Every document under ``path``: a PDF, a folder of PDFs, or a pages JSONL file."""
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist")
    companies = load_companies(companies_file)
    if path.is_dir():
        return pdf_documents(folder_pdfs(path, report), companies, report)
    if is_pdf(path):
        return pdf_documents([path], companies, report)
    if path.name.endswith((".jsonl", ".jsonl.gz")):
        return jsonl_documents(path, report)
    raise ValueError(f"{path}: expected a folder of PDFs, a PDF, or a .jsonl(.gz) of pages")


def ingest(
    path: Path,
    store: PageStore,
    companies_file: str | None = None,
    on_document: Callable[[Document], None] | None = None,
    vectors: VectorsFile | None = None,
) -> IngestReport:
    """Write every readable document under ``path`` into ``store`` (replacing old copies).

    Each document's statement facts are extracted and written with its pages, in one
    transaction. With ``vectors``, pages whose text and model match a shipped vector get
    it instead of waiting for the embedder; the others are counted as mismatched.
    """
    report = IngestReport()
    model_id = getattr(store, "model_id", None) if vectors else None

    def counted_facts(pages: Sequence[Page]) -> list[Fact]:
        facts = document_facts(pages)
        report.facts += len(facts)
        return facts

    for document in documents_at(path, report, companies_file):
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
