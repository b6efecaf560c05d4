"""An amount copied from a table keeps the table's scale (``programs.page_scale``)."""

from __future__ import annotations

from cited import cited_answer
from hypothesis import given
from hypothesis import strategies as st

from programs.page_scale import with_page_scale

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
