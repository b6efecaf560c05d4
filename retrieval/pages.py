"""The page: the unit the grid stores, searches and agents cite.

One row per filing page. ``uid`` is a hash of the document name and page index so a
citation survives re-ingestion; ``page_id`` is the store's sequential number, assigned
when the page is first written.
"""

from __future__ import annotations

import hashlib

from pydantic import BaseModel, Field

#: Document types the grid knows, as shown in labels.
DOC_TYPES = ("10-K", "10-Q", "8-K", "EARNINGS", "ANNUAL REPORT")

_DOC_TYPE_ALIASES = {
    "10K": "10-K",
    "10-K": "10-K",
    "10Q": "10-Q",
    "10-Q": "10-Q",
    "8K": "8-K",
    "8-K": "8-K",
    "EARNINGS": "EARNINGS",
    "10K_ANNUALREPORT": "ANNUAL REPORT",
    "ANNUALREPORT": "ANNUAL REPORT",
    "ANNUAL REPORT": "ANNUAL REPORT",
}


def normalise_doc_type(raw: str) -> str:
    """Map FinanceBench spellings (``10K``, ``10K_ANNUALREPORT``) to the grid's names."""
    key = raw.strip().upper().replace("_", " ").replace("  ", " ")
    if key in _DOC_TYPE_ALIASES:
        return _DOC_TYPE_ALIASES[key]
    key = key.replace(" ", "_")
    if key in _DOC_TYPE_ALIASES:
        return _DOC_TYPE_ALIASES[key]
    raise ValueError(f"unknown document type {raw!r}; expected one of {', '.join(DOC_TYPES)}")


def page_uid(doc_name: str, page_index: int) -> str:
    """Stable 12-hex-digit page identifier (48 bits: no collisions at corpus scale)."""
    return hashlib.sha1(f"{doc_name}#{page_index}".encode()).hexdigest()[:12]


def doc_label(ticker: str, doc_type: str, fy: int, fq: int | None) -> str:
    """Human label of a document, e.g. ``MMM 10-K FY2018`` or ``KO Earnings FY2024 Q4``.

    Annual filings are labelled by FY alone; quarterly documents carry their quarter.
    """
    shown = {"EARNINGS": "Earnings", "ANNUAL REPORT": "Annual Report"}.get(doc_type, doc_type)
    label = f"{ticker} {shown} FY{fy}"
    if doc_type not in ("10-K", "ANNUAL REPORT") and fq:
        label += f" Q{fq}"
    return label


class Page(BaseModel):
    """One page of one filing, with the grid coordinates ``{ticker, fy, fq}``."""

    doc_name: str
    ticker: str
    company: str
    fy: int
    fq: int = Field(ge=1, le=4, description="Q1..Q4; a 10-K is its FY's Q4 cell")
    doc_type: str
    doc_date: str | None = None
    page_index: int = Field(ge=0, description="zero-based, FinanceBench's numbering")
    text: str
    page_id: int | None = None

    @property
    def uid(self) -> str:
        return page_uid(self.doc_name, self.page_index)

    @property
    def doc_label(self) -> str:
        return doc_label(self.ticker, self.doc_type, self.fy, self.fq)
