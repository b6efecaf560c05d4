"""Prices from Stooq's daily CSV download: the one online provider, used only when chosen.

Endpoint (the "download data" link on a quote's historical-data page at stooq.com)::

    GET {base_url}?s={symbol}&i=d[&d1=YYYYMMDD][&d2=YYYYMMDD][&apikey=KEY]

answers ``Date,Open,High,Low,Close,Volume`` CSV, oldest first; US shares are ``mmm.us``.
The base URL is configurable (``$WISSEN_STOOQ_URL``), so tests point it at a local server and
a mirror or proxy can stand in. Stooq answers some failures with HTTP 200 and a body that is
not CSV ("No data", or an HTML page asking for a key or a browser check): those are errors
here too, never an empty series. Terms of use: see ``docs/market.md``.
"""

from __future__ import annotations

import io
import os
from datetime import date

import httpx
import pandas as pd

from market.bars import between, normalise_bars
from market.errors import PriceDataError, ProviderUnavailableError
from market.local import check_ticker

DEFAULT_BASE_URL = "https://stooq.com/q/d/l/"
DEFAULT_TIMEOUT_S = 15.0


class StooqProvider:
    """Daily bars from Stooq (or whatever serves its CSV format at ``base_url``)."""

    name = "stooq"

    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.base_url = base_url or os.environ.get("WISSEN_STOOQ_URL") or DEFAULT_BASE_URL
        self.api_key = api_key if api_key is not None else os.environ.get("WISSEN_STOOQ_APIKEY")
        self.timeout_s = timeout_s
        self.transport = transport

    @staticmethod
    def symbol(ticker: str) -> str:
        """Stooq's symbol: a bare ticker is a US share (``MMM`` -> ``mmm.us``); one that already
        names its market (``7203.jp``) is passed as given."""
        cleaned = check_ticker(ticker).lower()
        return cleaned if "." in cleaned else f"{cleaned}.us"

    def describe(self, ticker: str) -> str:
        return f"{self.symbol(ticker)} from {self.base_url}"

    def daily_bars(
        self, ticker: str, start: date | None = None, end: date | None = None
    ) -> pd.DataFrame:
        symbol = self.symbol(ticker)
        params = {"s": symbol, "i": "d"}
        if start:
            params["d1"] = start.strftime("%Y%m%d")
        if end:
            params["d2"] = end.strftime("%Y%m%d")
        if self.api_key:
            params["apikey"] = self.api_key
        body = self._get(params)
        frame = _parse(body, symbol)
        bars = between(normalise_bars(frame, f"stooq {symbol}"), start, end)
        if bars.empty:
            raise PriceDataError(f"stooq has no prices for {symbol} in the dates asked for")
        return bars

    def _get(self, params: dict[str, str]) -> str:
        try:
            with httpx.Client(
                timeout=self.timeout_s, transport=self.transport, follow_redirects=True
            ) as client:
                response = client.get(self.base_url, params=params)
        except httpx.HTTPError as exc:
            reason = str(exc) or type(exc).__name__
            raise ProviderUnavailableError(
                f"stooq is unreachable at {self.base_url}: {reason}"
            ) from None
        if response.status_code >= 400:
            raise ProviderUnavailableError(
                f"stooq answered HTTP {response.status_code} at {self.base_url}"
            )
        return response.text


def _parse(body: str, symbol: str) -> pd.DataFrame:
    """The CSV body as a frame; Stooq's non-CSV answers as the errors they mean."""
    text = body.lstrip("\ufeff").strip()
    head = text[:200].lower()
    if not text or head.startswith("no data"):
        raise PriceDataError(f"stooq has no data for {symbol} (is the ticker right?)")
    if head.startswith("<") or "<html" in head:
        raise ProviderUnavailableError(
            "stooq answered with a web page, not CSV: it may need an API key "
            "($WISSEN_STOOQ_APIKEY) or be refusing scripted requests"
        )
    if not head.startswith("date"):
        first = text.splitlines()[0][:80]
        raise ProviderUnavailableError(f"stooq did not answer CSV for {symbol}: {first!r}")
    try:
        return pd.read_csv(io.StringIO(text), dtype=str)
    except pd.errors.ParserError as exc:
        raise PriceDataError(f"stooq {symbol}: the CSV cannot be read ({exc})") from None
