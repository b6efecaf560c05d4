"""Building a research note for one ticker from the grid (and what the command gathered).

The order is the reading order: business snapshot, latest results, three-year trends,
market data and valuation, recent catalysts, risks. Sources are numbered as they are first
cited, so the numbers rise through the note. Everything a sentence states is read or
computed by code: facts through the calculator, prose quoted from the pages a slice-locked
search finds, prices and news as the command's providers returned them. The finished note
is read once by the review (``notes.review``), whose findings the note prints last.
"""

from __future__ import annotations

from notes.filing_text import business_description, risk_headings, risk_pages
from notes.financials import results_section, trends_section
from notes.model import CitedSentence, ResearchNote, Section
from notes.outside import OutsideSources, catalysts_section, market_section
from notes.review import review_note
from notes.sources import SourceBook, page_citation
from retrieval.coverage import held_tickers_text
from retrieval.store import GridCell, GridFilter


class NoteError(ValueError):
    """The note cannot be built for what was asked (a ticker the grid does not hold)."""


def check_ticker(store, ticker: str) -> tuple[str, list[GridCell]]:
    """``ticker`` upper-cased and its grid cells; :class:`NoteError` naming the tickers the
    grid holds when it holds none for this one."""
    symbol = ticker.strip().upper()
    cells = store.cells()
    mine = [c for c in cells if c.ticker == symbol]
    if not symbol or not mine:
        held = held_tickers_text((c.ticker for c in cells), symbol) or "nothing"
        raise NoteError(f"{ticker.strip() or ticker!r} is not in the grid; it holds {held}")
    return symbol, sorted(mine, key=lambda c: (c.fy, c.fq))


def latest_annual(cells: list[GridCell]) -> int | None:
    years = [c.fy for c in cells if "10-K" in c.doc_types]
    return max(years) if years else None


def _cells_line(company: str, ticker: str, cells: list[GridCell]) -> str:
    annual = [c for c in cells if "10-K" in c.doc_types or "ANNUAL REPORT" in c.doc_types]
    quarters = [c for c in cells if c not in annual]
    held = []
    if annual:
        years = f"FY{annual[0].fy}" + (f"–FY{annual[-1].fy}" if len(annual) > 1 else "")
        held.append(f"annual filings {years} (latest fiscal year FY{annual[-1].fy})")
    if quarters:
        last = quarters[-1]
        kinds = "/".join(last.doc_types)
        held.append(f"latest quarter FY{last.fy} Q{last.fq} ({kinds})")
    else:
        held.append("no quarterly filings")
    return f"Grid cells held for {company} ({ticker}): {len(cells)}; " + "; ".join(held) + "."


def snapshot_section(book: SourceBook, store, ticker: str, cells: list[GridCell]) -> Section:
    section = Section("snapshot", "Business snapshot")
    company = cells[-1].company
    section.context.append(_cells_line(company, ticker, cells))
    year = latest_annual(cells)
    passage = business_description(store, ticker, year) if year else None
    if passage is None:
        where = f"the FY{year} 10-K" if year else "any 10-K in the grid"
        section.unavailable = f"No “Item 1. Business” page was found by search in {where}."
        return section
    text = f"The FY{year} 10-K describes the company (Item 1, Business): “{passage.text}”"
    section.sentences.append(CitedSentence(text, book.cite(page_citation(passage.page))))
    return section


def risks_section(book: SourceBook, store, ticker: str, cells: list[GridCell]) -> Section:
    section = Section("risks", "Risks (10-K risk factors)")
    year = latest_annual(cells)
    pages = risk_pages(store, ticker, year) if year else []
    headings, total = risk_headings(pages)
    if not headings:
        where = f"the FY{year} 10-K" if year else "any 10-K in the grid"
        section.unavailable = f"No risk-factor headings were found in {where}."
        return section
    first, last = pages[0][0].page_index + 1, pages[-1][0].page_index + 1
    shown = f"{len(headings)} of {total}" if total > len(headings) else f"all {total}"
    section.context.append(
        f"Risk-factor headings found by code on pages {first}–{last} of the FY{year} 10-K "
        f"({shown}), quoted as printed."
    )
    for passage in headings:
        section.sentences.append(
            CitedSentence(f"“{passage.text}”", book.cite(page_citation(passage.page)), bullet=True)
        )
    return section


def build_note(store, ticker: str, outside: OutsideSources | None = None) -> ResearchNote:
    """The research note for ``ticker`` (:class:`NoteError` if the grid does not hold it)."""
    symbol, cells = check_ticker(store, ticker)
    outside = outside or OutsideSources(market_unavailable="No price source was asked.")
    facts = list(store.facts(GridFilter(ticker=symbol)))
    book = SourceBook()
    sections = [
        snapshot_section(book, store, symbol, cells),
        results_section(book, facts, symbol),
        trends_section(book, facts, symbol),
        market_section(book, outside, {f.uid: f for f in facts}),
        catalysts_section(book, outside),
        risks_section(book, store, symbol, cells),
    ]
    note = ResearchNote(symbol, cells[-1].company, sections, book, latest_annual(cells))
    note.review = review_note(note)
    return note
