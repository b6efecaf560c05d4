"""What a note reads beyond the grid, gathered the same way for ``research note`` and the
note page: the price series' indicators and multiples, and news from the configured
provider. A source that is not configured, or does not have the ticker, becomes the one
line its section prints; the front end only says how its user sets the source up (a flag
for the command, the server's environment for the page), so each passes its own wording.
"""

from __future__ import annotations

from collections.abc import Callable

from market.errors import PriceDataError, ProviderUnavailableError
from market.indicators import compute_indicators
from market.local import LocalFileProvider
from market.multiples import valuation_multiples
from market.provider import PriceProvider
from notes.outside import OutsideSources
from retrieval.facts.model import Fact
from websources import NotConfigured, WebSettings, WebSourceError, news_search
from websources import provider_from_settings as news_provider


def gather_market(
    outside: OutsideSources,
    ticker: str,
    facts: list[Fact],
    open_provider: Callable[[], PriceProvider],
    prices_how: str,
) -> None:
    """Fill ``outside`` with the indicators and multiples, or the one line saying why not
    (``prices_how``: how to supply prices, ``{ticker}`` filled in)."""
    try:
        source = open_provider()
        bars = source.daily_bars(ticker)
        detail = source.describe(ticker)
    except PriceDataError as exc:
        outside.market_unavailable = (
            f"No price data for {ticker} ({exc}); {prices_how.format(ticker=ticker)}."
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


def gather_news(outside: OutsideSources, query: str, news_how: str, limit: int) -> None:
    """Fill ``outside`` with news about ``query`` when a provider is configured, else the
    line ``news_how`` (how to configure one)."""
    outside.news_query = query
    try:
        settings = WebSettings.from_env()
        provider = news_provider(settings)
    except NotConfigured as exc:
        outside.news_unavailable = news_how if "no news provider" in str(exc) else f"{exc}."
        return
    try:
        found = news_search(query, provider=provider, settings=settings, limit=limit)
    except WebSourceError as exc:
        outside.news_unavailable = f"News search failed: {exc}."
        return
    outside.news, outside.news_unavailable = found.items, None
