"""``research note TICKER``: one ticker in, a cited research note out, offline by default.

The note itself is built by ``notes`` from the grid, with the price series and multiples
from the chosen price provider (local files by default, the synthetic sample when none is
set) and news from the configured provider (none unless ``WISSEN_SEARXNG_URL`` or
``WISSEN_NEWS_FEEDS`` is set), gathered by ``notes.gather``. A source that is not configured or
does not have the ticker becomes the one line its section prints. A ticker the grid does
not hold is one error line and exit code 2. The note ends with its review (``notes.review``),
printed here and written to ``--out`` alike; a finding is information for the reader, not
a failure, so it does not change the exit code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from cli.errors import EXIT_FAILED, fail, say
from cli.grid_commands import StoreOption
from cli.output_files import OutputError, check_destination, write_output
from cli.prices_command import PriceProviderOption, PricesDirOption
from cli.terminal_text import print_markdown
from market.providers import make_provider
from notes import NoteError, OutsideSources, build_note
from notes.gather import gather_market, gather_news
from retrieval.open_store import open_store
from retrieval.sqlite.store import NotAGridStore
from retrieval.store import GridFilter

console = Console(soft_wrap=True)
NEWS_LIMIT = 5
PRICES_HOW = (
    "put {ticker}.csv (date, open, high, low, close, volume) in a folder and pass "
    "--prices-dir or set WISSEN_PRICES_DIR (docs/market.md)"
)
NEWS_HOW = (
    "News is not configured: set WISSEN_SEARXNG_URL (a SearXNG instance) or "
    "WISSEN_NEWS_FEEDS (RSS/Atom feed URLs) to list recent catalysts (docs/web-sources.md)."
)


def note_command(
    ticker: Annotated[str, typer.Argument(help="a ticker the grid holds, e.g. MMM")],
    store: StoreOption = None,
    out: Annotated[Path | None, typer.Option(help="also write the note's Markdown here")] = None,
    provider: PriceProviderOption = "local",
    prices_dir: PricesDirOption = None,
) -> None:
    """A cited research note: snapshot, results, trends, market data, news, risks, review."""
    try:
        check_destination(out, "--out")
    except OutputError as exc:
        raise fail(str(exc)) from None
    try:
        grid = open_store(store)
    except (NotAGridStore, ValueError) as exc:
        raise fail(str(exc)) from None
    try:
        symbol = ticker.strip().upper()
        cells = [c for c in grid.cells() if c.ticker == symbol]
        outside = OutsideSources(news_limit=NEWS_LIMIT)
        if cells:
            facts = list(grid.facts(GridFilter(ticker=symbol)))
            gather_market(
                outside, symbol, facts, lambda: make_provider(provider, prices_dir), PRICES_HOW
            )
            gather_news(outside, cells[-1].company, NEWS_HOW, NEWS_LIMIT)
        try:
            note = build_note(grid, ticker, outside)
        except NoteError as exc:
            raise fail(str(exc)) from None
    finally:
        grid.close()
    if outside.synthetic_prices:
        say("note: the prices are the bundled SYNTHETIC sample (market/sample/README.md)")
    markdown = note.to_markdown()
    print_markdown(markdown, console)
    if out is not None:
        problem = write_output(out, markdown, "--out")
        if problem:
            raise fail(f"could not write {problem}", EXIT_FAILED)


def register(app: typer.Typer) -> None:
    app.command("note")(note_command)
