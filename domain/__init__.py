"""Wissen Research: the domain — the grid cell ``{ticker, FY, FQ}``, the fiscal period and
the one grammar that reads periods as people write them.

Plain values with no I/O; every other package may import them and none defines its own.
"""

from domain.cells import SliceRef
from domain.periods import Period, Periods, parse_cell, parse_fq, parse_fy, read_periods

__all__ = ["Period", "Periods", "SliceRef", "parse_cell", "parse_fq", "parse_fy", "read_periods"]
