"""An amount copied from a table keeps the table's scale (``programs.page_scale``)."""

from __future__ import annotations

from cited import cited_answer
from hypothesis import given
from hypothesis import strategies as st

from programs.page_scale import drop_unit_swaps, with_page_scale

PAGE = (
    "The following table sets forth selected balance sheet data (in millions, except "
    "remaining performance obligation, which is presented in billions):\n"
    "Total principal outstanding 10,682 10,592\nDiluted net income per share $ 0.21"
)
PAGES = {"0a1b2c3d4e5f": PAGE}


def test_an_amount_from_a_table_in_millions_gets_million():
    """Salesforce's debt: "$10,682" of a table in millions is $10.7 billion."""
    answer = cited_answer("Yes, it has debt.¹ The total principal outstanding is $10,682.¹")
    scaled, edits = with_page_scale(answer, PAGES)
    assert edits == 1
    assert scaled.body == "Yes, it has debt.¹ The total principal outstanding is $10,682 million.¹"


def test_what_already_has_its_unit_or_is_per_share_stays():
    for text in (
        "The total principal outstanding is $10,682 million.¹",
        "The total principal outstanding is $10.7 billion.¹",
        "Diluted net income per share was $0.21.¹",
        "It paid $0.21 per share.¹",
        "The total principal outstanding is $10,000.¹",  # not printed on the page
    ):
        answer = cited_answer(text)
        assert with_page_scale(answer, PAGES) == (answer, 0), text
    # a page of two scales says nothing of which one an amount is in
    mixed = {"0a1b2c3d4e5f": PAGE + "\n(in thousands)"}
    answer = cited_answer("The total principal outstanding is $10,682.¹")
    assert with_page_scale(answer, mixed) == (answer, 0)


@given(st.integers(min_value=100, max_value=999_999))
def test_any_printed_amount_takes_the_pages_scale(amount):
    page = {"0a1b2c3d4e5f": f"(in thousands)\nRevenue {amount:,}"}
    scaled, edits = with_page_scale(cited_answer(f"Revenue was ${amount:,}.¹"), page)
    assert edits == 1 and scaled.body == f"Revenue was ${amount:,} thousand.¹"


DEBT_PAGE = (
    "(in millions)\nFirst mortgage bonds 500 500\nAt December 31, 2021, the contractual "
    "LIBOR-based interest rate on $500 million of the first mortgage bonds was 1.69%."
)


def test_a_percentage_stated_as_dollars_goes():
    """PG&E's "paid $1.69 million in interest" was a bond's 1.69% rate."""
    pages = {"0a1b2c3d4e5f": DEBT_PAGE}
    answer = cited_answer("Yes, it paid interest. PG&E paid $1.69 million in interest in FY2022.¹")
    kept, dropped = drop_unit_swaps(answer, pages)
    assert dropped == 1 and "$1.69" not in kept.body
    # the rate as a rate, and an amount the page prints as one, stay
    for text in (
        "The rate on the bonds was 1.69%.¹",
        "The bonds' principal was $500 million.¹",
        "PG&E paid $2.75 million.¹",  # printed nowhere: another check's
    ):
        answer = cited_answer(text)
        assert drop_unit_swaps(answer, pages) == (answer, 0), text
