"""Where a number came from, in a form a report can cite.

A number taken from a price series cites the provider and the date of the bar it was read
from; a number taken from a statement cites its filing page. Both are plain frozen records so
they serialise to JSON as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class PriceSource:
    """A price series: which provider served it, what exactly (a file, a symbol), as of when."""

    provider: str  # "local", "stooq"
    detail: str  # "market/sample/MMM.csv", "stooq mmm.us"
    as_of: date  # the date of the last bar used

    @property
    def text(self) -> str:
        """``local (market/sample/MMM.csv), 2023-06-30``: what a table's source cell shows."""
        return f"{self.provider} ({self.detail}), {self.as_of.isoformat()}"


@dataclass(frozen=True)
class FactSource:
    """A statement fact: the page it was printed on and the period of its column."""

    uid: str  # the page's uid, what a citation points at
    doc_label: str  # "MMM 10-K FY2022"
    page_index: int  # zero-based, as `research facts` and the JSON show it
    period: str  # "FY2022", "FY2022 year-end"

    @property
    def text(self) -> str:
        """``MMM 10-K FY2022 p.48 (uid 8b39225e2b42), FY2022``: one-based page, as a report's
        Sources line prints it (``citations.markup``)."""
        return f"{self.doc_label} p.{self.page_index + 1} (uid {self.uid}), {self.period}"
