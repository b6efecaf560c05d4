"""``/prices/{ticker}``: the server-rendered chart page over the sample prices and grid."""

from __future__ import annotations

import shutil

import pytest
from web_helpers import client

from market.local import SAMPLE_DIR
from web.routes_prices import HEIGHT, PAD, WIDTH, chart
from web.settings import WebSettings


@pytest.fixture(scope="module")
def web(sample_store_path):
    with client(WebSettings(store=sample_store_path)) as c:
        yield c


@pytest.fixture(autouse=True)
def sample_prices(monkeypatch):
    monkeypatch.delenv("WISSEN_PRICES_DIR", raising=False)


def test_the_page_has_a_chart_indicators_and_cited_multiples(web):
    response = web.get("/prices/mmm", headers={"accept": "text/html"})
    assert response.status_code == 200
    html = response.text
    assert '<svg id="price-chart"' in html and 'id="line-close"' in html
    assert 'id="line-sma50"' in html and "SYNTHETIC" in html
    assert "87.32" in html and "local (market/sample/MMM.csv), 2023-06-30" in html
    assert "8.58x" in html and 'href="/pages/' in html and "MMM 10-K FY2022 p.48" in html


def test_since_and_a_ticker_outside_the_grid(web, tmp_path, monkeypatch):
    shutil.copy(SAMPLE_DIR / "PEP.csv", tmp_path / "ZZZ.csv")
    monkeypatch.setenv("WISSEN_PRICES_DIR", str(tmp_path))
    html = web.get("/prices/ZZZ", params={"since": "2023-06-01"}).text
    assert "SYNTHETIC" not in html and "the grid has no statement facts for ZZZ" in html
    assert 'id="line-sma50"' not in html  # 21 closes: no 50-day average to draw


def test_unknown_ticker_and_bad_input_are_errors_not_tracebacks(web):
    response = web.get("/prices/NOPE", headers={"accept": "text/html"})
    assert response.status_code == 404 and "no price file for NOPE" in response.text
    assert web.get("/prices/..%2Fetc").status_code in (400, 404)
    assert web.get("/prices/MMM", params={"since": "June"}).status_code == 400
    assert web.get("/prices/<b>x</b>").status_code == 404
    assert "<b>x</b>" not in web.get("/prices/<b>x</b>", headers={"accept": "text/html"}).text


def test_chart_points_stay_inside_the_box():
    import pandas as pd

    closes = pd.Series([10.0, 12.0, 11.0, 15.0], index=pd.bdate_range("2023-01-02", periods=4))
    drawn = chart(closes)
    points = [tuple(map(float, p.split(","))) for p in drawn.close.split()]
    assert len(points) == 4 and drawn.sma_20 == "" and (drawn.low, drawn.high) == (10.0, 15.0)
    assert points[0] == (PAD, HEIGHT - PAD) and points[3] == (WIDTH - PAD, PAD)
    assert all(PAD <= x <= WIDTH - PAD and PAD <= y <= HEIGHT - PAD for x, y in points)
