"""The price page: ``/prices/{ticker}``, a server-rendered SVG chart of the close with its
moving averages, the indicators and the valuation multiples, each with its source.

The web app never reaches the network for prices: it reads the local provider only
(``$WISSEN_PRICES_DIR``, else the bundled synthetic sample), so serving the app cannot
send a ticker anywhere. The chart is inline SVG drawn from numbers computed here, with no
script; fact inputs link to their filing pages like any citation.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date
from typing import Annotated

import pandas as pd
from fastapi import APIRouter, HTTPException, Query, Request

from market.errors import PriceDataError
from market.indicators import close_series, compute_indicators, sma
from market.local import LocalFileProvider
from market.multiples import valuation_multiples
from market.sources import FactSource
from retrieval.store import GridFilter
from web.rendering import render

router = APIRouter()
WIDTH, HEIGHT, PAD = 720, 260, 36


@dataclass(frozen=True)
class Chart:
    """What the template draws: polylines in SVG user units and the axis labels."""

    close: str
    sma_20: str
    sma_50: str
    low: float
    high: float
    first: str
    last: str
    width: int = WIDTH
    height: int = HEIGHT
    pad: int = PAD


def chart(closes: pd.Series) -> Chart:
    """Closes and their 20/50-day SMAs scaled into the chart box (oldest on the left)."""
    low, high = float(closes.min()), float(closes.max())
    span = (high - low) or 1.0
    step = (WIDTH - 2 * PAD) / max(len(closes) - 1, 1)

    def points(values: pd.Series) -> str:
        return " ".join(
            f"{PAD + i * step:.1f},{PAD + (high - v) / span * (HEIGHT - 2 * PAD):.1f}"
            for i, v in enumerate(values.to_numpy())
            if not pd.isna(v)
        )

    return Chart(
        close=points(closes),
        sma_20=points(sma(closes, 20)),
        sma_50=points(sma(closes, 50)),
        low=low,
        high=high,
        first=closes.index[0].date().isoformat(),
        last=closes.index[-1].date().isoformat(),
    )


@router.get("/prices/{ticker}")
def prices_page(
    request: Request,
    ticker: str,
    since: Annotated[date | None, Query(description="first date, YYYY-MM-DD")] = None,
):
    provider = LocalFileProvider(os.environ.get("WISSEN_PRICES_DIR") or None)
    try:
        bars = provider.daily_bars(ticker, start=since)
        detail = provider.describe(ticker)
    except PriceDataError as exc:
        raise HTTPException(404, str(exc)) from None
    symbol = ticker.strip().upper()
    indicators = compute_indicators(bars, provider.name, detail)
    grid = request.app.state.grid
    with grid._lock:  # the grid's one connection is shared by the app's handlers
        facts = grid.store.facts(GridFilter(ticker=symbol))
    price = indicators[0]
    multiples = valuation_multiples(price.value or 0.0, price.source, facts, symbol)
    return render(
        request,
        "prices.html",
        ticker=symbol,
        sample=provider.is_sample,
        chart=chart(close_series(bars)),
        indicators=indicators,
        multiples=multiples,
        is_fact=lambda source: isinstance(source, FactSource),
    )
