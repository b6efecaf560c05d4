"""Prices from files on disk: the offline default.

One file per ticker in one folder, ``TICKER.csv`` or ``TICKER.parquet`` (columns ``date, open,
high, low, close, volume``; the name is matched without regard to case). The folder is
``--prices-dir``, else ``$WISSEN_PRICES_DIR``, else the synthetic sample bundled in
``market/sample/`` so the command has something to show on a fresh checkout.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pandas as pd

from market.bars import between, normalise_bars
from market.errors import PriceDataError

#: The bundled sample folder (synthetic prices: see its README).
SAMPLE_DIR = Path(__file__).resolve().parent / "sample"
_SUFFIXES = (".csv", ".parquet")
# A ticker is used as a file name: no separators, no "..", nothing a shell would read.
_TICKER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.\-]{0,14}$")


def check_ticker(ticker: str) -> str:
    """``ticker`` upper-cased, or a :class:`PriceDataError` if it could not be a symbol."""
    cleaned = ticker.strip()
    if not _TICKER.match(cleaned) or ".." in cleaned:
        raise PriceDataError(f"{ticker!r} is not a ticker symbol (letters, digits, '.', '-')")
    return cleaned.upper()


class LocalFileProvider:
    """Reads ``<folder>/<TICKER>.csv`` or ``.parquet``."""

    name = "local"

    def __init__(self, folder: Path | str | None = None) -> None:
        self.folder = Path(folder).expanduser() if folder else SAMPLE_DIR

    @property
    def is_sample(self) -> bool:
        """Whether this reads the bundled synthetic sample (the command says so)."""
        return self.folder.resolve() == SAMPLE_DIR

    def path_for(self, ticker: str) -> Path:
        """The file holding ``ticker``'s bars; a :class:`PriceDataError` listing the tickers
        the folder does hold when there is none."""
        symbol = check_ticker(ticker)
        if not self.folder.is_dir():
            raise PriceDataError(f"price folder {self.folder} does not exist")
        for path in sorted(self.folder.iterdir()):
            if path.suffix.lower() in _SUFFIXES and path.stem.upper() == symbol:
                return path
        held = self.tickers()
        listed = f"; it has {', '.join(held)}" if held else "; it holds no .csv or .parquet files"
        raise PriceDataError(f"no price file for {symbol} in {self.folder}{listed}")

    def tickers(self) -> list[str]:
        """The tickers the folder has a file for."""
        if not self.folder.is_dir():
            return []
        return sorted(
            {p.stem.upper() for p in self.folder.iterdir() if p.suffix.lower() in _SUFFIXES}
        )

    def describe(self, ticker: str) -> str:
        path = self.path_for(ticker)
        return str(path.relative_to(SAMPLE_DIR.parent.parent)) if self.is_sample else str(path)

    def daily_bars(
        self, ticker: str, start: date | None = None, end: date | None = None
    ) -> pd.DataFrame:
        path = self.path_for(ticker)
        frame = _read(path)
        bars = between(normalise_bars(frame, path.name), start, end)
        if bars.empty:
            raise PriceDataError(f"{path.name}: no prices between {_span(start, end)}")
        return bars


def _read(path: Path) -> pd.DataFrame:
    """The file's table as read, or a :class:`PriceDataError` saying why it cannot be."""
    try:
        if path.suffix.lower() == ".parquet":
            return pd.read_parquet(path)
        return pd.read_csv(path, dtype=str, skipinitialspace=True)
    except pd.errors.EmptyDataError:
        raise PriceDataError(f"{path.name}: the file is empty") from None
    except (pd.errors.ParserError, UnicodeDecodeError, ValueError, OSError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise PriceDataError(f"{path.name}: cannot be read as a price table ({first})") from None


def _span(start: date | None, end: date | None) -> str:
    return f"{start.isoformat() if start else 'the first bar'} and {end or 'the last bar'}"
