"""The period a filing's cover states, which outranks the period its file name says.

A FinanceBench file name is a person's label, and two of the full grid's 275 10-K and
10-Q files carry another period than their covers: ``PG_E_2023Q3_10Q`` is the 10-Q for
the quarter ended September 30, 2022 and ``ADOBE_2022Q2_10Q`` the one for the quarter
ended June 2, 2023. Stored under their names, PG&E's nine months to September 2023 were
answered with 2022's figures, and Adobe's FY2023 Q2 could not be found at all.

A 10-Q's cover says "For the quarterly period ended September 30, 2022", a 10-K's "For the
fiscal year ended December 31, 2022". That sentence is read from the document's first two
pages (PDF text may split a word, "fis cal", or set the form's column labels between the
words and the date) and placed in the company's own fiscal calendar by
:func:`domain.fiscal_calendar.fiscal_cell`. A cover that names another cell moves the
document there, and the ingest says so; a document with no such sentence (an earnings
release, a 10-Q whose PDF opens on its exhibit) keeps its name's cell.
"""

from __future__ import annotations

import re
from datetime import date

from domain.fiscal_calendar import fiscal_cell
from retrieval.ingest.report import Document

_MONTHS = (
    "january february march april may june july august september october november december"
).split()
_DATE = r"(?P<month>" + "|".join(_MONTHS) + r")\s+(?P<day>\d{1,2})\s*,?\s*(?P<year>\d{4})"
#: What may stand between "ended" and the date: a form's column labels ("Commission file"),
#: never a sentence's end.
_GAP = r"\b[^.]{0,40}?"
_COVERS = {
    "10-Q": re.compile(r"for\s+the\s+quarterly\s+period\s+ended" + _GAP + _DATE, re.IGNORECASE),
    "10-K": re.compile(
        r"for\s+the\s+(?:f\s*i\s*s\s*c\s*a\s*l\s+)?year\s+ended" + _GAP + _DATE, re.IGNORECASE
    ),
}
#: Cover pages read: a cover is the filing's first page; a second allows a blank first one.
COVER_PAGES = 2


def cover_period_end(doc_type: str, text: str) -> date | None:
    """The period end a 10-Q's or 10-K's cover sentence in ``text`` states; None for
    another type of document, no such sentence, or a date that does not exist."""
    pattern = _COVERS.get(doc_type)
    match = pattern.search(text) if pattern else None
    if match is None:
        return None
    try:
        month = _MONTHS.index(match["month"].lower()) + 1
        return date(int(match["year"]), month, int(match["day"]))
    except ValueError:  # "February 30"
        return None


def document_period_end(document: Document) -> date | None:
    """The period end ``document``'s cover states on its first pages; None when none."""
    if not document.pages:
        return None
    first = sorted(
        (page for page in document.pages if page.page_index < COVER_PAGES),
        key=lambda page: page.page_index,
    )
    return cover_period_end(document.pages[0].doc_type, "\n".join(page.text for page in first))


def as_its_cover_says(
    document: Document, fiscal_year_end: str | None
) -> tuple[Document, str | None]:
    """``document`` in the cell its cover states, placed in a fiscal year ending on
    ``fiscal_year_end`` (MMDD), and what was changed (None: nothing)."""
    end = document_period_end(document)
    if end is None:
        return document, None
    first = document.pages[0]
    annual = first.doc_type == "10-K"
    fy, fq = fiscal_cell(end.year, end.month, end.day, fiscal_year_end, annual)
    if (fy, fq) == (first.fy, first.fq):
        return document, None
    moved = [page.model_copy(update={"fy": fy, "fq": fq}) for page in document.pages]
    period = "fiscal year" if annual else "quarterly period"
    note = (
        f"its cover states the {period} ended {end:%B} {end.day}, {end.year}: stored as "
        f"{first.ticker} FY{fy} Q{fq}, not FY{first.fy} Q{first.fq} as its name says"
    )
    return Document(document.name, moved), note
