"""Indicators against hand-computed values on small series, and their properties."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from market.indicators import (
    annualised_volatility,
    compute_indicators,
    period_return,
    rsi,
    sma,
)


def series(closes, start="2023-01-02"):
    return pd.Series(closes, index=pd.bdate_range(start, periods=len(closes)), dtype=float)


def bars(closes, start="2023-01-02"):
    dates = pd.bdate_range(start, periods=len(closes))
    return pd.DataFrame(
        {
            "date": dates,
            "open": closes,
            "high": closes,
            "low": closes,
            "close": closes,
            "volume": 1000.0,
        }
    )


def test_sma_by_hand():
    out = sma(series([1, 2, 3, 4, 5]), 3)
    assert out.isna().tolist() == [True, True, False, False, False]
    assert out.iloc[2:].tolist() == [2.0, 3.0, 4.0]


def test_rsi_wilder_by_hand():
    # changes +1 +1 -1 +1 +1; period 3: first averages 2/3 and 1/3 (RS 2, RSI 66.67), then
    # Wilder: gain (2/3*2+1)/3 = 7/9, loss (1/3*2)/3 = 2/9 (RS 3.5); gain 23/27, loss 4/27.
    out = rsi(series([1, 2, 3, 2, 3, 4]), period=3)
    assert out.iloc[:3].isna().all()
    assert out.iloc[3] == pytest.approx(100 - 100 / 3)
    assert out.iloc[4] == pytest.approx(100 - 100 / 4.5)
    assert out.iloc[5] == pytest.approx(100 - 100 / (1 + 23 / 4))


def test_rsi_matches_wilder_as_an_exponential_average():
    rng = np.random.default_rng(7)
    closes = series(100 * np.exp(np.cumsum(rng.normal(0, 0.02, 80))))
    change = closes.diff().iloc[1:]

    def wilder(values):
        seeded = values.copy()
        seeded.iloc[13] = values.iloc[:14].mean()
        return seeded.iloc[13:].ewm(alpha=1 / 14, adjust=False).mean()

    gain, loss = wilder(change.clip(lower=0)), wilder(-change.clip(upper=0))
    expected = 100 - 100 / (1 + gain / loss)
    assert np.allclose(rsi(closes).iloc[14:].to_numpy(), expected.to_numpy())


def test_rsi_edges():
    assert rsi(series([5.0] * 20)).iloc[-1] == 50.0  # no movement at all
    assert rsi(series(list(range(1, 21)))).iloc[-1] == 100.0  # no losses
    assert rsi(series(list(range(20, 0, -1)))).iloc[-1] == 0.0  # no gains
    assert rsi(series([1.0] * 14)).isna().all()  # too short: 14 closes, 13 changes


def test_volatility_by_hand():
    closes = series([100, 110, 99, 108.9])
    returns = [math.log(1.1), math.log(0.9), math.log(1.1)]
    mean = sum(returns) / 3
    std = math.sqrt(sum((r - mean) ** 2 for r in returns) / 2)
    assert annualised_volatility(closes, window=3) == pytest.approx(std * math.sqrt(252))
    assert annualised_volatility(closes, window=4) is None


def test_returns_use_the_last_bar_on_or_before_the_calendar_date():
    closes = pd.Series(
        [100.0, 120.0, 150.0], index=pd.to_datetime(["2023-01-02", "2023-01-31", "2023-02-28"])
    )
    # one month before 2023-02-28 is 2023-01-28: the last bar on or before it is 2023-01-02
    assert period_return(closes, 1) == pytest.approx(0.5)
    assert period_return(closes, 3) is None


def test_compute_indicators_cites_provider_and_date_and_says_why_absent():
    found = {i.key: i for i in compute_indicators(bars([10.0, 11.0, 12.0]), "local", "X.csv")}
    close = found["last_close"]
    assert close.value == 12.0 and close.source.provider == "local"
    assert close.source.as_of.isoformat() == "2023-01-04" and close.source.detail == "X.csv"
    assert found["sma_20"].value is None and "needs 20 closes" in found["sma_20"].reason
    assert found["return_1y"].value is None and "starts 2023-01-02" in found["return_1y"].reason
    assert found["rsi_14"].value is None and found["volatility_30d"].value is None
    assert list(found) == [
        "last_close",
        "return_1m",
        "return_3m",
        "return_1y",
        "sma_20",
        "sma_50",
        "rsi_14",
        "volatility_30d",
    ]


def test_compute_indicators_on_a_long_series_has_every_value():
    rng = np.random.default_rng(1)
    closes = 50 * np.exp(np.cumsum(rng.normal(0, 0.01, 300)))
    found = compute_indicators(bars(closes), "local", "X.csv")
    assert all(i.value is not None and i.reason is None for i in found)


prices = st.floats(0.01, 1e6, allow_nan=False, allow_infinity=False)


@settings(max_examples=200, deadline=None)
@given(st.lists(prices, min_size=1, max_size=80), st.integers(1, 20))
def test_rsi_is_always_within_0_and_100(closes, period):
    values = rsi(series(closes), period).dropna()
    assert ((values >= 0) & (values <= 100)).all()


@settings(max_examples=100, deadline=None)
@given(prices, st.integers(1, 60), st.integers(0, 40))
def test_sma_of_a_constant_series_is_the_constant(constant, window, extra):
    out = sma(series([constant] * (window + extra)), window).dropna()
    assert len(out) == extra + 1
    assert np.allclose(out.to_numpy(), constant, rtol=1e-9)


@settings(max_examples=100, deadline=None)
@given(st.lists(prices, min_size=1, max_size=80), st.integers(1, 30))
def test_n_times_sma_is_the_rolling_sum(closes, window):
    out = sma(series(closes), window)
    values = np.asarray(closes)
    for i in range(len(values)):
        if i + 1 < window:
            assert math.isnan(out.iloc[i])
        else:
            expected = math.fsum(values[i + 1 - window : i + 1])
            assert window * out.iloc[i] == pytest.approx(expected, rel=1e-9)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.floats(1, 1000), min_size=2, max_size=300),
    st.floats(0.001, 1000),
    st.sampled_from([1, 3, 12]),
)
def test_returns_and_volatility_ignore_the_price_scale(closes, factor, months):
    base, scaled = series(closes), series([c * factor for c in closes])
    before, after = period_return(base, months), period_return(scaled, months)
    assert (before is None) == (after is None)
    if before is not None:
        assert after == pytest.approx(before, rel=1e-9, abs=1e-12)
    if len(closes) >= 3:
        vol = annualised_volatility(base, window=2)
        assert annualised_volatility(scaled, window=2) == pytest.approx(vol, rel=1e-6, abs=1e-9)
