"""The note page: ``/note`` (a form) and ``/note?ticker=MMM``, the research note as HTML.

The note is the one ``research note`` prints, built by ``notes.build_note`` from the grid,
with its review as the last section. Its outside sources are gathered by ``notes.gather``
as the command gathers them, but prices come from the local provider only
(``$WISSEN_PRICES_DIR``, else the bundled synthetic sample), so serving the app sends no
ticker to a price service, and news only when the server was started with a news provider
configured (``WISSEN_SEARXNG_URL`` or ``WISSEN_NEWS_FEEDS``). What is not configured is the
one line its section prints.

The body is rendered by ``web.report_html`` as a report is: page citations link to the
cited page (opened beside the note), and the Sources list numbers every kind of source.
A ticker the grid does not hold is the page with its one error line and status 404.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Query, Request

from citations.markup import Citation
from market.local import LocalFileProvider
from notes import NoteError, OutsideSources, ResearchNote, WebCitation, build_note
from notes.compose import check_ticker
from notes.gather import gather_market, gather_news
from notes.model import NO_FINDINGS
from retrieval.store import GridFilter
from web.rendering import render
from web.report_html import page_href, render_report

router = APIRouter()
NEWS_LIMIT = 5
MAX_TICKER_CHARS = 20
PRICES_HOW = (
    "put {ticker}.csv (date, open, high, low, close, volume) in a folder and set "
    "WISSEN_PRICES_DIR before starting research serve (docs/market.md)"
)
NEWS_HOW = (
    "News is not configured: start research serve with WISSEN_SEARXNG_URL (a SearXNG "
    "instance) or WISSEN_NEWS_FEEDS (RSS/Atom feed URLs) set to list recent catalysts "
    "(docs/web-sources.md)."
)


@dataclass(frozen=True)
class SourceLine:
    """One entry of the page's Sources list: a filing page opens beside the note, a web
    document links to its address, a price series is text."""

    number: int
    text: str
    href: str = ""
    uid: str = ""  # a filing page's uid: the page viewer opens it beside the note


def source_lines(note: ResearchNote) -> list[SourceLine]:
    """The note's Sources, numbered as its markers are."""
    lines = []
    for number, source in enumerate(note.sources, 1):
        if isinstance(source, Citation):
            text = f"{source.doc_label} p.{source.page_index + 1}"
            lines.append(SourceLine(number, text, page_href(source.uid), source.uid))
        elif isinstance(source, WebCitation) and source.url.startswith(("https://", "http://")):
            lines.append(SourceLine(number, source.render(), source.url))
        else:
            lines.append(SourceLine(number, source.render()))
    return lines


def research_note(request: Request, ticker: str) -> tuple[ResearchNote, bool]:
    """The note for ``ticker`` (:class:`NoteError` when the grid does not hold it) and
    whether its prices are the synthetic sample, which the page says first. The grid's
    one connection is shared by the app's handlers, so it is read under the grid's lock, and
    the providers are asked outside it."""
    grid = request.app.state.grid
    with grid._lock:
        symbol, cells = check_ticker(grid.store, ticker)
        facts = list(grid.store.facts(GridFilter(ticker=symbol)))
    outside = OutsideSources(news_limit=NEWS_LIMIT)
    prices_dir = os.environ.get("WISSEN_PRICES_DIR") or None
    gather_market(outside, symbol, facts, lambda: LocalFileProvider(prices_dir), PRICES_HOW)
    gather_news(outside, cells[-1].company, NEWS_HOW, NEWS_LIMIT)
    with grid._lock:
        return build_note(grid.store, symbol, outside), outside.synthetic_prices


@router.get("/note")
def note_page(
    request: Request,
    ticker: Annotated[str, Query(max_length=MAX_TICKER_CHARS, description="e.g. MMM")] = "",
):
    if not ticker.strip():
        return render(request, "note.html", ticker="", note=None, error=None)
    try:
        note, synthetic = research_note(request, ticker)
    except NoteError as exc:
        return render(request, "note.html", 404, ticker=ticker, note=None, error=str(exc))
    report = render_report(note.to_markdown(with_review=False))
    return render(
        request,
        "note.html",
        ticker=note.ticker,
        note=note,
        error=None,
        synthetic=synthetic,
        body_html=report.body_html,
        sources=source_lines(note),
        no_findings=NO_FINDINGS,
    )
