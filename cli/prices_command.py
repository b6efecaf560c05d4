"""``research prices TICKER``: price indicators and valuation multiples, each with its source.

Prices come from a provider (``market.providers``: local files by default, an online one only
when named); statement facts for the multiples come from the grid, as ``research facts``
reads them. Bad input (no price file, a malformed file, an empty series, a provider that is
down) is one line on stderr and exit code 2.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import date
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from cli.errors import fail, say
from cli.grid_commands import StoreOption
from cli.terminal_text import plain
from market.errors import PriceDataError, ProviderUnavailableError
from market.indicators import Indicator, compute_indicators
from market.local import LocalFileProvider
from market.multiples import Multiple, MultipleInput, valuation_multiples
from market.providers import PROVIDERS, make_provider
from retrieval.open_store import open_store
from retrieval.store import GridFilter
from retrieval.store_location import StoreLocation

console = Console(soft_wrap=True)


#: Where prices come from; ``research note`` reads the same two options.
PriceProviderOption = Annotated[
    str,
    typer.Option(
        "--provider",
        "--price-provider",
        envvar="WISSEN_PRICE_PROVIDER",
        help=f"where prices come from: {' | '.join(PROVIDERS)} (online ones only if named)",
    ),
]
PricesDirOption = Annotated[
    Path | None,
    typer.Option(
        "--prices-dir",
        envvar="WISSEN_PRICES_DIR",
        help="folder of TICKER.csv / TICKER.parquet files (default: the synthetic sample)",
    ),
]


def prices_command(
    ticker: Annotated[str, typer.Argument(help="e.g. MMM")],
    provider: PriceProviderOption = "local",
    prices_dir: PricesDirOption = None,
    since: Annotated[str | None, typer.Option(help="first date of the series, YYYY-MM-DD")] = None,
    store: StoreOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
) -> None:
    """Last close, returns, moving averages, RSI, volatility and P/E, P/B, EV/EBITDA, cited."""
    start = _date(since)
    try:
        source = make_provider(provider, prices_dir)
        bars = source.daily_bars(ticker, start=start)
        detail = source.describe(ticker)
    except (PriceDataError, ProviderUnavailableError, ValueError) as exc:
        raise fail(str(exc)) from None
    symbol = ticker.strip().upper()
    indicators = compute_indicators(bars, source.name, detail)
    price = indicators[0]  # the last close: always present, the series has a bar
    multiples = valuation_multiples(price.value or 0.0, price.source, _facts(store, symbol), symbol)
    sample = isinstance(source, LocalFileProvider) and source.is_sample
    if as_json:
        typer.echo(json.dumps(_record(symbol, sample, indicators, multiples), ensure_ascii=False))
        return
    if sample:
        say("note: these are the bundled SYNTHETIC sample prices (market/sample/README.md)")
    _print(symbol, indicators, multiples)


def _date(text: str | None) -> date | None:
    if not text:
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise fail(f"--since {text!r} is not a date; write YYYY-MM-DD, e.g. 2023-01-02") from None


def _facts(store: StoreLocation | None, ticker: str) -> list:
    """The ticker's statement facts from the grid (none if the grid does not hold it)."""
    try:
        grid = open_store(store)
    except ValueError as exc:
        raise fail(str(exc)) from None
    try:
        return list(grid.facts(GridFilter(ticker=ticker)))
    finally:
        grid.close()


def _shown(value: float | None, unit: str, signed: bool = False) -> str:
    """A value as the tables print it: percents for fractions, millions for big amounts."""
    if value is None:
        return "-"
    if unit == "fraction":
        return f"{value * 100:+.2f}%" if signed else f"{value * 100:.2f}%"
    if unit == "index":
        return f"{value:.1f}"
    if unit == "price":
        return f"{value:,.2f}"
    if unit in ("USD", "shares") and abs(value) >= 1e6:
        return f"{value / 1e6:,.1f}".removesuffix(".0") + f" million {unit}"
    return f"{value:,.2f} {unit}"


def _print(ticker: str, indicators: list[Indicator], multiples: list[Multiple]) -> None:
    table = Table(title=plain(f"{ticker} price indicators"))
    for column in ("indicator", "value", "source (provider, as of)"):
        table.add_column(column, overflow="fold")
    for item in indicators:
        value = _shown(item.value, item.unit, signed=item.key.startswith("return"))
        cell = item.source.text if item.value is not None else f"absent: {item.reason}"
        table.add_row(plain(item.label), value, plain(cell))
    console.print(table)
    table = Table(title=plain(f"{ticker} valuation multiples"), show_lines=True)
    for column in ("multiple", "value", "inputs and their sources"):
        table.add_column(column, overflow="fold")
    for multiple in multiples:
        year = f", FY{multiple.fiscal_year}" if multiple.fiscal_year else ""
        lines = [multiple.formula + year]
        lines += [_input_text(i) for i in multiple.inputs]
        if multiple.reason:
            lines.append(f"absent: {multiple.reason}")
        value = "-" if multiple.value is None else f"{multiple.value:.2f}x"
        table.add_row(plain(multiple.label), value, plain("\n".join(lines)))
    console.print(table)


def _input_text(item: MultipleInput) -> str:
    return f"{item.name} {_shown(item.value, item.unit)}: {item.source.text}"


def _record(
    ticker: str, sample: bool, indicators: list[Indicator], multiples: list[Multiple]
) -> dict[str, Any]:
    """Everything the table shows, as JSON-ready data (dates as ISO strings)."""

    def clean(data: Any) -> Any:
        if isinstance(data, dict):
            return {k: clean(v) for k, v in data.items()}
        if isinstance(data, list | tuple):
            return [clean(v) for v in data]
        return data.isoformat() if isinstance(data, date) else data

    return {
        "ticker": ticker,
        "synthetic_sample": sample,
        "indicators": [clean(asdict(i)) for i in indicators],
        "multiples": [clean(asdict(m)) for m in multiples],
    }


def register(app: typer.Typer) -> None:
    app.command("prices")(prices_command)
