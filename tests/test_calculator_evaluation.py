"""Computing formulas over a slice's facts: values, signs, units, refusals, rendering."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import calculate
from calculator.errors import CalculationError, MissingInputError
from calculator.resolution import FactResolver
from domain.periods import Period
from tests.calculator_facts import contoso, fact

FY = Period(2021)
M = 1e6


def value(formula: str, facts=None, **kwargs) -> float:
    return calculate(formula, facts if facts is not None else contoso(), FY, **kwargs).value


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ("gross_margin", (1200 - 700) / 1200),  # gross profit not printed: revenue - cost
        ("operating_margin", 240 / 1200),
        ("net_margin", 170 / 1200),
        ("ebitda", (240 + 60) * M),
        ("ebitda_margin", 300 / 1200),
        ("revenue_growth", 1200 / 1000 - 1),
        ("capex_to_revenue", 90 / 1200),
        ("free_cash_flow", (300 - 90) * M),
        ("cfo_margin", 300 / 1200),
        ("fcf_margin", 210 / 1200),
        ("fcf_conversion", 210 / 170),
        ("working_capital", (520 - 400) * M),
        ("current_ratio", 520 / 400),
        ("quick_ratio", (150 + 200) / 400),  # cash + receivables: no securities printed
        ("operating_cash_flow_ratio", 300 / 400),
        ("inventory_turnover", 700 / 120),
        ("fixed_asset_turnover", 1200 / 780),
        ("asset_turnover", 1200 / 1900),
        ("dio", 365 * 120 / 700),
        ("dso", 365 * 190 / 1200),
        ("dpo", 365 * 80 / 700),
        ("cash_conversion_cycle", 365 * 120 / 700 + 365 * 190 / 1200 - 365 * 80 / 700),
        ("roa", 170 / 1900),
        ("roe", 170 / 950),
        ("dividend_payout", 68 / 170),
        ("retention_ratio", 1 - 68 / 170),
        ("interest_coverage", 240 / 20),
        ("debt_to_equity", 500 / 1000),
        ("net_debt", (500 - 150) * M),
        ("cash_and_investments", 150 * M),  # no short-term investments printed: none held
        ("debt_to_ebitda", 500 / 300),
        ("net_debt_to_ebitda", 350 / 300),
        ("debt_to_assets", 500 / 2000),
        ("effective_tax_rate", 44 / 220),
        (
            "avg(capex_to_revenue[FY2019], capex_to_revenue[FY2020], capex_to_revenue)",
            (70 / 900 + 80 / 1000 + 90 / 1200) / 3,
        ),
        ("(revenue[FY2021] / revenue[FY2019]) ** (1 / 2) - 1", math.sqrt(1200 / 900) - 1),
        ("capex[FY2021] / revenue[FY2021]", -90 / 1200),
        ("diluted_eps * diluted_shares", 170 * M),
    ],
)
def test_named_metrics_and_formulas(formula, expected):
    assert value(formula) == pytest.approx(expected, rel=1e-12)


def test_units():
    facts = contoso()
    assert calculate("revenue", facts, FY).unit == "USD"
    assert calculate("operating_margin", facts, FY).unit == "ratio"
    assert calculate("dpo", facts, FY).unit == "days"
    assert calculate("revenue / diluted_shares", facts, FY).unit == "USD/share"
    with pytest.raises(CalculationError, match="cannot add shares to USD"):
        calculate("revenue + diluted_shares", facts, FY)


def test_missing_inputs_are_all_named_and_never_guessed():
    with pytest.raises(MissingInputError) as caught:
        calculate("capex[FY2018] / revenue[FY2018] + cfo[FY2018]", contoso(), FY)
    assert caught.value.missing == [
        "capex FY2018 (the slice has capex for FY2019, FY2020, FY2021)",
        "revenue FY2018 (the slice has revenue for FY2019, FY2020, FY2021)",
        "cfo FY2018 (the slice has cfo for FY2020, FY2021)",
    ]
    with pytest.raises(MissingInputError, match="the slice has no buybacks facts"):
        calculate("abs(buybacks)", contoso(), FY)


def test_division_by_zero_is_a_message():
    facts = [*contoso(), fact("rnd", 2021, 0.0)]
    with pytest.raises(CalculationError, match=r"division by zero: rnd\[FY2021\] is 0"):
        calculate("revenue / rnd", facts, FY)


def test_substitute_is_noted():
    facts = [f for f in contoso() if f.concept != "net_income_attributable"]
    result = calculate("net_margin", facts, FY)
    assert result.value == pytest.approx(176 / 1200)
    assert result.notes == ("net income attributable to shareholders FY2021: read as net_income",)
    assert result.formula_line() == result.render()  # the stand-in's input is rendered by name


def test_costs_of_products_and_services_stand_in_for_an_unprinted_total():
    """A company that costs products and services on two rows and prints no total (nor any
    gross profit) still has a gross margin: both stand-ins are used, and both are noted."""
    facts = [f for f in contoso() if f.concept != "cost_of_revenue"]
    # printed in parentheses, as Boeing prints them: a cost's sign is presentation
    facts += [fact("cost_of_products", 2021, -500 * M), fact("cost_of_services", 2021, -200 * M)]
    result = calculate("gross_margin", facts, FY)
    assert result.value == pytest.approx((1200 - 700) / 1200)
    assert result.notes == (
        "gross profit FY2021: read as revenue - abs(cost_of_revenue)",
        "cost of revenue FY2021: read as abs(cost_of_products) + abs(cost_of_services)",
    )
    assert {f.concept for f in result.inputs} == {"revenue", "cost_of_products", "cost_of_services"}
    assert result.render() == (
        "Gross margin = (revenue¹ − (|cost of products¹| + |cost of services¹|)) ÷ revenue¹"
    )
    with pytest.raises(MissingInputError, match="gross_profit"):  # one row alone is no total
        calculate("gross_margin", facts[:-1], FY)


def test_sales_and_marketing_and_g_and_a_stand_in_for_an_unprinted_sga():
    """A company that prints sales and marketing and general and administrative expenses
    on two rows and no SG&A line has an SG&A: their sum, noted; one row alone is none."""
    facts = [f for f in contoso() if f.concept != "sga"]
    facts += [fact("sales_marketing", 2021, -150 * M), fact("general_administrative", 2021, 90 * M)]
    result = calculate("sga / revenue", facts, FY)
    assert result.value == pytest.approx(240 / 1200)
    assert result.notes == (
        "SG&A FY2021: read as abs(sales_marketing) + abs(general_administrative)",
    )
    with pytest.raises(MissingInputError, match="sga"):
        calculate("sga / revenue", facts[:-1], FY)


@pytest.mark.parametrize(
    ("label", "printed", "rate"),
    [
        ("Provision for (benefit from) income taxes", -50, -0.25),  # a benefit (AMD FY2020)
        ("Income tax provision (benefit)", 50, 0.25),
        ("(Provision) benefit for income taxes", -50, 0.25),  # an expense
        ("Income tax benefit (expense)", 50, -0.25),  # a benefit (AES)
        ("Income tax benefit/(expense)", -50, 0.25),
        ("Provision for income taxes", -50, 0.25),  # one word: its size is the expense
        ("Income tax expense", 50, 0.25),
    ],
)
def test_a_tax_line_is_an_expense_or_a_benefit_as_its_label_says(label, printed, rate):
    facts = [f for f in contoso() if f.concept not in {"income_tax", "pretax_income"}] + [
        fact("income_tax", FY.fy, printed * M, label=label),
        fact("pretax_income", FY.fy, 200 * M),
    ]
    assert value("effective_tax_rate", facts) == pytest.approx(rate)


def test_net_income_is_not_the_income_left_to_common_stockholders_after_preferred():
    """A bank prints net income, then in its EPS note the net income applicable to common
    stockholders after preferred dividends: "net income" is the first."""
    facts = [f for f in contoso() if f.concept != "net_income_attributable"]
    facts.append(fact("net_income_to_common", 2021, 160 * M))
    assert value("net_income_attributable", facts) == pytest.approx(176 * M)
    assert value("net_income_to_common", facts) == pytest.approx(160 * M)


def test_a_stand_in_of_any_form_is_placed_in_the_period_and_bound(monkeypatch):
    """A stand-in written with a unary minus or a function is spliced in whole, each of its
    references at the period asked for and bound to its fact."""
    from calculator import evaluation

    stand_ins = {**evaluation.SUBSTITUTES, "net_income_attributable": "-(-abs(net_income))"}
    monkeypatch.setattr(evaluation, "SUBSTITUTES", stand_ins)
    facts = [f for f in contoso() if f.concept != "net_income_attributable"]
    assert value("net_margin", facts) == pytest.approx(176 / 1200)


@pytest.mark.parametrize("metric", ["gross_margin", "inventory_turnover", "dio", "dpo"])
def test_a_cost_of_revenue_printed_negative_gives_the_same_figure(metric):
    flipped = [
        dataclasses.replace(f, value=-f.value) if f.concept == "cost_of_revenue" else f
        for f in contoso()
    ]
    assert value(metric, flipped) == pytest.approx(value(metric))


def test_rendering_notes_style():
    result = calculate("operating_margin", contoso(), FY)
    assert result.render() == "Operating margin = operating income¹ ÷ revenue¹"
    result = calculate("free_cash_flow", contoso(), FY)
    assert result.render() == "Free cash flow = cash from operations¹ − |capital expenditure¹|"
    result = calculate("capex_to_revenue", contoso(), FY)
    numbers = {result.inputs[0].uid: 7, result.inputs[1].uid: 3}
    assert result.render(numbers) == "Capex as % of revenue = |capital expenditure⁷| ÷ revenue³"
    result = calculate("asset_turnover", contoso(), FY)
    assert result.render() == (
        "Asset turnover = revenue¹ ÷ average(total assets², total assets FY2020²)"
    )


def test_citations_are_the_input_pages():
    result = calculate("ebitda_margin", contoso(), FY)
    assert [f.concept for f in result.inputs] == ["operating_income", "dna", "revenue"]
    assert result.citations == (result.inputs[0].uid, result.inputs[1].uid)


def test_resolution_prefers_home_statement_own_document_and_full_year():
    segment = fact("capex", 2021, -95 * M, statement="income", page=80)  # a segment table
    nine_months = fact("capex", 2021, -60 * M, statement="cash_flow", duration="ytd", page=40)
    other_doc = fact("capex", 2021, -91 * M, statement="cash_flow", page=30, doc="CONTOSO_2022_10K")
    home = fact("capex", 2021, -90 * M, statement="cash_flow", page=54)
    note = fact("capex", 2021, -90.4 * M, statement="cash_flow", page=99)
    resolver = FactResolver(
        [segment, nine_months, other_doc, note, home], doc_name="CONTOSO_2021_10K"
    )
    assert resolver.candidates("capex", FY) == [home, note, other_doc, segment]
    assert resolver.pick("capex", Period(2021, 3)) is None  # a ytd column is not a quarter


def test_the_balance_at_the_end_of_q4_is_the_years_and_a_flow_is_not():
    year_end = fact("inventory", 2021, 70 * M, statement="balance")
    q4_release = fact("inventory", 2021, 71 * M, statement="balance", fq=4, page=8)
    year = fact("revenue", 2021, 900 * M)
    resolver = FactResolver([year_end, year])
    assert resolver.pick("inventory", Period(2021, 4)) == year_end  # the same date
    assert resolver.pick("revenue", Period(2021, 4)) is None  # the year is no quarter
    assert resolver.pick("inventory", Period(2021)) == year_end
    both = FactResolver([year_end, q4_release])
    assert both.pick("inventory", Period(2021, 4)) == q4_release  # the quarter's own first
    assert both.pick("inventory", Period(2021)) == year_end  # a year never reads the quarter


def test_cash_returned_to_shareholders_is_dividends_and_buybacks_as_paid():
    buybacks = fact("buybacks", 2021, -120 * M, statement="cash_flow", page=54)
    assert value("shareholder_returns", [*contoso(), buybacks]) == (68 + 120) * M


def test_percent_facts_enter_as_fractions():
    facts = [fact("effective_rate", 2021, 21.0, unit="%")]
    assert calculate("effective_rate * 2", facts, FY).value == pytest.approx(0.42)


def test_quarter_periods():
    q2 = fact("revenue", 2021, 300 * M, duration="quarter", fq=2)
    q2_last = fact("revenue", 2020, 250 * M, duration="quarter", fq=2)
    assert calculate("revenue / revenue[FY-1] - 1", [q2, q2_last], Period(2021, 2)).value == (
        pytest.approx(0.2)
    )


def test_a_year_to_date_period_reads_the_year_to_date_column_not_the_quarter():
    q2 = fact("revenue", 2021, 300 * M, duration="quarter", fq=2)
    h1 = fact("revenue", 2021, 550 * M, duration="ytd", fq=2)
    h1_last = fact("revenue", 2020, 500 * M, duration="ytd", fq=2)
    facts = [q2, h1, h1_last]
    assert calculate("revenue", facts, Period(2021, 2)).value == 300 * M
    assert calculate("revenue", facts, Period(2021, 2, to_date=True)).value == 550 * M
    # the year before is read to the same date
    growth = calculate("revenue / revenue[FY-1] - 1", facts, Period(2021, 2, to_date=True))
    assert growth.value == pytest.approx(0.1)
    # so is a quarter named absolutely ("growth in the first half of 2021"): the quarter
    # alone (300 against a year-ago quarter not printed) had been read and called H1's
    q2_last = fact("revenue", 2020, 280 * M, duration="quarter", fq=2)
    named = "revenue[FY2021Q2] / revenue[FY2020Q2] - 1"
    assert calculate(named, [*facts, q2_last], Period(2021, 2, to_date=True)).value == (
        pytest.approx(0.1)
    )
    assert calculate(named, [*facts, q2_last], Period(2021, 2)).value == pytest.approx(20 / 280)


def test_the_quick_ratio_counts_marketable_securities_and_says_when_none_are_printed():
    without = calculate("quick_ratio", contoso(), FY)
    assert without.notes == ("short-term investments FY2021: none printed, read as 0",)
    securities = fact("short_term_investments", 2021, 90 * M, statement="balance", page=52)
    held = calculate("quick_ratio", [*contoso(), securities], FY)
    assert held.value == pytest.approx((150 + 90 + 200) / 400)
    assert held.notes == ()


def test_a_balance_sheet_that_prints_no_receivable_holds_none_for_the_quick_ratio():
    """Netflix's and Foot Locker's balance sheets print no receivable: their quick ratio
    is cash over current liabilities, said so. A receivable the vocabulary does not name
    (eBay's), or a row that kept only its allowance (PG&E's wrapped label), is not read as
    none, and neither is a receivable of a year whose balance sheet was not read."""
    facts = [f for f in contoso() if f.concept != "receivables"]
    none = calculate("quick_ratio", facts, FY)
    assert none.value == pytest.approx(150 / 400)
    assert "receivables FY2021: none printed, read as 0" in none.notes
    # the report's Formulas line says which inputs its zeros stand for
    assert none.formula_line() == "; ".join([none.render(), *none.notes])
    assert none.formula_line().endswith("receivables FY2021: none printed, read as 0")
    for label in (
        "Customer accounts and funds receivable",
        "(net of allowance for doubtful accounts of $166 million)",
    ):
        unnamed = fact(None, 2021, 80 * M, statement="balance", page=52, label=label)
        with pytest.raises(MissingInputError):
            calculate("quick_ratio", [*facts, unnamed], FY)
    unread = [f for f in facts if f.concept != "current_assets"]
    with pytest.raises(MissingInputError):
        calculate("dso", unread, FY)


def test_a_line_printed_gross_then_net_is_read_net():
    facts = [f for f in contoso() if f.concept != "receivables"]
    gross = fact("receivables", 2021, 230 * M, statement="balance", page=52,
                 label="Accounts receivable")  # fmt: skip
    net = fact("receivables", 2021, 200 * M, statement="balance", page=52,
               label="Accounts receivable, net")  # fmt: skip
    assert calculate("receivables", [*facts, gross, net], FY).value == 200 * M
    assert calculate("receivables", [*facts, net, gross], FY).value == 200 * M


@given(
    tax=st.floats(min_value=1, max_value=5_000, allow_nan=False),
    pretax=st.floats(min_value=10, max_value=50_000, allow_nan=False),
    printed_negative=st.booleans(),
)
def test_effective_tax_rate_is_positive_however_the_statement_prints_the_expense(
    tax, pretax, printed_negative
):
    """'(Provision) benefit for income taxes | (411)' and 'Provision for income taxes | 411'
    are the same expense: the rate is the expense's share of pre-tax income either way."""
    facts = [
        f for f in contoso() if f.concept not in {"income_tax", "pretax_income"} or f.fy != FY.fy
    ] + [
        fact("income_tax", FY.fy, (-tax if printed_negative else tax) * M),
        fact("pretax_income", FY.fy, pretax * M),
    ]
    assert value("effective_tax_rate", facts) == pytest.approx(tax / pretax, rel=1e-9)


def test_short_term_debt_printed_on_two_rows_is_their_sum_each_row_once():
    """ "Short-term debt" and "Current portion of long-term debt" are both short-term debt;
    a row read twice (the same label again in the column) counts once."""
    facts = [
        fact("short_term_debt", 2021, 80 * M, statement="balance", label="Short-term debt"),
        fact("short_term_debt", 2021, 13 * M, statement="balance",
             label="Current portion of long-term debt"),
        fact("short_term_debt", 2021, 13 * M, statement="balance",
             label="Current portion of long-term debt"),
        fact("long_term_debt", 2021, 6_653 * M, statement="balance"),
    ]  # fmt: skip
    assert calculate("total_debt", facts, FY).value == pytest.approx(6_746 * M)
    elsewhere = dataclasses.replace(facts[1], page_index=90, uid="0123456789ab")
    assert calculate("total_debt", [facts[0], elsewhere, facts[3]], FY).value == pytest.approx(
        6_733 * M
    )  # a row on another page (a note) is not added


def test_a_balance_sheet_with_no_short_term_debt_row_owes_none_within_the_year():
    facts = [fact("long_term_debt", 2021, 4_123 * M, statement="balance")]
    result = calculate("total_debt", facts, FY)
    assert result.value == pytest.approx(4_123 * M)
    assert result.notes == ("short-term debt FY2021: none printed, read as 0",)
