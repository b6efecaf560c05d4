"""A ratio a draft states is printed on its cited pages or computed by code
(``programs.ratio_check``)."""

from __future__ import annotations

from cited import cited_answer
from hypothesis import given
from hypothesis import strategies as st

from programs.ratio_check import drop_unprinted_ratios

# Boston Properties' reconciliation of net operating income: no debt, no equity, no 3.47.
PAGE = (
    "The following is a reconciliation of Net Operating Income to net income (in thousands):"
    "\nNet Operating Income $ 1,563,931 $ 1,507,156\nInterest and other income 6,777 8,765"
    "\nRatio of earnings to fixed charges 2.47 2.43"
)
PAGES = {"0a1b2c3d4e5f": PAGE}


def test_a_ratio_no_cited_page_prints_goes():
    answer = cited_answer(
        "The debt-to-equity ratio for Acme in FY2015 was 3.47.¹ Net operating income was "
        "$1,563,931 thousand.¹"
    )
    kept, dropped = drop_unprinted_ratios(answer, PAGES)
    assert dropped == 1 and kept.body == "Net operating income was $1,563,931 thousand.¹"


def test_a_ratio_printed_or_computed_by_code_stays():
    printed = cited_answer("The ratio of earnings to fixed charges was 2.47.¹")
    assert drop_unprinted_ratios(printed, PAGES) == (printed, 0)
    computed = cited_answer("The debt-to-equity ratio was 3.47.¹")
    assert drop_unprinted_ratios(computed, PAGES, [3.4712]) == (computed, 0)
    # printed as written: eBay's "1,745" (in millions) is no quick ratio of 1.75
    quick = cited_answer("eBay had a quick ratio of 1.75.¹")
    assert drop_unprinted_ratios(quick, {"0a1b2c3d4e5f": "Short-term investments $ 1,745"})[1] == 1
    # amounts, percentages and counts are other checks' business
    for text in ("Interest income was $6.8 million.¹", "It rose 3.47%.¹", "It has 47 stores.¹"):
        answer = cited_answer(text)
        assert drop_unprinted_ratios(answer, PAGES) == (answer, 0)


@given(st.floats(min_value=0.05, max_value=50).map(lambda v: round(v, 2)))
def test_any_unprinted_ratio_goes_and_code_keeps_its_own(value):
    pages = {"0a1b2c3d4e5f": f"Ratio of earnings to fixed charges {value + 0.02:.2f}"}
    answer = cited_answer(f"The quick ratio was {value:.2f}.¹")
    assert drop_unprinted_ratios(answer, pages)[1] == 1
    assert drop_unprinted_ratios(answer, pages, [value])[1] == 0
