"""An amount a page gives only to future payments is no figure of the year
(``programs.obligation_check``)."""

from __future__ import annotations

from cited import cited_answer
from hypothesis import given
from hypothesis import strategies as st

from programs.obligation_check import drop_future_as_actual

PAGE = (
    "As of September 25, 2031, the Company had outstanding fixed-rate notes with varying "
    "maturities for an aggregate principal amount of $118.1 billion (collectively the "
    "“Notes”), with $9.6 billion payable within 12 months. Future interest payments "
    "associated with the Notes total $39.5 billion, with $2.9 billion payable within 12 "
    "months. Interest expense was $2.6 billion."
)
PAGES = {"0a1b2c3d4e5f": PAGE}


def test_future_payments_stated_as_the_years_figure_go():
    """Apple's "interest expense in FY2021 was $39.5 billion", the notes' future interest."""
    answer = cited_answer("Acme's interest expense in FY2031 was $39.5 billion.¹ It paid.¹")
    kept, dropped = drop_future_as_actual(answer, PAGES)
    assert dropped == 1 and kept.body == "It paid.¹"


def test_amounts_of_the_year_or_said_of_the_future_stay():
    for body in (
        "Acme's interest expense in FY2031 was $2.6 billion.¹",
        # the clause of the $118.1 billion gives the future to the $9.6 billion only
        "Acme's term debt was $118.1 billion.¹",
        # the sentence itself speaks of what is to come
        "Future interest payments on the notes total $39.5 billion.¹",
        "Of the notes, $9.6 billion is payable within 12 months.¹",
    ):
        kept, dropped = drop_future_as_actual(cited_answer(body), PAGES)
        assert dropped == 0 and kept.body == body, body


def test_a_table_row_that_prints_the_amount_keeps_it():
    table = PAGE + "\nInterest expense\n39.5\n2.6\n"
    answer = cited_answer("Acme's interest expense in FY2031 was $39.5 billion.¹")
    assert drop_future_as_actual(answer, {"0a1b2c3d4e5f": table})[1] == 0


@given(st.integers(min_value=11, max_value=999).map(lambda n: f"${n / 10:.1f} billion"))
def test_whatever_the_amount(amount):
    page = f"Future minimum lease payments total {amount} as of the year end."
    answer = cited_answer(f"Acme's lease expense in FY2031 was {amount}.¹")
    assert drop_future_as_actual(answer, {"0a1b2c3d4e5f": page})[1] == 1
