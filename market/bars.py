"""The shape every provider returns: one row per trading day, checked once, here.

Providers differ in how they spell columns and dates; indicators should not care. A frame
that passes :func:`normalise_bars` has exactly the columns of :data:`COLUMNS`, ``date`` as
a ``datetime64`` without time zone, strictly increasing dates, float prices and a positive
close on every row (log returns and ratios need one). Anything else is a
:class:`~market.errors.PriceDataError` naming the source, never a silent repair.
"""

from __future__ import annotations

from datetime import date

import pandas as pd

from market.errors import PriceDataError

COLUMNS = ("date", "open", "high", "low", "close", "volume")
_PRICES = ("open", "high", "low", "close")


def normalise_bars(frame: pd.DataFrame, source: str) -> pd.DataFrame:
    """``frame`` with the columns of :data:`COLUMNS` checked and typed; ``source`` names the
    file or address in error messages."""
    renamed = frame.rename(columns=lambda c: str(c).strip().lower())
    missing = [c for c in COLUMNS if c not in renamed.columns]
    if missing:
        found = ", ".join(str(c) for c in frame.columns) or "none"
        raise PriceDataError(
            f"{source}: missing column {', '.join(missing)} "
            f"(need {', '.join(COLUMNS)}; found {found})"
        )
    bars = renamed.loc[:, list(COLUMNS)].copy()
    if bars.empty:
        raise PriceDataError(f"{source}: no price rows")
    dates = pd.to_datetime(bars["date"], errors="coerce", format="mixed")
    bad = dates.isna()
    if bad.any():
        row = int(bad.to_numpy().nonzero()[0][0])
        raise PriceDataError(
            f"{source}: row {row + 1} has a date that cannot be read: {bars['date'].iloc[row]!r}"
        )
    if getattr(dates.dt, "tz", None) is not None:
        dates = dates.dt.tz_localize(None)
    bars["date"] = dates.dt.normalize().astype("datetime64[ns]")
    for column in (*_PRICES, "volume"):
        numbers = pd.to_numeric(bars[column], errors="coerce")
        bad = numbers.isna() & bars[column].notna() & (bars[column].astype(str).str.strip() != "")
        if bad.any():
            row = int(bad.to_numpy().nonzero()[0][0])
            raise PriceDataError(
                f"{source}: row {row + 1} has a {column} that is not a number: "
                f"{bars[column].iloc[row]!r}"
            )
        bars[column] = numbers.astype(float)
    closes = bars["close"]
    if closes.isna().any() or (closes <= 0).any():
        row = int((closes.isna() | (closes <= 0)).to_numpy().nonzero()[0][0])
        raise PriceDataError(f"{source}: row {row + 1} has no positive close")
    bars = bars.sort_values("date", kind="stable")
    duplicated = bars["date"].duplicated()
    if duplicated.any():
        day = bars.loc[duplicated, "date"].iloc[0].date().isoformat()
        raise PriceDataError(f"{source}: the date {day} appears more than once")
    return bars.reset_index(drop=True)


def between(bars: pd.DataFrame, start: date | None, end: date | None) -> pd.DataFrame:
    """The rows of ``bars`` dated ``start`` to ``end`` inclusive (either may be open)."""
    keep = pd.Series(True, index=bars.index)
    if start is not None:
        keep &= bars["date"] >= pd.Timestamp(start)
    if end is not None:
        keep &= bars["date"] <= pd.Timestamp(end)
    return bars.loc[keep].reset_index(drop=True)
