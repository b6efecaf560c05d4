"""The period grammar: every written form of a cell reads back as that cell (property tests),
year-to-date periods land in their 10-Q's cell, and what is not a period stays unread."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from domain.periods import parse_cell, read_periods

ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth"}
QUARTER_END = {1: "March 31", 2: "June 30", 3: "September 30", 4: "December 31"}
QUARTER_MONTH = {1: "March", 2: "June", 3: "September", 4: "December"}
#: The quarter ends in figures: month first, as US filers write them, and ISO.
QUARTER_END_US = {1: "3/31", 2: "06/30", 3: "9/30", 4: "12/31"}
QUARTER_END_ISO = {1: "03-31", 2: "06-30", 3: "09-30", 4: "12-31"}

QUARTER_FORMS = [
    "Q{q} FY{fy}", "Q{q} of FY{fy}", "Q{q} of fiscal {fy}", "{q}Q{yy}", "{q}Q {fy}",
    "Q{q}'{yy}", "Q{q}{fy}", "FY{fy}Q{q}", "FY{fy} Q{q}", "FY{yy} Q{q}", "{fy}Q{q}",
    "{fy} Q{q}", "Q{q} {fy}", "Q{q}-{fy}", "{ordinal} quarter of {fy}",
    "the {ordinal} fiscal quarter of fiscal {fy}", "{ordinal} quarter of FY{yy}",
    "the quarter ended {end}, {fy}", "three months ended {end}, {fy}",
    "the quarter ended {month} {fy}", "the quarter ending in {month} {fy}",
    "the {month} {fy} quarter", "the {month} quarter of {fy}", "the {month} quarter {fy}",
    "Q{q} FY{pyy}/{yy}", "the quarter ended {us}/{fy}", "three months ended {fy}-{iso}",
    "{ordinal} qtr {fy}", "the {ordinal} qtr of FY{yy}",
]  # fmt: skip
YEAR_FORMS = [
    "FY{fy}", "FY{yy}", "FY {fy}", "FY'{yy}", "fiscal {fy}", "fiscal year {fy}", "{fy}",
    "'{yy}", "’{yy}", "CY{yy}", "calendar {fy}", "calendar year {fy}",
    "as of FY{fy}", "as of {fy}", "the year ended December 31, {fy}",
    "the year ended 12/31/{fy}", "the year ended {fy}-12-31",
    # one fiscal year across the two calendar years it spans: the year it ends in
    "FY{pyy}/{yy}", "FY{prev}/{yy}", "fiscal {prev}/{fy}", "{prev}/{yy}",
]  # fmt: skip
#: (form, the cell's quarter): a 10-Q reports year-to-date columns, the annual filing H2.
YEAR_TO_DATE_FORMS = [
    ("H1 FY{fy}", 2), ("1H{yy}", 2), ("the first half of FY{fy}", 2), ("H1 {fy}", 2),
    ("the six months ended June 30, {fy}", 2), ("the first six months of {fy}", 2),
    ("the nine months ended September 30, {fy}", 3), ("the first nine months of FY{fy}", 3),
    ("the second half of {fy}", 4), ("the 1st half of {fy}", 2), ("the 2nd half of FY{fy}", 4),
    ("6M {fy}", 2), ("9M{yy}", 3), ("9M FY{fy}", 3), ("the first three quarters of {fy}", 3),
    ("the first 2 quarters of FY{fy}", 2),
]  # fmt: skip
CONTEXTS = ["{p}", "What was Acme's revenue in {p}?", "Acme: gross margin ({p}), please."]

years = st.integers(2000, 2099)
quarters = st.integers(1, 4)


def _write(form: str, fy: int, fq: int = 4) -> str:
    return form.format(
        fy=fy, yy=f"{fy % 100:02d}", q=fq, ordinal=ORDINALS[fq], end=QUARTER_END[fq],
        month=QUARTER_MONTH[fq], prev=fy - 1, pyy=f"{(fy - 1) % 100:02d}",
        us=QUARTER_END_US[fq], iso=QUARTER_END_ISO[fq],
    )  # fmt: skip


@given(years, quarters, st.sampled_from(QUARTER_FORMS), st.sampled_from(CONTEXTS))
def test_a_quarter_written_any_way_reads_back_as_its_cell(fy, fq, form, context):
    assume("{pyy}" not in form or fy % 100)  # "FY99/00" reads 99 as 2099, as "FY99" does
    text = context.format(p=_write(form, fy, fq))
    found = read_periods(text)
    assert (found.fiscal_years, found.fiscal_quarters, found.invalid) == ([fy], [fq], []), text
    assert parse_cell(_write(form, fy, fq)) == (fy, fq)


@given(years, st.sampled_from(YEAR_FORMS), st.sampled_from(CONTEXTS))
def test_a_year_written_any_way_reads_back_as_its_fy_cell(fy, form, context):
    assume("{pyy}" not in form or fy % 100)
    text = context.format(p=_write(form, fy))
    found = read_periods(text)
    assert (found.fiscal_years, found.fiscal_quarters) == ([fy], []), text
    assert parse_cell(_write(form, fy)) == (fy, None)


@given(years, st.sampled_from(YEAR_TO_DATE_FORMS), st.sampled_from(CONTEXTS))
def test_year_to_date_periods_read_as_the_filing_that_reports_them(fy, form_and_cell, context):
    form, fq = form_and_cell
    text = context.format(p=_write(form, fy))
    found = read_periods(text)
    assert (found.fiscal_years, found.fiscal_quarters) == ([fy], [fq]), text


@given(st.integers(2000, 2090), st.integers(1, 8), st.sampled_from(
    ["FY{a}-FY{b}", "FY{a}\u2013FY{b}", "{a} through {b}", "between {a} and {b}", "FY{a} to FY{b}"]
))  # fmt: skip
def test_a_range_reads_as_each_year(first, span, form):
    text = "Acme's capex " + form.format(a=first, b=first + span)
    assert read_periods(text).fiscal_years == list(range(first, first + span + 1))


@given(
    st.integers(2000, 2090),
    st.integers(1, 4),
    st.integers(0, 3),
    st.sampled_from(["Q{a}-Q{b} {fy}", "Q{a} through Q{b} of FY{fy}", "FQ{a} to FQ{b} FY{fy}"]),
)
def test_a_run_of_quarters_reads_as_each_quarter(fy, first, span, form):
    last = min(first + span, 4)
    found = read_periods("Acme's revenue in " + form.format(a=first, b=last, fy=fy))
    assert (found.fiscal_years, found.fiscal_quarters) == ([fy], list(range(first, last + 1)))


@pytest.mark.parametrize(
    ("text", "trend"),
    [
        ("Is Acme's operating margin improving as of FY2022?", True),
        ("How much did revenue grow in FY2022?", True),
        ("Did debt decline in 2022?", True),
        ("Revenue year over year in FY2022", True),
        ("Revenue compared with the prior year, FY2022", True),
        ("Did Acme's margins expand in FY2022?", True),
        ("Did the cash balance drop or rise in 2022?", True),
        ("Has leverage gone down since FY2020?", True),
        ("Net income in Q2 2023 vs. the same quarter last year", True),
        ("Revenue against the year-ago quarter, Q2 2023", True),
        ("Which securities trade on a national securities exchange as of 2022?", False),
        ("What did Acme's contracts with customers earn in 2022?", False),
        ("What was revenue in FY2022?", False),
    ],
)
def test_trend_words(text, trend):
    assert read_periods(text).trend is trend


@pytest.mark.parametrize(
    ("text", "sequential"),
    [
        ("Revenue growth quarter over quarter in Q2 2023", True),
        ("Acme's QoQ revenue growth, Q3 FY2023", True),
        ("What was the sequential change in margin in Q2 2023?", True),
        ("How did Q2 2023 revenue compare with the previous quarter?", True),
        ("Revenue against the prior-year quarter, Q2 2023", False),
        ("What was revenue last quarter?", False),
        ("Did margins widen versus last quarter?", True),
        ("Revenue was up from last quarter", True),
        ("Revenue year over year in Q2 2023", False),
    ],
)
def test_a_move_from_the_quarter_before_is_sequential(text, sequential):
    found = read_periods(text)
    assert found.sequential is sequential
    assert found.trend or not sequential  # a sequential move is a trend


COUNTED_YEARS = [
    "the last {n} years", "the past {n} fiscal years", "the {n} most recent fiscal years",
    "the most recent {n} years", "the {n} latest years", "the previous {n} full years",
]  # fmt: skip
NUMBER_NAMES = {2: "two", 3: "three", 4: "four", 5: "five"}


@given(st.integers(2, 5), st.booleans(), st.sampled_from(COUNTED_YEARS), st.sampled_from(CONTEXTS))
def test_a_count_of_recent_years_reads_as_that_many(n, spelled, form, context):
    text = context.format(p=form.format(n=NUMBER_NAMES[n] if spelled else n))
    assert read_periods(text).last_n_years == n


YEARS_BACK = [
    ("last year", 0), ("last fiscal year", 0), ("the most recent fiscal year", 0),
    ("the latest full year", 0), ("a year ago", 0), ("the year before last", 1),
    ("the fiscal year before last", 1), ("{n} years ago", None), ("10 years ago", 9),
]  # fmt: skip


@given(st.sampled_from(YEARS_BACK), st.integers(2, 5), st.booleans(), st.sampled_from(CONTEXTS))
def test_a_year_counted_back_from_the_latest_reads_as_its_distance(form, n, spelled, context):
    written, back = form
    text = context.format(p=written.format(n=NUMBER_NAMES[n] if spelled else n))
    found = read_periods(text)
    assert found.years_back == [n - 1 if back is None else back]
    assert (found.fiscal_years, found.last_n_years) == ([], None)


@pytest.mark.parametrize(
    "text",
    [
        "the last three years", "this year", "the current year", "last year-end balance",
        "the prior year", "sales grew versus last quarter", "year to date",
    ],
)  # fmt: skip
def test_counts_of_years_and_other_relative_periods_are_no_year_counted_back(text):
    assert read_periods(text).years_back == []


@pytest.mark.parametrize(
    ("text", "run", "cell"),
    [
        ("What was Acme's revenue last quarter?", 1, ([], [])),
        ("Acme's margin in the most recent fiscal quarter", 1, ([], [])),
        ("Acme's revenue in the last quarter of 2022", None, ([2022], [4])),
        ("Acme's revenue in the final quarter of fiscal 2021", None, ([2021], [4])),
        ("Did Acme's margin widen versus last quarter?", None, ([], [])),  # sequential
    ],
)
def test_last_quarter_alone_is_the_latest_filed_and_with_a_year_the_fourth(text, run, cell):
    found = read_periods(text)
    assert found.last_n_quarters == run
    assert (found.fiscal_years, found.fiscal_quarters) == cell


@pytest.mark.parametrize("text", ["On 2023-13-01 revenue", "Revenue 13/45/2023", "v2.2023-06-30"])
def test_figures_that_are_no_date_are_no_range_of_years(text):
    assert len(read_periods(text).fiscal_years) <= 1


COUNTED_QUARTERS = [
    "the last {n} quarters", "the past {n} fiscal quarters", "the {n} most recent quarters",
    "the most recent {n} quarters", "the previous {n} quarters", "the {n} latest quarters",
    "the last {n} qtrs",
]  # fmt: skip


@given(
    st.integers(2, 5), st.booleans(), st.sampled_from(COUNTED_QUARTERS), st.sampled_from(CONTEXTS)
)
def test_a_count_of_recent_quarters_reads_as_that_many(n, spelled, form, context):
    found = read_periods(context.format(p=form.format(n=NUMBER_NAMES[n] if spelled else n)))
    assert (found.last_n_quarters, found.last_n_years, found.fiscal_quarters) == (n, None, [])


@pytest.mark.parametrize(
    ("text", "to_date", "quarters"),
    [
        ("Acme's revenue YTD 2023", True, []), ("year-to-date FY2023 sales", True, []),
        ("2023 year to date", True, []), ("Q2 2023 year-to-date", True, [2]),
        ("H1 FY2023", True, [2]), ("1H23", True, [2]), ("the first half of 2023", True, [2]),
        ("the six months ended June 30, 2023", True, [2]),
        ("the nine months ended September 30, 2023", True, [3]),
        # a quarter, a second half (the annual filing) and a year are not the year so far
        ("Q2 2023", False, [2]), ("H2 2023", False, [4]), ("revenue in 2023", False, []),
    ],
)  # fmt: skip
def test_the_year_so_far_is_read_with_its_quarter_if_named(text, to_date, quarters):
    found = read_periods(text)
    assert (found.year_to_date, found.fiscal_quarters) == (to_date, quarters)


def test_a_couple_of_years_is_two():
    assert read_periods("How did capex move over the last couple of years?").last_n_years == 2


@given(st.integers(2005, 2030), st.sampled_from(["FY{y}", "fiscal {y}", "{y}"]))
def test_historically_is_three_years_ending_in_the_year_named_or_the_latest(fy, form):
    asked = f"Are the gross margins historically consistent as of {form.format(y=fy)}?"
    assert read_periods(asked).fiscal_years == [fy - 2, fy - 1, fy]
    alone = read_periods("Are the gross margins historically consistent?")
    assert (alone.fiscal_years, alone.last_n_years) == ([], 3)
    counted = read_periods("Historically, over the last five years, how did margins move?")
    assert counted.last_n_years == 5  # a count the question gives wins
    # "historical cost" is an accounting basis, not a run of years
    assert read_periods(f"What was the historical cost of PP&E in FY{fy}?").fiscal_years == [fy]


def test_as_of_names_the_vantage_point_not_the_years_read_from_it():
    found = read_periods("As of FY 2021, how much did Acme expect to pay its retirees in 2024?")
    assert found.fiscal_years == [2021]


@pytest.mark.parametrize(
    "text",
    [
        "Acme's Q3 10-Q filing",
        "Q2 15% margin",
        "revenue of $2019 million",
        "a 2020% rise",
        "sales in the '90s",
        "a '22% rise",
        "the code '22' on the form",
    ],
)
def test_numbers_that_are_not_years_stay_unread(text):
    assert read_periods(text).fiscal_years == []


def test_quarters_that_cannot_exist_are_reported_not_guessed():
    assert read_periods("Acme in Q5 2022").invalid == [
        "Q5 is not a fiscal quarter (quarters are Q1-Q4)."
    ]
    assert read_periods("Acme in Q22023").invalid == []  # Q2 of 2023, glued


@pytest.mark.parametrize(
    "written", ["FY20222", "FY 20222", "fiscal 202", "FY2O22", "fiscal year 2O22"]
)
def test_a_fiscal_year_written_wrong_is_reported_not_read_as_no_period(written):
    found = read_periods(f"Acme's revenue in {written}")
    assert found.invalid == [f"{written} is not a fiscal year (write one as FY2022 or FY22)."]
    assert found.fiscal_years == []


@pytest.mark.parametrize(
    "text",
    [
        "FY2023Q1",
        "FY22/23",
        "fiscal 2022/2023",
        "FY'22",
        "FY22-23",
        "fiscal 1H23",
        "revenue of 20222",
    ],
)
def test_years_written_right_are_not_reported(text):
    assert read_periods(text).invalid == []


@pytest.mark.parametrize("text", ["", "FY2022 and FY2023", "Q1 and Q2 FY2023", "revenue"])
def test_parse_cell_wants_one_period(text):
    with pytest.raises(ValueError):
        parse_cell(text)


@pytest.mark.parametrize("text", ["Acme spent $9M 2023 on capex", "3M 2023 revenue"])
def test_a_figure_or_a_company_written_like_months_to_date_is_no_period(text):
    found = read_periods(text)
    assert (found.fiscal_years, found.fiscal_quarters, found.year_to_date) == ([2023], [], False)


@pytest.mark.parametrize(
    ("text", "trailing"),
    [
        ("Acme's free cash flow TTM", True), ("Acme's LTM EBITDA", True),
        ("Acme's revenue over the last 12 months", True),
        ("Acme's revenue for the trailing twelve months", True),
        ("Acme's revenue for the twelve months ended December 31, 2022", False),  # a year
        ("Acme's revenue over the last four quarters", False),  # a run of quarters
    ],
)  # fmt: skip
def test_the_trailing_twelve_months_are_told_from_a_year_and_a_run(text, trailing):
    assert read_periods(text).trailing is trailing
