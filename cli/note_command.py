"""``research note TICKER``: one ticker in, a cited research note out, offline by default.

The note itself is built by ``notes`` from the grid. This command gathers what ``notes``
may not import (the layering keeps ``market`` and ``websources`` for the front ends): the
price series and multiples from the chosen price provider (local files by default, the
synthetic sample when none is set) and news from the configured provider (none unless
``WISSEN_SEARXNG_URL`` or ``WISSEN_NEWS_FEEDS`` is set). A source that is not configured or
does not have the ticker becomes the one line its section prints. A ticker the grid does
not hold is one error line and exit code 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markdown import Markdown

from cli.errors import EXIT_FAILED, fail, say
from cli.grid_commands import StoreOption
from cli.output_files import OutputError, check_destination, write_output
from cli.prices_command import PriceProviderOption, PricesDirOption
from market.errors import PriceDataError, ProviderUnavailableError
from market.indicators import compute_indicators
from market.local import LocalFileProvider
from market.multiples import valuation_multiples
from market.providers import make_provider
from notes import NoteError, OutsideSources, build_note
from retrieval.open_store import open_store
from retrieval.sqlite.store import NotAGridStore
from retrieval.store import GridFilter
from websources import NotConfigured, WebSettings, WebSourceError, news_search
from websources import provider_from_settings as news_provider

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


def market_inputs(
    outside: OutsideSources, ticker: str, facts: list, provider: str, prices_dir: Path | None
) -> None:
    """Fill ``outside`` with the indicators and multiples, or the one line saying why not."""
    try:
        source = make_provider(provider, prices_dir)
        bars = source.daily_bars(ticker)
        detail = source.describe(ticker)
    except PriceDataError as exc:
        outside.market_unavailable = (
            f"No price data for {ticker} ({exc}); {PRICES_HOW.format(ticker=ticker)}."
        )
        return
    except (ProviderUnavailableError, ValueError) as exc:
        outside.market_unavailable = f"Prices could not be read: {exc}."
        return
    indicators = compute_indicators(bars, source.name, detail)
    price = indicators[0]
    outside.indicators = indicators
    outside.multiples = valuation_multiples(price.value or 0.0, price.source, facts, ticker)
    outside.synthetic_prices = isinstance(source, LocalFileProvider) and source.is_sample


def news_inputs(outside: OutsideSources, query: str) -> None:
    """Fill ``outside`` with news about ``query`` when a provider is configured."""
    outside.news_query = query
    try:
        settings = WebSettings.from_env()
        provider = news_provider(settings)
    except NotConfigured as exc:
        outside.news_unavailable = NEWS_HOW if "no news provider" in str(exc) else f"{exc}."
        return
    try:
        found = news_search(query, provider=provider, settings=settings, limit=NEWS_LIMIT)
    except WebSourceError as exc:
        outside.news_unavailable = f"News search failed: {exc}."
        return
    outside.news, outside.news_unavailable = found.items, None


def note_command(
    ticker: Annotated[str, typer.Argument(help="a ticker the grid holds, e.g. MMM")],
    store: StoreOption = None,
    out: Annotated[Path | None, typer.Option(help="also write the note's Markdown here")] = None,
    provider: PriceProviderOption = "local",
    prices_dir: PricesDirOption = None,
) -> None:
    """A cited research note: snapshot, results, trends, market data, news and risks."""
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
            market_inputs(outside, symbol, facts, provider, prices_dir)
            news_inputs(outside, cells[-1].company)
        try:
            note = build_note(grid, ticker, outside)
        except NoteError as exc:
            raise fail(str(exc)) from None
    finally:
        grid.close()
    if outside.synthetic_prices:
        say("note: the prices are the bundled SYNTHETIC sample (market/sample/README.md)")
    markdown = note.to_markdown()
    console.print(Markdown(markdown), soft_wrap=False)
    if out is not None:
        problem = write_output(out, markdown, "--out")
        if problem:
            raise fail(f"could not write {problem}", EXIT_FAILED)


def register(app: typer.Typer) -> None:
    app.command("note")(note_command)
