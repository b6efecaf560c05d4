"""The provider interface: what the command and the indicators need from a price source.

A protocol rather than a base class, so a test (or a later provider) can stand in with any
object that has these members, and the local and online providers share no code they do not
need.
"""

from __future__ import annotations

from datetime import date
from typing import Protocol, runtime_checkable

import pandas as pd


@runtime_checkable
class PriceProvider(Protocol):
    """A source of daily bars for one ticker at a time."""

    #: Short name used on the command line and in citations: ``local``, ``stooq``.
    name: str

    def daily_bars(
        self, ticker: str, start: date | None = None, end: date | None = None
    ) -> pd.DataFrame:
        """Bars dated ``start`` to ``end`` inclusive, oldest first, with the columns
        ``date, open, high, low, close, volume`` (see :func:`market.bars.normalise_bars`).

        Raises :class:`~market.errors.PriceDataError` when the ticker has no prices there or
        they cannot be read, :class:`~market.errors.ProviderUnavailableError` when the
        provider itself cannot be reached."""
        ...

    def describe(self, ticker: str) -> str:
        """What exactly the prices of ``ticker`` are read from (a file path, a symbol), for
        the citation of every number computed from them."""
        ...
