"""Choosing a provider by name: the only place that may construct an online one.

``local`` is the default and needs no network. An online provider is made only when its name
is given (``--provider stooq`` or ``$WISSEN_PRICE_PROVIDER``), so nothing goes out by accident.
"""

from __future__ import annotations

from pathlib import Path

from market.local import LocalFileProvider
from market.provider import PriceProvider
from market.stooq import StooqProvider

PROVIDERS = ("local", "stooq")


def make_provider(
    name: str | None = None, prices_dir: Path | str | None = None, base_url: str | None = None
) -> PriceProvider:
    """The provider called ``name`` (default ``local``); a ``ValueError`` naming the
    choices for any other name."""
    chosen = (name or "local").strip().lower()
    if chosen == "local":
        return LocalFileProvider(prices_dir)
    if chosen == "stooq":
        return StooqProvider(base_url=base_url)
    raise ValueError(f"unknown price provider {name!r}; providers: {', '.join(PROVIDERS)}")
