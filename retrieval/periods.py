"""Reading fiscal years and quarters as people write them (FY2018, FY18, Q3, 3)."""

from __future__ import annotations

import re

_FY = re.compile(r"^\s*(?:fy|fiscal(?:\s+year)?)?\s*'?(\d{4}|\d{2})\s*$", re.IGNORECASE)
_FQ = re.compile(r"^\s*(?:q|fq|quarter\s*)?([1-4])\s*$", re.IGNORECASE)


def parse_fy(value: str | int) -> int:
    """``FY2018``, ``fiscal 2018``, ``FY18``, ``2018`` → 2018."""
    match = _FY.match(str(value))
    if not match:
        raise ValueError(f"cannot read a fiscal year from {value!r} (try FY2018 or 2018)")
    year = match.group(1)
    return int("20" + year) if len(year) == 2 else int(year)


def parse_fq(value: str | int) -> int:
    """``Q3``, ``FQ3``, ``3`` → 3."""
    match = _FQ.match(str(value))
    if not match:
        raise ValueError(f"cannot read a fiscal quarter from {value!r} (use Q1..Q4)")
    return int(match.group(1))
