"""`research prices` end to end with typer's runner: the sample, JSON, Stooq from a local
server, and bad input as one line and exit code 2."""

from __future__ import annotations

import json
import shutil
import socket
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.app import app
from market.local import SAMPLE_DIR
from tests.test_market_providers import FIXTURES, Stooq

runner = CliRunner()


def prices(*args, store):
    return runner.invoke(app, ["prices", *args, "--store", str(store)])


def one_error_line(result, text):
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and text in lines[0], lines


@pytest.fixture(autouse=True)
def no_price_settings(monkeypatch):
    for name in ("WISSEN_PRICES_DIR", "WISSEN_PRICE_PROVIDER", "WISSEN_STOOQ_URL"):
        monkeypatch.delenv(name, raising=False)


def test_table_shows_indicators_and_cited_multiples(sample_store_path):
    result = prices("MMM", store=sample_store_path)
    assert result.exit_code == 0, result.output
    out = result.stdout
    for text in ("Last close", "87.32", "RSI 14", "Volatility 30d", "SMA 50d", "Return 1Y"):
        assert text in out
    assert "local (market/sample/MMM.csv)" in out and "2023-06-30" in out
    assert "8.58x" in out and "MMM 10-K FY2022 p.48 (uid " in out and "EV/EBITDA" in out
    assert "SYNTHETIC" in result.stderr


def test_json_has_every_number_and_its_source(sample_store_path):
    result = prices("pep", "--json", store=sample_store_path)
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["ticker"] == "PEP" and record["synthetic_sample"] is True
    indicators = {i["key"]: i for i in record["indicators"]}
    assert indicators["last_close"]["value"] == 228.34
    assert indicators["last_close"]["source"] == {
        "provider": "local",
        "detail": "market/sample/PEP.csv",
        "as_of": "2023-06-30",
    }
    multiples = {m["key"]: m for m in record["multiples"]}
    assert multiples["pe"]["value"] == pytest.approx(228.34 / 6.42)
    eps = multiples["pe"]["inputs"][1]
    assert eps["name"] == "diluted_eps" and eps["source"]["doc_label"] == "PEP 10-K FY2022"
    assert eps["source"]["period"] == "FY2022" and len(eps["source"]["uid"]) == 12


def test_since_shortens_the_series_and_says_what_is_absent(sample_store_path):
    result = prices("MMM", "--since", "2023-06-01", "--json", store=sample_store_path)
    assert result.exit_code == 0, result.output
    indicators = {i["key"]: i for i in json.loads(result.stdout)["indicators"]}
    assert indicators["return_1y"]["value"] is None
    assert "starts 2023-06-01" in indicators["return_1y"]["reason"]
    assert indicators["sma_50"]["value"] is None and indicators["sma_20"]["value"] is not None


def test_a_ticker_outside_the_grid_gets_prices_and_absent_multiples(tmp_path, sample_store_path):
    shutil.copy(SAMPLE_DIR / "MMM.csv", tmp_path / "ZZZ.csv")
    result = prices("ZZZ", "--prices-dir", str(tmp_path), store=sample_store_path)
    assert result.exit_code == 0, result.output
    assert "absent: the grid has no statement facts for ZZZ" in result.stdout
    assert "SYNTHETIC" not in result.stderr


def test_prices_dir_from_the_environment(tmp_path, sample_store_path, monkeypatch):
    shutil.copy(SAMPLE_DIR / "PEP.csv", tmp_path / "QQQ.csv")
    monkeypatch.setenv("WISSEN_PRICES_DIR", str(tmp_path))
    assert prices("QQQ", "--json", store=sample_store_path).exit_code == 0


def test_unknown_ticker_file(sample_store_path):
    one_error_line(prices("NOPE", store=sample_store_path), "no price file for NOPE")


def test_malformed_csv(sample_store_path):
    result = prices("malformed", "--prices-dir", str(FIXTURES), store=sample_store_path)
    one_error_line(result, "malformed.csv: row 2 has a close that is not a number")


def test_empty_series(tmp_path, sample_store_path):
    (tmp_path / "E.csv").write_text("date,open,high,low,close,volume\n", encoding="utf-8")
    result = prices("E", "--prices-dir", str(tmp_path), store=sample_store_path)
    one_error_line(result, "E.csv: no price rows")
    result = prices("MMM", "--since", "2030-01-01", store=sample_store_path)
    one_error_line(result, "no prices between 2030-01-01")


def test_bad_options(sample_store_path):
    one_error_line(prices("MMM", "--since", "June", store=sample_store_path), "is not a date")
    result = prices("MMM", "--provider", "bloomberg", store=sample_store_path)
    one_error_line(result, "unknown price provider 'bloomberg'; providers: local, stooq")


def test_provider_down(sample_store_path, monkeypatch):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("WISSEN_STOOQ_URL", f"http://127.0.0.1:{port}/q/d/l/")
    result = prices("MMM", "--provider", "stooq", store=sample_store_path)
    one_error_line(result, "stooq is unreachable")


def test_stooq_end_to_end_from_a_local_server(sample_store_path, monkeypatch):
    server = Stooq()
    thread = threading.Thread(target=server.server.serve_forever, daemon=True)
    thread.start()
    try:
        monkeypatch.setenv("WISSEN_STOOQ_URL", server.url)
        monkeypatch.setenv("WISSEN_PRICE_PROVIDER", "stooq")
        result = prices("MMM", "--json", store=sample_store_path)
        assert result.exit_code == 0, result.output
        record = json.loads(result.stdout)
        close = record["indicators"][0]
        assert close["source"]["provider"] == "stooq" and close["source"]["as_of"] == "2022-03-25"
        assert close["source"]["detail"] == f"mmm.us from {server.url}"
        assert record["synthetic_sample"] is False
        # prices from early 2022: the statements before 2022 are FY2021's
        assert {m["fiscal_year"] for m in record["multiples"]} == {2021}
        server.mode = "html"
        one_error_line(prices("MMM", store=sample_store_path), "web page, not CSV")
    finally:
        server.server.shutdown()
        server.server.server_close()


def test_help_lists_the_options():
    result = runner.invoke(app, ["prices", "--help"])
    assert result.exit_code == 0
    for option in ("--provider", "--prices-dir", "--since", "--store", "--json"):
        assert option in result.stdout


def test_sample_folder_is_documented():
    assert (Path(SAMPLE_DIR) / "README.md").exists()
