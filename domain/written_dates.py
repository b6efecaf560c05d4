"""Dates written in figures, spelled out for the period grammar's date patterns.

Apart from :mod:`domain.periods` because it rewrites text before any period is read: the
grammar then reads one way of writing a date ("June 30, 2023") rather than three.
"""

from __future__ import annotations

import re

from domain.period_patterns import DATED_MONTH_RE, MONTH_NAMES, NUMERIC_DATE_RE


def spelled_dates(text: str) -> str:
    """``text`` with each date written in figures spelled out ("6/30/2023" and "2023-06-30"
    -> "June 30, 2023"), and a filing dated by its month alone given the month's middle day
    ("dated May 2023" -> "dated May 15, 2023"), for the date patterns; figures that are no
    date stay as written."""

    def spell(m: re.Match[str]) -> str:
        if m.group("y"):
            a, b, year = int(m.group("a")), int(m.group("b")), m.group("y")
            month, day = (a, b) if a <= 12 else (b, a)
        else:
            year, month, day = m.group("iy"), int(m.group("im")), int(m.group("id"))
        if not (1 <= month <= 12 and 1 <= day <= 31):
            return m.group()
        return f"{MONTH_NAMES[month - 1]} {day}, {year}"

    spelled = NUMERIC_DATE_RE.sub(spell, text)
    return DATED_MONTH_RE.sub(lambda m: f"{m['lead']} {m['m']} 15, {m['y']}", spelled)
