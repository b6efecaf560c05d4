"""Turning filings into grid pages: PDF folders and pre-extracted ``pages.jsonl.gz``.

Each source yields whole documents so the store can replace a document atomically;
a file that cannot be read is reported as skipped and the rest goes on.

What a pages file can hold is bounded here, before anything reaches a store, so one odd
row costs that row and never the whole ingest: a page's text is at most
:data:`MAX_PAGE_CHARS` characters (a page of megabytes would stall every search that
touches it), ``page_num`` fits every store's integer column, ``doc_period`` is a fiscal
year the tool reads, and a lone surrogate (which no store can encode) becomes U+FFFD.
"""

from __future__ import annotations

import gzip
import json
import math
import os
import re
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from retrieval.companies import Company, load_companies
from retrieval.facts.extract import document_facts
from retrieval.facts.model import Fact
from retrieval.filenames import fiscal_quarter, parse_doc_name
from retrieval.pages import Page, normalise_doc_type
from retrieval.periods import MAX_FY, MIN_FY
from retrieval.store import PageStore
from retrieval.vectors_file import VectorsFile, attach_vectors

#: The most characters one page may hold; a longer page is refused (named, exit 1), not
#: split: a page is what a citation points at, and its ``page_index`` is the filing's.
#: FinanceBench's longest page has about 10,700 characters.
MAX_PAGE_CHARS = 200_000
#: The largest ``page_num`` a row may give: PostgreSQL's ``integer`` (SQLite's is wider).
MAX_PAGE_INDEX = 2**31 - 1
#: The range a fact's whole-number fields (year, quarter, page) must fit to be stored.
_INT32 = (-(2**31), 2**31 - 1)

_SURROGATE = re.compile("[\ud800-\udfff]")
#: A row that starts with a plain ``doc_name``, as every FinanceBench row does.
_LEADING_DOC_NAME = re.compile(r'\s*\{\s*"doc_name"\s*:\s*"([^"\\]*[^"\\\s][^"\\]*)"')


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


def _shown(value: object, limit: int = 24) -> str:
    """``value`` for a one-line message: a 5,000-digit number is not printed whole."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"


def _whole_number(row: dict, key: str, low: int, high: int) -> int:
    """``row[key]`` as an int in ``[low, high]``: ``2018``, ``"2018"`` and ``2018.0`` as before,
    while a value no store column can hold (``2**64``, ``Infinity``) is a ValueError, so the
    row is refused instead of the store's overflow aborting the whole ingest."""
    value = row[key]
    try:
        number = int(value)
    except OverflowError:  # int(float("inf"))
        raise ValueError(f"{key} {_shown(value)} is not a whole number") from None
    if not low <= number <= high:
        raise ValueError(f"{key} {_shown(number)} is out of range ({low} to {high})")
    return number


def _page_from_row(row: dict) -> Page:
    doc_type = normalise_doc_type(row["doc_type"])
    return Page(
        doc_name=row["doc_name"],
        ticker=row["ticker"],
        company=row["company"],
        fy=_whole_number(row, "doc_period", MIN_FY, MAX_FY),
        fq=fiscal_quarter(doc_type, row.get("fiscal_quarter"), row.get("doc_date")),
        doc_type=doc_type,
        doc_date=row.get("doc_date"),
        page_index=_whole_number(row, "page_num", 0, MAX_PAGE_INDEX),
        text=row.get("text") or "",
    )


def _why(exc: Exception) -> str:
    """One line saying why a row could not be read (pydantic's own message is a paragraph)."""
    if isinstance(exc, KeyError):
        return f"no {exc.args[0]!r} field"
    if isinstance(exc, ValidationError):
        return "; ".join(
            f"{'.'.join(map(str, e['loc']))}: {e['msg']} (got {_shown(e.get('input'))})"
            for e in exc.errors()
        )
    return " ".join(str(exc).split())


@dataclass(frozen=True)
class _Row:
    """One line of a pages file: its number, its document, and its fields or what is wrong."""

    number: int
    doc_name: str | None = None
    fields: dict | None = None
    problem: str = ""  # why the line is not a page row
    repaired: int = 0  # lone surrogates replaced by U+FFFD


def _no_surrogates(text: str) -> tuple[str, int]:
    """``text`` with each lone surrogate (a ``\\ud800`` escape in JSON: no store can encode
    it, and SQLite's error used to abort the ingest) as U+FFFD, and how many there were."""
    return _SURROGATE.subn("\ufffd", text)


def _parse_line(number: int, line: str, doc_name: str | None) -> _Row:
    """Line ``number`` as a row of ``doc_name`` (what :func:`_doc_name_of` read from it)."""
    try:
        fields = json.loads(line)
    except ValueError as exc:  # JSONDecodeError; also a number too long to read
        cut = "" if line.endswith("\n") else " (the file ends inside this line: is it cut short?)"
        return _Row(number, doc_name, problem=f"not JSON: {exc}{cut}")
    if not isinstance(fields, dict):
        return _Row(number, doc_name, problem=f"not a page row: a JSON {type(fields).__name__}")
    repaired = 0
    if "\\ud" in line or "\\uD" in line:  # surrogates come only from such escapes
        for key, value in fields.items():
            if isinstance(value, str):
                fields[key], n = _no_surrogates(value)
                repaired += n
    if fields.get("doc_name") != doc_name:
        return _Row(number, doc_name, problem="doc_name is given more than once")
    return _Row(number, doc_name, fields, repaired=repaired)


def _doc_name_of(line: str) -> str | None:
    """The document a line belongs to, or None when it names none.

    FinanceBench rows begin with their ``doc_name``, read here without parsing the page
    text, which keeps the first of the two passes over a file cheap; any other line is
    parsed whole. Both passes group lines by this, so they always agree.
    """
    found = _LEADING_DOC_NAME.match(line)
    if found:
        return found[1]
    try:
        fields = json.loads(line)
    except ValueError:
        return None
    name = fields.get("doc_name") if isinstance(fields, dict) else None
    if not isinstance(name, str) or not name.strip():
        return None
    return _no_surrogates(name)[0]


def _lines(path: Path, report: IngestReport) -> Iterator[tuple[int, str]]:
    """Every non-blank line of a pages file and its number, until the file ends or cannot
    be read.

    A ``.gz`` cut short raises ``EOFError`` at the cut, which the command line's framework
    took for Ctrl-D and reported as "interrupted" (exit 130); it, corrupt compressed data
    and bytes that are not UTF-8 end the reading here instead, said in
    ``report.file_error``, so what was read before them is still ingested.
    """
    opener = gzip.open if path.suffix == ".gz" else open
    number = 0
    try:
        with opener(path, "rt", encoding="utf-8-sig") as handle:  # a BOM is not a row
            for number, line in enumerate(handle, 1):
                if line.strip():
                    yield number, line
    except EOFError:
        report.file_error = (
            f"{path} is truncated: it ends in the middle of its compressed data, after "
            f"line {number:,}"
        )
    except (OSError, zlib.error, UnicodeDecodeError) as exc:
        where = f" after line {number:,}" if number else ""
        report.file_error = f"{path} cannot be read{where}: {_why(exc)}"


def _document(name: str, rows: list[_Row], report: IngestReport) -> Document | None:
    """The document of ``rows`` (in file order), a page per ``page_index``.

    A page given twice is kept once, the later row winning, and counted in
    ``report.duplicates``. A row that cannot be read is left out and reported; the
    document's other pages are kept. None when no row could be read.
    """
    pages: dict[int, Page] = {}
    problems: list[str] = []
    repaired = 0
    for row in rows:
        if row.fields is None:
            problems.append(f"line {row.number:,}: {row.problem}")
            continue
        try:
            page = _page_from_row(row.fields)
        except (KeyError, ValueError, TypeError) as exc:  # ValidationError is a ValueError
            problems.append(f"line {row.number:,}: {_why(exc)}")
            continue
        repaired += row.repaired
        earlier = pages.get(page.page_index)
        if earlier is not None:
            report.duplicates += 1
            report.duplicates_differing += int(earlier != page)
        pages[page.page_index] = page
    if problems:
        if pages:
            what = f"{len(problems):,} of its {len(rows):,} page rows not stored"
        elif len(rows) == 1:
            what = "its one page row could not be read, so it is not stored"
        else:
            what = f"none of its {len(rows):,} page rows could be read, so it is not stored"
        more = f" (and {len(problems) - 1:,} more)" if len(problems) > 1 else ""
        report.skipped.append((name, f"bad page row: {what}: {problems[0]}{more}"))
    if repaired and pages:
        report.warnings.append(
            (name, f"{repaired:,} lone surrogate characters (not Unicode) stored as U+FFFD")
        )
    return Document(name, [pages[i] for i in sorted(pages)]) if pages else None


def jsonl_documents(path: Path, report: IngestReport) -> Iterator[Document]:
    """Documents from a FinanceBench-format ``pages.jsonl(.gz)``, one page per row.

    Rows of a document need not be consecutive: the file is read twice. The first pass
    notes each document's last row (a few bytes per document); the second buffers a
    document's rows until that row, then yields it whole. Grouped rows, the usual case,
    hold one document in memory at a time; rows of several documents interleaved hold
    every document begun and not yet finished (all of them, at worst, when every
    document runs to the end of the file). A document is yielded once, with every page
    its rows give, so the store writes it in one transaction; none of its pages can
    replace another run of its own rows.

    A file that ends early (a truncated ``.gz``) or cannot be read on yields the
    documents read whole before that point; the one being read when it ended is
    reported as skipped, not stored, and ``report.file_error`` says what happened.
    """
    last_row: dict[str, int] = {}
    rows_of: dict[str, int] = {}
    reading: str | None = None
    for number, line in _lines(path, report):
        name = _doc_name_of(line)
        if name is None:
            why = _parse_line(number, line, None).problem or "no doc_name: it is of no document"
            report.skipped.append((f"{path} line {number:,}", why))
            continue
        last_row[name] = number
        rows_of[name] = rows_of.get(name, 0) + 1
        reading = name
    if report.file_error and reading is not None:
        del last_row[reading]
        report.skipped.append(
            (
                reading,
                f"cut short: the file ends after {rows_of[reading]:,} of its page rows, "
                "so it is not stored (a copy already in the grid is left as it was)",
            )
        )
    buffered: dict[str, list[_Row]] = {}
    for number, line in _lines(path, IngestReport()):  # its end was noted by the first pass
        name = _doc_name_of(line)
        if name is None or name not in last_row:
            continue
        buffered.setdefault(name, []).append(_parse_line(number, line, name))
        if number == last_row[name]:
            document = _document(name, buffered.pop(name), report)
            if document is not None:
                yield document


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
                f"(page_index {first.page_index}, {first.label!r}: {_shown(first.value)})",
            )
        )
    return kept


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
    ``report.pages`` counts the pages stored; pages over :data:`MAX_PAGE_CHARS` are
    refused and reported.
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

    for read in documents_at(path, report, companies_file):
        document = _within_page_limit(read, report)
        if document is None:
            continue
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
