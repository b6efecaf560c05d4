"""Price indicators, computed by code from a frame of daily bars.

The functions are pure: a frame (or a close series) in, numbers out, no provider, no clock.
:func:`compute_indicators` bundles them for the command, each result carrying the
:class:`~market.sources.PriceSource` it cites (provider and as-of date), and a one-line
reason instead of a value when the series is too short for it: a short series gives an
absent number, never one computed over fewer days than it claims.

Formulas (``P_t`` is the close on trading day ``t``, the last bar is ``T``):

* returns over ``m`` calendar months: ``P_T / P_b - 1``, ``b`` the last bar on or before the
  date ``m`` months before ``T``'s date;
* simple moving average over ``n`` bars: the mean of the last ``n`` closes;
* RSI(14), Wilder: first averages are the plain means of the first 14 gains and losses, then
  ``avg_t = (avg_{t-1} * 13 + x_t) / 14``; ``RSI = 100 - 100 / (1 + avg_gain / avg_loss)``
  (100 when there were no losses, 50 when the closes did not move at all);
* volatility over 30 days: the sample standard deviation of the last 30 daily log returns
  ``ln(P_t / P_{t-1})``, times ``sqrt(252)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from market.sources import PriceSource

TRADING_DAYS_PER_YEAR = 252
RETURN_MONTHS = {"return_1m": 1, "return_3m": 3, "return_1y": 12}
SMA_WINDOWS = (20, 50)
RSI_PERIOD = 14
VOLATILITY_WINDOW = 30


@dataclass(frozen=True)
class Indicator:
    """One number read from a price series, with what it cites; ``value`` is ``None`` when
    the series cannot give it, and ``reason`` then says why."""

    key: str  # "sma_20"
    label: str  # "SMA 20d"
    value: float | None
    unit: str  # "price" | "fraction" | "index" (RSI, 0-100)
    source: PriceSource
    reason: str | None = None


def close_series(bars: pd.DataFrame) -> pd.Series:
    """The closes indexed by date (the frame's ``date`` column), oldest first."""
    return pd.Series(bars["close"].to_numpy(dtype=float), index=pd.DatetimeIndex(bars["date"]))


def sma(closes: pd.Series, window: int) -> pd.Series:
    """Simple moving average over ``window`` bars; NaN until ``window`` closes are in."""
    return closes.rolling(window, min_periods=window).mean()


def rsi(closes: pd.Series, period: int = RSI_PERIOD) -> pd.Series:
    """Wilder's RSI; NaN for the first ``period`` bars (they seed the averages)."""
    values = closes.to_numpy(dtype=float)
    out = np.full(len(values), np.nan)
    if len(values) <= period:
        return pd.Series(out, index=closes.index)
    changes = np.diff(values)
    gains, losses = np.clip(changes, 0, None), np.clip(-changes, 0, None)
    avg_gain, avg_loss = gains[:period].mean(), losses[:period].mean()
    out[period] = _rsi_value(avg_gain, avg_loss)
    for i in range(period, len(changes)):
        avg_gain = (avg_gain * (period - 1) + gains[i]) / period
        avg_loss = (avg_loss * (period - 1) + losses[i]) / period
        out[i + 1] = _rsi_value(avg_gain, avg_loss)
    return pd.Series(out, index=closes.index)


def _rsi_value(avg_gain: float, avg_loss: float) -> float:
    if avg_loss == 0:
        return 50.0 if avg_gain == 0 else 100.0
    return 100.0 - 100.0 / (1.0 + avg_gain / avg_loss)


def log_returns(closes: pd.Series) -> pd.Series:
    """``ln(P_t / P_{t-1})`` for each bar after the first."""
    return np.log(closes / closes.shift(1)).iloc[1:]


def annualised_volatility(closes: pd.Series, window: int = VOLATILITY_WINDOW) -> float | None:
    """Sample std of the last ``window`` daily log returns times ``sqrt(252)``; ``None`` when
    the series has fewer than ``window`` returns."""
    returns = log_returns(closes)
    if len(returns) < window:
        return None
    return float(returns.iloc[-window:].std(ddof=1) * math.sqrt(TRADING_DAYS_PER_YEAR))


def period_return(closes: pd.Series, months: int) -> float | None:
    """Return over ``months`` calendar months to the last bar, as a fraction (0.05 is 5%);
    ``None`` when the series does not reach back that far."""
    base = base_date(closes, months)
    if base is None:
        return None
    return float(closes.iloc[-1] / closes.loc[base] - 1.0)


def base_date(closes: pd.Series, months: int) -> pd.Timestamp | None:
    """The last bar on or before ``months`` calendar months before the last bar's date."""
    target = closes.index[-1] - pd.DateOffset(months=months)
    earlier = closes.index[closes.index <= target]
    return earlier[-1] if len(earlier) else None


def compute_indicators(bars: pd.DataFrame, provider: str, detail: str) -> list[Indicator]:
    """Every indicator of the command for ``bars`` (at least one bar), citing ``provider``
    and ``detail`` (what was read) as of the last bar's date."""
    closes = close_series(bars)
    as_of = closes.index[-1].date()
    source = PriceSource(provider, detail, as_of)
    first = closes.index[0].date().isoformat()
    count = len(closes)

    def made(key: str, label: str, value: float | None, unit: str, short: str) -> Indicator:
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return Indicator(key, label, None, unit, source, short)
        return Indicator(key, label, float(value), unit, source)

    found = [made("last_close", "Last close", float(closes.iloc[-1]), "price", "")]
    for key, months in RETURN_MONTHS.items():
        label = f"Return {'1Y' if months == 12 else f'{months}M'}"
        short = f"the series starts {first}, less than {months} month(s) before {as_of}"
        found.append(made(key, label, period_return(closes, months), "fraction", short))
    for window in SMA_WINDOWS:
        value = sma(closes, window).iloc[-1]
        short = f"needs {window} closes; the series has {count}"
        found.append(made(f"sma_{window}", f"SMA {window}d", value, "price", short))
    short = f"needs {RSI_PERIOD + 1} closes; the series has {count}"
    found.append(made("rsi_14", f"RSI {RSI_PERIOD} (Wilder)", rsi(closes).iloc[-1], "index", short))
    short = f"needs {VOLATILITY_WINDOW + 1} closes; the series has {count}"
    found.append(
        made(
            "volatility_30d",
            f"Volatility {VOLATILITY_WINDOW}d (annualised)",
            annualised_volatility(closes),
            "fraction",
            short,
        )
    )
    return found
