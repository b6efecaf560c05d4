"""A filing's primary document as page texts: HTML, PDF or plain text.

Why pages and not one text: the page is what the grid stores, searches and cites, so a
fetched filing is cut where its printed pages end. EDGAR HTML marks them with
``page-break-before/after`` styles (or, in older filings, ``<hr>`` rules); a document
with neither is cut by size at line ends. Tables are written as PyMuPDF writes a PDF's
(a row's label, then one line per value, ``$`` dropped, ``(1,577`` ``)`` joined), so the
project's statement-table parser reads a fetched filing as it reads a FinanceBench PDF.
Hidden content (inline XBRL's ``ix:header``, ``display:none``) is not page text. A
page's last line that is a bare page number (``45``, ``F-3``, ``ii``) is written ``Page 45``:
left bare, the table parser would read it as one more value of the table above it.
"""

from __future__ import annotations

import re

from lxml import etree, html

from edgar.errors import DocumentError

#: Characters a page cut by size aims at (FinanceBench's PDF pages hold about 3,000).
PAGE_TARGET_CHARS = 4_000
#: Tags that end a line of text before and after them.
_BLOCKS = frozenset(
    "p div br li ul ol h1 h2 h3 h4 h5 h6 tr table center blockquote pre section article "
    "header footer dt dd title".split()
)
_SKIP = frozenset("script style head noscript template".split())
_SPACE = re.compile(r"[ \t\r\f\v\u00a0\u2009\u200b]+")
_BREAK_BEFORE = re.compile(r"(?:page-)?break-before\s*:\s*(?:always|page)", re.I)
_BREAK_AFTER = re.compile(r"(?:page-)?break-after\s*:\s*(?:always|page)", re.I)
_HIDDEN = re.compile(r"display\s*:\s*none", re.I)
_PAGE_NUMBER = re.compile(r"^(?:[A-Z]-)?\d{1,4}$|^[ivxlc]{1,6}$", re.I)


def document_pages(content: bytes, file_name: str) -> list[str]:
    """The page texts of a primary document, by its file name's type; DocumentError when
    it holds no text or cannot be read."""
    name = file_name.lower()
    if name.endswith(".pdf") or content[:5] == b"%PDF-":
        pages = pdf_pages(content)
    elif name.endswith((".htm", ".html", ".xhtml", ".xml")):
        pages = html_pages(content)
    elif name.endswith(".txt"):
        pages = text_pages(content.decode("utf-8", errors="replace"))
    else:
        raise DocumentError(f"{file_name}: not an HTML, PDF or text document")
    pages = [p for p in pages if p.strip()]
    if not pages:
        raise DocumentError(f"{file_name}: the document holds no text")
    return pages


def pdf_pages(content: bytes) -> list[str]:
    """Page texts by PyMuPDF, as ``research ingest`` reads a PDF."""
    import pymupdf

    try:
        with pymupdf.open(stream=content, filetype="pdf") as pdf:
            if pdf.needs_pass:
                raise DocumentError("encrypted PDF: a password is needed to read it")
            return [page.get_text() for page in pdf]
    except DocumentError:
        raise
    except Exception as exc:  # PyMuPDF raises several types for damaged files
        raise DocumentError(f"unreadable PDF: {exc}") from None


def text_pages(text: str) -> list[str]:
    """A plain-text filing cut at form feeds or ``<PAGE>`` marks, else by size."""
    parts = re.split(r"\f|<PAGE>", text, flags=re.I)
    if len(parts) > 1:
        return [p.strip("\n") for p in parts]
    return by_size(text.split("\n"))


def by_size(lines: list[str], target: int = PAGE_TARGET_CHARS) -> list[str]:
    """Lines gathered into pages of about ``target`` characters, cut only at line ends."""
    pages: list[str] = []
    current: list[str] = []
    size = 0
    for line in lines:
        if current and size + len(line) > target:
            pages.append("\n".join(current))
            current, size = [], 0
        current.append(line)
        size += len(line) + 1
    if current:
        pages.append("\n".join(current))
    return pages


class _Writer:
    """Collects lines into pages while the HTML tree is walked."""

    def __init__(self) -> None:
        self.pages: list[list[str]] = [[]]
        self.parts: list[str] = []
        self.breaks = 0  # page breaks seen

    def text(self, value: str | None) -> None:
        if value:
            self.parts.append(value)

    def newline(self) -> None:
        line = _SPACE.sub(" ", "".join(self.parts)).strip()
        self.parts = []
        if line:
            self.pages[-1].append(line)

    def line(self, value: str) -> None:
        self.newline()
        if value:
            self.pages[-1].append(value)

    def page_break(self) -> None:
        self.newline()
        self.breaks += 1
        if self.pages[-1]:
            self.pages.append([])


def _tag(element: etree._Element) -> str:
    tag = element.tag if isinstance(element.tag, str) else ""
    return tag.rsplit("}", 1)[-1].split(":")[-1].lower()


def _cell_text(cell: etree._Element) -> str:
    if _HIDDEN.search(cell.get("style") or ""):
        return ""
    return _SPACE.sub(" ", " ".join(cell.itertext())).strip()


def table_lines(table: etree._Element) -> list[str]:
    """A table's rows as PyMuPDF prints them: each non-empty cell on a line of its own,
    ``$`` cells dropped, a lone ``)`` or ``%`` joined to the value before it."""
    lines: list[str] = []
    for row in table.iter():
        if _tag(row) != "tr":
            continue
        cells: list[str] = []
        for cell in row:
            if _tag(cell) not in ("td", "th"):
                continue
            text = _cell_text(cell)
            if not text or text == "$":
                continue
            text = text.removeprefix("$ ").removeprefix("$")
            if cells and re.fullmatch(r"\)?%?|\)%", text) and text:
                cells[-1] += text
                continue
            cells.append(text.strip())
        lines.extend(c for c in cells if c)
    return lines


def html_pages(content: bytes) -> list[str]:
    """Page texts of an HTML (or inline-XBRL XHTML) document.

    Page breaks are the style breaks when the document has any, else its ``<hr>`` rules;
    a document with neither is cut by size.
    """
    try:
        root = html.fromstring(content)
    except (etree.ParserError, ValueError) as exc:
        raise DocumentError(f"unreadable HTML: {exc}") from None
    styled = any(_BREAK_BEFORE.search(s) or _BREAK_AFTER.search(s) for s in root.xpath("//@style"))
    writer = _Writer()
    try:
        _walk(root, writer, rule_breaks=not styled)
    except RecursionError:
        raise DocumentError("HTML nested too deeply to read") from None
    writer.newline()
    for lines in writer.pages:
        if lines and _PAGE_NUMBER.match(lines[-1]):
            lines[-1] = f"Page {lines[-1]}"
    pages = ["\n".join(lines) for lines in writer.pages if lines]
    if writer.breaks == 0 and pages:
        return by_size(pages[0].split("\n"))
    return pages


def _walk(element: etree._Element, writer: _Writer, rule_breaks: bool) -> None:
    tag = _tag(element)
    style = element.get("style") or ""
    if not isinstance(element.tag, str):  # a comment or processing instruction
        return
    if tag in _SKIP or element.tag.lower().endswith("ix:header") or _HIDDEN.search(style):
        return
    if _BREAK_BEFORE.search(style):
        writer.page_break()
    if tag == "hr":
        if rule_breaks or _BREAK_AFTER.search(style) or _BREAK_BEFORE.search(style):
            writer.page_break()
        return
    if tag == "table":
        writer.newline()
        for line in table_lines(element):
            writer.line(line)
    else:
        block = tag in _BLOCKS
        if block:
            writer.newline()
        writer.text(element.text)
        for child in element:
            _walk(child, writer, rule_breaks)
            writer.text(child.tail)
        if block:
            writer.newline()
    if _BREAK_AFTER.search(style):
        writer.page_break()
