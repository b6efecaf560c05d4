"""The providers: local files (CSV, Parquet, and the ways they go wrong) and Stooq served
from a local HTTP server with a recorded-format response; no network."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pandas as pd
import pytest

from market.bars import COLUMNS
from market.errors import PriceDataError, ProviderUnavailableError
from market.local import SAMPLE_DIR, LocalFileProvider
from market.provider import PriceProvider
from market.providers import make_provider
from market.stooq import StooqProvider

FIXTURES = Path(__file__).parent / "fixtures" / "market"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# -- local files ---------------------------------------------------------------------------


def test_both_providers_satisfy_the_protocol():
    assert isinstance(LocalFileProvider(), PriceProvider)
    assert isinstance(StooqProvider(base_url="http://127.0.0.1:9/"), PriceProvider)


def test_the_sample_is_the_default_and_is_typed():
    provider = make_provider()
    assert isinstance(provider, LocalFileProvider) and provider.is_sample
    bars = provider.daily_bars("mmm")
    assert tuple(bars.columns) == COLUMNS and len(bars) == 390
    assert str(bars["date"].dtype) == "datetime64[ns]" and bars["date"].is_monotonic_increasing
    assert bars["close"].dtype == float and provider.describe("MMM") == "market/sample/MMM.csv"
    assert {"MMM", "PEP"} <= set(provider.tickers())
    assert (SAMPLE_DIR / "README.md").read_text().count("SYNTHETIC") >= 1


def test_date_range_is_inclusive(tmp_path):
    bars = LocalFileProvider().daily_bars("PEP", date(2023, 6, 1), date(2023, 6, 2))
    assert [d.date().isoformat() for d in bars["date"]] == ["2023-06-01", "2023-06-02"]


def test_parquet_and_any_column_case_and_order(tmp_path):
    frame = pd.DataFrame(
        {
            "Volume": [10, 20],
            "Close": [2.0, 1.0],
            "Date": ["2023-01-04", "2023-01-03"],
            "Open": [1, 1],
            "High": [2, 2],
            "Low": [1, 1],
        }
    )
    frame.to_parquet(tmp_path / "abc.parquet")
    bars = LocalFileProvider(tmp_path).daily_bars("ABC")
    assert bars["close"].tolist() == [1.0, 2.0]  # sorted by date


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("X.csv", "", "X.csv: the file is empty"),
        ("X.csv", "date,open,high,low,close\n2023-01-03,1,1,1,1\n", "missing column volume"),
        ("X.csv", "date,open,high,low,close,volume\n", "X.csv: no price rows"),
        ("X.csv", "date,open,high,low,close,volume\nsoon,1,1,1,1,1\n", "date that cannot be read"),
        ("X.csv", "date,open,high,low,close,volume\n2023-01-03,1,1,1,0,1\n", "no positive close"),
        (
            "X.csv",
            "date,open,high,low,close,volume\n2023-01-03,1,1,1,1,1\n2023-01-03,1,1,1,1,1\n",
            "2023-01-03 appears more than once",
        ),
        ("X.csv", 'date,open\n"2023-01-03,1\n', "X.csv"),
        ("X.parquet", "not parquet", "cannot be read as a price table"),
    ],
)
def test_malformed_files_are_clear_errors(tmp_path, name, text, message):
    write(tmp_path, name, text)
    with pytest.raises(PriceDataError, match=message.replace("(", r"\(")):
        LocalFileProvider(tmp_path).daily_bars("X")


def test_non_number_names_row_and_value():
    with pytest.raises(PriceDataError, match="row 2 has a close that is not a number: 'abc'"):
        LocalFileProvider(FIXTURES).daily_bars("malformed")


def test_unknown_ticker_lists_what_the_folder_holds(tmp_path):
    with pytest.raises(PriceDataError, match=r"no price file for NOPE .*it has MMM, PEP"):
        LocalFileProvider().daily_bars("NOPE")
    with pytest.raises(PriceDataError, match="does not exist"):
        LocalFileProvider(tmp_path / "missing").daily_bars("MMM")
    with pytest.raises(PriceDataError, match="not a ticker symbol"):
        LocalFileProvider().daily_bars("../etc/passwd")


def test_a_range_without_bars_is_an_error():
    with pytest.raises(PriceDataError, match="no prices between 2030-01-01"):
        LocalFileProvider().daily_bars("MMM", start=date(2030, 1, 1))


def test_unknown_provider_names_the_choices():
    with pytest.raises(ValueError, match="providers: local, stooq"):
        make_provider("bloomberg")


# -- Stooq from a local server -------------------------------------------------------------


class Stooq:
    """A local stand-in for stooq.com's download endpoint; ``mode`` picks its answer."""

    def __init__(self) -> None:
        self.mode = "csv"
        self.requests: list[dict[str, list[str]]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                url = urlparse(self.path)
                query = parse_qs(url.query)
                owner.requests.append({"path": [url.path], **query})
                status, kind, body = owner.answer(query)
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:  # quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/q/d/l/"

    def answer(self, query: dict[str, list[str]]) -> tuple[int, str, bytes]:
        if self.mode == "500":
            return 500, "text/plain", b"server error"
        if self.mode == "html":
            return 200, "text/html", (FIXTURES / "stooq_challenge.html").read_bytes()
        if query.get("s") != ["mmm.us"]:
            return 200, "text/plain", b"No data"
        return 200, "text/csv", (FIXTURES / "stooq_mmm_us.csv").read_bytes()


@pytest.fixture
def stooq() -> Iterator[Stooq]:
    server = Stooq()
    thread = threading.Thread(target=server.server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.server.shutdown()
    server.server.server_close()


def test_stooq_reads_the_recorded_csv(stooq):
    provider = StooqProvider(base_url=stooq.url, api_key="")
    bars = provider.daily_bars("MMM", date(2022, 1, 1), date(2022, 3, 31))
    assert tuple(bars.columns) == COLUMNS and len(bars) == 60
    assert bars["close"].iloc[0] == 146.27 and bars["date"].iloc[0] == pd.Timestamp("2022-01-03")
    assert stooq.requests[0]["s"] == ["mmm.us"] and stooq.requests[0]["i"] == ["d"]
    assert stooq.requests[0]["d1"] == ["20220101"] and stooq.requests[0]["d2"] == ["20220331"]
    assert "apikey" not in stooq.requests[0]
    assert provider.describe("MMM") == f"mmm.us from {stooq.url}"


def test_stooq_base_url_and_key_from_the_environment(stooq, monkeypatch):
    monkeypatch.setenv("WISSEN_STOOQ_URL", stooq.url)
    monkeypatch.setenv("WISSEN_STOOQ_APIKEY", "k123")
    bars = make_provider("stooq").daily_bars("MMM")
    assert len(bars) == 60 and stooq.requests[0]["apikey"] == ["k123"]


def test_stooq_no_data_is_a_data_error(stooq):
    with pytest.raises(PriceDataError, match=r"stooq has no data for nope\.us"):
        StooqProvider(base_url=stooq.url).daily_bars("NOPE")


def test_stooq_html_page_is_a_provider_error(stooq):
    stooq.mode = "html"
    with pytest.raises(ProviderUnavailableError, match="web page, not CSV"):
        StooqProvider(base_url=stooq.url).daily_bars("MMM")


def test_stooq_http_error(stooq):
    stooq.mode = "500"
    with pytest.raises(ProviderUnavailableError, match="stooq answered HTTP 500"):
        StooqProvider(base_url=stooq.url).daily_bars("MMM")


def test_stooq_unreachable_server_is_a_clear_error():
    with socket.socket() as sock:  # a port that was free a moment ago: nothing listens
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    provider = StooqProvider(base_url=f"http://127.0.0.1:{port}/q/d/l/", timeout_s=2)
    with pytest.raises(ProviderUnavailableError, match=rf"stooq is unreachable at .*:{port}"):
        provider.daily_bars("MMM")


def test_stooq_symbols():
    assert StooqProvider.symbol("MMM") == "mmm.us"
    assert StooqProvider.symbol("7203.JP") == "7203.jp"
