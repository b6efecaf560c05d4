"""Quarters written each with its own year are those cells (``domain.quarter_pairs``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.periods import read_periods
from domain.quarter_pairs import paired_cells


@pytest.mark.parametrize(
    ("question", "cells"),
    [
        ("Has Intel's gross margin improved in Q1 of FY2023 compared with Q4 of FY2022?",
         [(2022, 4), (2023, 1)]),
        ("Compare revenue in Q3 FY2022, Q1 FY2023 and Q2 FY2023.",
         [(2022, 3), (2023, 1), (2023, 2)]),
        # one quarter of two years: every year with it, as the planner always read it
        ("Did revenue grow in Q2 of FY2023 compared to Q2 of FY2022?", []),
        # a quarter or a year written alone: not every cell is a pair
        ("What was revenue in Q1 and Q2 of FY2023?", []),
        ("How did Q1 FY2023 compare with FY2022?", []),
        # the year so far is a 10-Q's year-to-date column, not a quarter of its own
        ("Compare the first half of 2023 with Q4 of FY2022.", []),
        # a year written as its end is its last cell, beside another year's quarter
        ("Did cash increase between the end of FY2022 and the end of Q2 FY2023?",
         [(2022, 4), (2023, 2)]),
        ("How did debt change from year-end 2022 to Q1 2023?", [(2022, 4), (2023, 1)]),
        ("How did cash at the close of fiscal 2022 compare with Q3 of fiscal 2023?",
         [(2022, 4), (2023, 3)]),
        # the end of a year whose own quarter is written: that quarter, as before
        ("Was revenue in Q2 FY2023 above Q2 FY2022, as of the end of FY2023?", []),
        ("What was cash at the end of FY2022?", []),
    ],
)  # fmt: skip
def test_pairs_are_the_cells_asked_when_their_quarters_differ(question, cells):
    assert paired_cells(read_periods(question)) == cells


@given(
    st.lists(
        st.tuples(st.integers(2015, 2024), st.integers(1, 4)), min_size=2, max_size=4, unique=True
    )
)
def test_any_quarters_written_with_their_years_are_read_back(pairs):
    text = "Compare revenue in " + ", ".join(f"Q{q} of FY{y}" for y, q in pairs) + "."
    found = paired_cells(read_periods(text))
    distinct = len({q for _, q in pairs}) > 1
    assert found == (sorted(pairs) if distinct else [])


@given(st.integers(2015, 2023), st.integers(1, 3), st.sampled_from(["end of", "close of"]))
def test_a_year_end_beside_a_later_quarter_is_that_years_last_cell(year, quarter, end):
    text = f"How did cash move from the {end} FY{year} to Q{quarter} FY{year + 1}?"
    assert paired_cells(read_periods(text)) == [(year, 4), (year + 1, quarter)]
