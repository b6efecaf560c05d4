"""``research fetch``: a company's filings from EDGAR into the grid, one document at a time.

Why one transaction per filing: each filing's pages and facts are written by the store's
``upsert_document`` together, so a fetch that fails or is killed half-way leaves every
finished filing stored and none half-stored. Why skip by accession number: a filing never
changes once filed, so fetching again downloads only what the store does not hold yet.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from edgar.cells import Placement, filing_cell
from edgar.citing import Agreement, agreement, cite, merge
from edgar.client import EdgarClient
from edgar.documents import by_size, document_pages
from edgar.errors import DocumentError, EdgarError, EdgarHTTPError, EdgarInputError
from edgar.filings import Company, Filing, all_filings, company_of, select
from edgar.ledger import EMPTY, STORED, Ledger, LedgerEntry
from edgar.xbrl import XbrlFact, filing_facts, filing_focus, filing_period_end
from retrieval.companies import load_companies
from retrieval.facts.extract import document_facts
from retrieval.facts.model import Fact
from retrieval.ingest.pipeline import MAX_PAGE_CHARS
from retrieval.pages import Page, doc_label
from retrieval.store import PageStore

_ACCESSION_AT_END = re.compile(r"_(\d{10}-\d{2}-\d{6})$")
_STORED_NAME = re.compile(
    r"_(?P<fy>\d{4})(?:Q(?P<q>[1-4]))?_(?:10K|10Q|8K)A?"
    r"(?:_dated-(?P<date>\d{4}-\d{2}-\d{2}))?_\d{10}-\d{2}-\d{6}$"
)
#: Consecutive failed downloads after which the server is taken to be down.
MAX_FAILURES_IN_A_ROW = 3
_INT32 = (-(2**31), 2**31 - 1)


@dataclass
class FilingOutcome:
    """What became of one filing: ``fetched``, ``skipped`` (already done) or ``failed``."""

    filing: Filing
    status: str
    label: str = ""  # "MMM 10-K FY2023"
    cell: Placement | None = None
    pages: int = 0
    facts: int = 0
    xbrl_facts: int = 0
    table_facts: int = 0
    reason: str = ""
    agreement: Agreement = field(default_factory=Agreement)


@dataclass
class FetchReport:
    ticker: str
    company: str = ""
    cik: int = 0
    outcomes: list[FilingOutcome] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    stopped: str = ""  # why the fetch stopped before its last filing

    def count(self, status: str) -> int:
        return sum(o.status == status for o in self.outcomes)

    @property
    def pages(self) -> int:
        return sum(o.pages for o in self.outcomes)

    @property
    def facts(self) -> int:
        return sum(o.facts for o in self.outcomes)

    @property
    def xbrl_facts(self) -> int:
        return sum(o.xbrl_facts for o in self.outcomes)

    @property
    def agreement(self) -> Agreement:
        total = Agreement()
        for outcome in self.outcomes:
            total.add(outcome.agreement)
        return total


def resolve_cik(client: EdgarClient, ticker: str) -> tuple[int, str]:
    """The CIK and SEC's title of ``ticker``; EdgarInputError when SEC lists no such ticker."""
    wanted = ticker.strip().upper().replace(".", "-")
    listing = client.company_tickers()
    rows = listing.values() if isinstance(listing, dict) else listing
    for row in rows:
        if not isinstance(row, dict):
            continue
        if str(row.get("ticker", "")).upper().replace(".", "-") == wanted:
            try:
                return int(row["cik_str"]), str(row.get("title") or "")
            except (KeyError, TypeError, ValueError):
                break
    raise EdgarInputError(f"unknown ticker {ticker!r}: SEC's company_tickers.json does not list it")


def doc_name_for(ticker: str, cell: Placement, filing: Filing) -> str:
    """A stable document name that ends in the accession number, e.g.
    ``MMM_2023_10K_0000066740-24-000016``, ``MMM_2023Q2_10Q_…`` or
    ``MMM_2023_8K_dated-2023-05-05_…`` (the grid's label is built from the cell, not this)."""
    form = filing.form.replace("-", "").replace("/", "")
    if filing.base_form == "10-K":
        period = f"{cell.fy}"
    elif filing.base_form == "8-K":
        period = f"{cell.fy}"
        form += f"_dated-{filing.report_date or filing.filing_date}"
    else:
        period = f"{cell.fy}Q{cell.fq}"
    return f"{ticker}_{period}_{form}_{filing.accession}"


def stored_accessions(store: Any) -> dict[str, str]:
    """Accession number -> document name, for the fetched filings the store holds."""
    names = store.document_names() if hasattr(store, "document_names") else []
    return {m.group(1): name for name in names if (m := _ACCESSION_AT_END.search(name))}


def stored_cell(doc_name: str) -> Placement | None:
    """The cell a stored filing was given, read back from the name :func:`doc_name_for`
    made, so a skipped filing shows (and is filtered by) the label it is stored under."""
    found = _STORED_NAME.search(doc_name)
    if not found:
        return None
    fy, quarter, dated = int(found["fy"]), found["q"], found["date"]
    if dated:
        return Placement(fy, (int(dated[5:7]) - 1) // 3 + 1, "stored")
    return Placement(fy, int(quarter) if quarter else 4, "stored")


def _company_name(ticker: str, edgar_name: str) -> str:
    """The bundled map's name for a ticker the grid already knows (``3M``), so fetched
    filings sit beside FinanceBench's under one company; else SEC's name."""
    try:
        for company in load_companies():
            if company.ticker == ticker:
                return company.name
    except ValueError:
        pass
    return edgar_name or ticker


def _fits(fact: Fact) -> bool:
    low, high = _INT32
    whole = (fact.fy, fact.fq or 0, fact.page_index)
    return math.isfinite(fact.value) and all(low <= n <= high for n in whole)


def _page_texts(content: bytes, filing: Filing) -> list[str]:
    """The document's pages; a page over the grid's limit is cut by size (these pages are
    ours to number: no outside page index would be broken)."""
    texts = []
    for text in document_pages(content, filing.primary_document):
        texts.extend(by_size(text.split("\n")) if len(text) > MAX_PAGE_CHARS else [text])
    return texts


class _Fetcher:
    def __init__(self, store: PageStore, client: EdgarClient, ledger: Ledger, ticker: str) -> None:
        self.store = store
        self.client = client
        self.ledger = ledger
        self.ticker = ticker

    def store_filing(
        self,
        filing: Filing,
        company: Company,
        company_name: str,
        cell: Placement,
        companyfacts: dict[str, Any] | None,
    ) -> FilingOutcome:
        outcome = FilingOutcome(filing, "fetched", cell=cell)
        content = self.client.document(company.cik, filing.accession, filing.primary_document)
        texts = _page_texts(content, filing)
        doc_type = filing.base_form
        doc_name = doc_name_for(self.ticker, cell, filing)
        pages = [
            Page(
                doc_name=doc_name,
                ticker=self.ticker,
                company=company_name,
                fy=cell.fy,
                fq=cell.fq,
                doc_type=doc_type,
                doc_date=filing.report_date or filing.filing_date or None,
                page_index=i,
                text=text,
            )
            for i, text in enumerate(texts)
        ]
        outcome.label = pages[0].doc_label
        annual = doc_type == "10-K"
        period_end = filing.report_date or filing_period_end(companyfacts, filing.accession)
        xbrl: list[XbrlFact] = []
        if doc_type != "8-K" and period_end:
            xbrl = filing_facts(companyfacts, filing.accession, cell, period_end, annual)

        def facts(stored: Sequence[Page]) -> list[Fact]:
            try:
                table = document_facts(stored)
            except ArithmeticError:
                table = []
            outcome.agreement = agreement(xbrl, table)
            cited = cite(xbrl, stored)
            kept = [f for f in merge(cited, table) if _fits(f)]
            outcome.xbrl_facts = sum(f in cited for f in kept)
            outcome.table_facts = len(kept) - outcome.xbrl_facts
            outcome.facts = len(kept)
            return kept

        outcome.pages = self.store.upsert_document(pages, facts=facts)
        self.ledger.add(
            LedgerEntry(
                accession=filing.accession,
                ticker=self.ticker,
                form=filing.form,
                status=STORED,
                doc_name=doc_name,
                pages=outcome.pages,
                facts=outcome.facts,
                fetched_at=datetime.now(UTC).isoformat(timespec="seconds"),
            )
        )
        return outcome


def fetch_company(
    ticker: str,
    store: PageStore,
    client: EdgarClient,
    ledger: Ledger,
    forms: tuple[str, ...] = ("10-K", "10-Q"),
    since: int | None = None,
    on_filing: Callable[[FilingOutcome], None] | None = None,
    refresh: bool = False,
) -> FetchReport:
    """Fetch ``ticker``'s filings of ``forms`` (fiscal year ``since`` on) into ``store``.

    Raises EdgarInputError for an unknown ticker and EdgarError when the company's index
    cannot be read; a filing that fails is reported in its outcome and the rest go on,
    until :data:`MAX_FAILURES_IN_A_ROW` downloads in a row fail (the server is down).
    ``refresh`` fetches stored filings again, replacing each whole (same page uids), e.g. to
    bring back XBRL facts that ``research facts --rebuild`` replaced by table facts.
    """
    ticker = ticker.strip().upper()
    if not re.fullmatch(r"[A-Z0-9][A-Z0-9.\-]{0,9}", ticker):
        raise EdgarInputError(f"{ticker!r} is not a ticker (letters, digits, '.' or '-')")
    report = FetchReport(ticker)
    cik, title = resolve_cik(client, ticker)
    submissions = client.submissions(cik)
    company = company_of(submissions)
    report.cik = cik
    report.company = company.name or title
    company_name = _company_name(ticker, report.company)

    def load_file(name: str) -> dict[str, Any]:
        return client.get_json(f"{client.settings.data_url}/submissions/{name}")

    chosen = select(all_filings(submissions, since, load_file), forms)
    have = {} if refresh else stored_accessions(store)
    done = {f.accession for f in chosen if f.accession in have}
    done |= {f.accession for f in chosen if not refresh and ledger.status(f.accession) == EMPTY}
    companyfacts: dict[str, Any] | None = None
    if any(f.accession not in done and f.base_form != "8-K" for f in chosen):
        try:
            companyfacts = client.company_facts(cik)
        except EdgarHTTPError as exc:
            report.warnings.append(
                f"XBRL company facts not read ({exc}): filings are labelled by their report "
                "dates and their facts read from their tables"
            )
        if companyfacts is None and not report.warnings:
            report.warnings.append("the company has no XBRL company facts: facts from tables only")
    fetcher = _Fetcher(store, client, ledger, ticker)
    failures_in_a_row = 0
    for filing in chosen:
        try:
            focus = filing_focus(companyfacts, filing.accession)
            cell = stored_cell(have.get(filing.accession, "")) or filing_cell(
                filing, company.fiscal_year_end, focus
            )
        except (DocumentError, ValueError) as exc:
            outcome = FilingOutcome(filing, "failed", reason=f"cannot label the filing: {exc}")
            report.outcomes.append(outcome)
            if on_filing:
                on_filing(outcome)
            continue
        if since is not None and cell.fy < since:
            continue
        label = doc_label(ticker, filing.base_form, cell.fy, cell.fq)
        if filing.accession in done:
            outcome = FilingOutcome(filing, "skipped", label, cell, reason="already fetched")
        else:
            try:
                outcome = fetcher.store_filing(filing, company, company_name, cell, companyfacts)
                failures_in_a_row = 0
            except DocumentError as exc:
                outcome = FilingOutcome(filing, "failed", label, cell, reason=str(exc))
                if "holds no text" in str(exc):  # it will hold none next time either
                    ledger.add(LedgerEntry(filing.accession, ticker, filing.form, EMPTY))
            except EdgarError as exc:
                outcome = FilingOutcome(filing, "failed", label, cell, reason=str(exc))
                failures_in_a_row += 1
        report.outcomes.append(outcome)
        if on_filing:
            on_filing(outcome)
        if failures_in_a_row >= MAX_FAILURES_IN_A_ROW:
            report.stopped = (
                f"stopped after {failures_in_a_row} failed downloads in a row: "
                "is SEC EDGAR reachable? Fetch again later to resume"
            )
            break
    return report
