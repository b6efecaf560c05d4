"""Which filings a company has, from its EDGAR submissions index, and which to fetch.

Why columnar parsing by hand: ``/submissions/CIK##########.json`` lists recent filings as
parallel arrays (``form[i]``, ``accessionNumber[i]``, ...), and older ones in extra files
of the same shape; reading both into one :class:`Filing` per row keeps the rest of the
package free of that layout.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from edgar.errors import EdgarError, EdgarInputError

DEFAULT_FORMS = ("10-K", "10-Q")
#: Forms the grid can label: annual and quarterly reports, current reports, and their
#: amendments (``10-K/A``), which take the grid's document type of the form they amend.
SUPPORTED_FORMS = ("10-K", "10-Q", "8-K", "10-K/A", "10-Q/A", "8-K/A")
_ACCESSION = re.compile(r"^\d{10}-\d{2}-\d{6}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True)
class Filing:
    """One filing: its accession number, form, dates and primary document's file name."""

    accession: str
    form: str
    filing_date: str  # YYYY-MM-DD
    report_date: str | None  # the period the filing reports on (8-K: the event's date)
    primary_document: str
    description: str = ""

    @property
    def base_form(self) -> str:
        """The form without ``/A``: the grid's document type."""
        return self.form.removesuffix("/A")


@dataclass(frozen=True)
class Company:
    """What the submissions index says of the company itself."""

    cik: int
    name: str
    tickers: tuple[str, ...]
    fiscal_year_end: str | None  # MMDD, e.g. "1231"; "0928" for a late-September year


def parse_forms(text: str | None) -> tuple[str, ...]:
    """``"10-K,10-Q"`` -> ``("10-K", "10-Q")``; an unsupported form is EdgarInputError."""
    if not text or not text.strip():
        return DEFAULT_FORMS
    forms = tuple(dict.fromkeys(f.strip().upper() for f in text.split(",") if f.strip()))
    unknown = [f for f in forms if f not in SUPPORTED_FORMS]
    if unknown or not forms:
        what = ", ".join(unknown) if unknown else "no form given"
        raise EdgarInputError(
            f"--forms: {what} not supported; choose from {', '.join(SUPPORTED_FORMS)}"
        )
    return forms


def company_of(submissions: dict[str, Any]) -> Company:
    try:
        cik = int(submissions["cik"])
    except (KeyError, TypeError, ValueError):
        raise EdgarError("the submissions index names no CIK") from None
    fye = submissions.get("fiscalYearEnd")
    fye = fye if isinstance(fye, str) and re.fullmatch(r"\d{4}", fye) else None
    return Company(
        cik=cik,
        name=str(submissions.get("name") or "").strip(),
        tickers=tuple(str(t).upper() for t in submissions.get("tickers") or ()),
        fiscal_year_end=fye,
    )


def filings_from_columns(columns: dict[str, Any]) -> list[Filing]:
    """Rows of one columnar block (``filings.recent`` or an extra file); rows that lack an
    accession number, form or primary document are not filings the grid can use."""
    numbers = columns.get("accessionNumber") or []
    found = []
    for i, accession in enumerate(numbers):

        def cell(key: str, i: int = i) -> str:
            values = columns.get(key) or []
            return str(values[i]).strip() if i < len(values) and values[i] is not None else ""

        form, document = cell("form").upper(), cell("primaryDocument")
        if not _ACCESSION.match(str(accession)) or not form or not document:
            continue
        if "/" in document.strip("/") or document.startswith("."):
            continue  # a name that is not a file in the filing's own folder
        report = cell("reportDate")
        found.append(
            Filing(
                accession=str(accession),
                form=form,
                filing_date=cell("filingDate"),
                report_date=report if _DATE.match(report) else None,
                primary_document=document,
                description=cell("primaryDocDescription"),
            )
        )
    return found


def all_filings(
    submissions: dict[str, Any],
    since: int | None,
    load_file: Callable[[str], dict[str, Any]],
) -> list[Filing]:
    """Recent filings, plus the older files the index points at when ``since`` reaches
    back past them (each loaded by ``load_file(name)``), newest first, each once."""
    filings = filings_from_columns((submissions.get("filings") or {}).get("recent") or {})
    for extra in (submissions.get("filings") or {}).get("files") or []:
        name = str(extra.get("name") or "")
        filing_to = str(extra.get("filingTo") or "")
        if since is None or not name or filing_to[:4] < str(since - 1):
            continue
        filings.extend(filings_from_columns(load_file(name)))
    unique = {f.accession: f for f in filings}
    return sorted(unique.values(), key=lambda f: (f.filing_date, f.accession), reverse=True)


def select(filings: Iterable[Filing], forms: tuple[str, ...]) -> list[Filing]:
    """The filings of ``forms``, oldest first (so an interrupted fetch has the history)."""
    wanted = set(forms)
    return sorted(
        (f for f in filings if f.form in wanted), key=lambda f: (f.filing_date, f.accession)
    )
