"""Reading a FinanceBench-format ``pages.jsonl(.gz)`` into whole documents.

What a pages file can hold is bounded here, before anything reaches a store, so one odd
row costs that row and never the whole ingest: ``page_num`` fits every store's integer
column, ``doc_period`` is a fiscal year the tool reads, and a lone surrogate (which no
store can encode) becomes U+FFFD. A file cut short or unreadable part-way yields what was
read whole before that point. It is apart from :mod:`retrieval.ingest.pipeline` because
reading a pages file (two passes, row by row, with every way a row can be wrong) is a
concern of its own; the pipeline only asks it for documents.
"""

from __future__ import annotations

import gzip
import json
import re
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from domain.periods import MAX_FY, MIN_FY
from retrieval.ingest.filenames import fiscal_quarter
from retrieval.ingest.report import Document, IngestReport, shown
from retrieval.pages import Page, normalise_doc_type

#: The largest ``page_num`` a row may give: PostgreSQL's ``integer`` (SQLite's is wider).
MAX_PAGE_INDEX = 2**31 - 1

_SURROGATE = re.compile("[\ud800-\udfff]")
#: A row that starts with a plain ``doc_name``, as every FinanceBench row does.
_LEADING_DOC_NAME = re.compile(r'\s*\{\s*"doc_name"\s*:\s*"([^"\\]*[^"\\\s][^"\\]*)"')


def _whole_number(row: dict, key: str, low: int, high: int) -> int:
    """``row[key]`` as an int in ``[low, high]``: ``2018``, ``"2018"`` and ``2018.0`` as before,
    while a value no store column can hold (``2**64``, ``Infinity``) is a ValueError, so the
    row is refused instead of the store's overflow aborting the whole ingest."""
    value = row[key]
    try:
        number = int(value)
    except OverflowError:  # int(float("inf"))
        raise ValueError(f"{key} {shown(value)} is not a whole number") from None
    if not low <= number <= high:
        raise ValueError(f"{key} {shown(number)} is out of range ({low} to {high})")
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
            f"{'.'.join(map(str, e['loc']))}: {e['msg']} (got {shown(e.get('input'))})"
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


def jsonl_documents(
    path: Path, report: IngestReport, on_total: Callable[[int], None] | None = None
) -> Iterator[Document]:
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

    ``on_total`` is told how many documents the file holds (those read to their last
    row) once the first pass has counted them, before the first document is yielded.
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
    if on_total:
        on_total(len(last_row))
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
