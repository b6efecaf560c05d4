"""A fiscal year later than every cited filing's own is removed (``programs.period_check``)."""

from __future__ import annotations

from cited import cited_answer
from hypothesis import given
from hypothesis import strategies as st

from programs.period_check import drop_later_years, fiscal_years_named

YEARS = {"0a1b2c3d4e5f": 2030}


def test_the_questions_year_on_an_earlier_filings_finding_goes():
    answer = cited_answer("Gross margin decreased in FY2031 due to gasoline prices.¹ Sales rose.¹")
    kept, dropped = drop_later_years(answer, YEARS)
    assert dropped == 1 and kept.body == "Sales rose.¹"


def test_the_filings_own_years_an_outlook_and_dates_stay():
    for body in [
        "Gross margin decreased in fiscal 2030.¹",
        "Gross margin rose in FY2029 and fell in FY30.¹",
        "Acme expects FY2031 capital spending of about $2 billion.¹",  # an outlook
        "Capex in FY2030 and FY2031 compared as follows: FY2030 was $5 million.¹",  # an echo
        "In February 2031, the Board declared a dividend.¹",  # a date, not a fiscal year
    ]:
        answer = cited_answer(body)
        assert drop_later_years(answer, YEARS) == (answer, 0), body
    web = cited_answer("Gross margin decreased in FY2031.¹")
    assert drop_later_years(web, {}) == (web, 0)  # a page without a fiscal year


def test_fiscal_years_are_read_in_their_written_forms():
    assert fiscal_years_named("FY23, fiscal 2024, fiscal year 2025 and FY 2026") == [
        2023,
        2024,
        2025,
        2026,
    ]
    assert fiscal_years_named("In 2031 and on June 30, 2031") == []


@given(st.integers(2001, 2040), st.integers(-3, 3))
def test_a_sentence_goes_exactly_when_its_fiscal_year_is_after_the_pages(page_year, offset):
    named = page_year + offset
    answer = cited_answer(f"Revenue fell in FY{named}.¹")
    kept, dropped = drop_later_years(answer, {"0a1b2c3d4e5f": page_year})
    assert dropped == (1 if offset > 0 else 0)
    assert (kept.body == "") == (offset > 0)
