"""A run's report as a reader takes it away: Markdown or PDF, headed by what was asked.

``report.md`` in a run directory is the report alone (what ``research ask`` prints and
scripts read), so a copy of it lost the question it answers and when, by which model and
which program it was written. An export puts those first: the question as its title, then
the date, the model, the program version and the run id. Dagger notes are explained as
the run page explains them (``web.report_html.explain_notes``): a reader of the export has
no "Probe 2" to look at either.

The PDF is the page's report laid out for print by WeasyPrint (HTML and CSS to PDF, no
browser): body, Sources, Notes, Formulas and Scope, each superscript a link to its Source.
Its HTML is the sanitised report HTML in a fixed template, and WeasyPrint is given a URL
fetcher that fetches nothing, so no report text can make the server read a file or a URL.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from web.report_html import explain_notes, render_report


@dataclass(frozen=True)
class ExportHeader:
    """What an exported report says about itself before the report begins."""

    question: str
    run_id: str
    date: str
    model: str
    program_version: str
    status: str

    @classmethod
    def of(cls, run: Any, row: Any) -> ExportHeader:
        """From a run directory (``RunDir``) and its runs-page row (``RunRow``)."""
        meta = run.meta if isinstance(run.meta, Mapping) else {}
        question = re.sub(r"\s+", " ", str(meta.get("question") or row.question)).strip()
        return cls(
            question=question or "(no question recorded)",
            run_id=row.run_id,
            date=f"{row.started_at[:16]} UTC" if row.started_at else "unknown",
            model=str(meta.get("model") or row.model or "unknown"),
            program_version=str(meta.get("program_version") or "unknown"),
            status=row.status,
        )


def markdown_export(header: ExportHeader, markdown: str, record: Mapping[str, Any] | None) -> str:
    """The report's Markdown under a title (the question) and a list of what made it."""
    lines = [
        f"# {header.question}",
        "",
        f"- Date: {header.date}",
        f"- Model: {header.model}",
        f"- Program version: {header.program_version}",
        f"- Run: {header.run_id} ({header.status})",
        "",
        explain_notes(markdown, record).strip(),
        "",
    ]
    return "\n".join(lines)


def _no_fetch() -> Any:
    """A WeasyPrint URL fetcher that refuses every URL: the PDF is made from text only."""
    from weasyprint.urls import URLFetcher

    class NoFetch(URLFetcher):
        def fetch(self, url: str, headers: Any = None) -> Any:
            raise ValueError(f"the report PDF fetches nothing ({url[:80]})")

    return NoFetch()


class PdfUnavailable(RuntimeError):
    """WeasyPrint cannot load here (Pango is missing); the message says what to install."""


def pdf_export(header: ExportHeader, markdown: str, record: Mapping[str, Any] | None) -> bytes:
    """The report as a PDF: header, body, Sources, Notes and the blocks after them."""
    try:
        from weasyprint import HTML
    except OSError as exc:  # WeasyPrint loads Pango with ctypes when it is imported
        raise PdfUnavailable(
            "the PDF export needs Pango: apt-get install libpango-1.0-0 libpangoft2-1.0-0 "
            f"({str(exc).splitlines()[0][:200]})"
        ) from None

    from web.rendering import templates

    report = render_report(markdown, record, for_print=True)
    html = templates.get_template("report_print.html").render(header=header, report=report)
    return HTML(string=html, url_fetcher=_no_fetch()).write_pdf()
