"""Deterministic formula choice from a question's wording (made-up company, Contoso)."""

from __future__ import annotations

import pytest

from calculator.answers import format_value
from calculator.choice import FormulaChoice, Refusal, choose_formula, presentation_for
from calculator.evaluation import calculate
from domain.periods import Period
from tests.calculator_facts import contoso


def chosen(question: str, period: Period | None = None) -> FormulaChoice:
    choice = choose_formula(question, period)
    assert isinstance(choice, FormulaChoice), choice
    return choice


@pytest.mark.parametrize(
    ("question", "formula"),
    [
        ("What is Contoso's FY2021 operating margin?", "operating_margin"),
        ("What is the FY2021 capital expenditure amount (in USD millions) for Contoso?",
         "abs(capex)"),
        ("How much did Contoso pay out in cash dividends in FY2021?", "abs(dividends_paid)"),
        ("What is Contoso's year end FY2021 net PP&E?", "ppe_net"),
        ("What is the year-end FY2021 value of Contoso's net property and equipment?",
         "ppe_net"),
        ("How much did Contoso spend on purchases of property and equipment in FY2021?",
         "abs(capex)"),
        ("What is the FY2021 free cash flow for Contoso?", "free_cash_flow"),
        ("What is the FY2021 unadjusted EBITDA % margin for Contoso?", "ebitda_margin"),
        ("What is Contoso's FY2021 inventory turnover ratio?", "inventory_turnover"),
        ("What is Contoso's FY2021 net income attributable to shareholders?",
         "net_income_attributable"),
        ("What was Contoso's FY2021 net income?", "net_income_attributable"),
        ("What was Contoso's FY2021 net income applicable to common stockholders?",
         "net_income_to_common"),
        ("What is the FY2020 - FY2021 total revenue growth rate for Contoso?",
         "revenue[FY2021] / revenue[FY2020] - 1"),
        ("What is Contoso's 2 year revenue CAGR from FY2019 to FY2021?",
         "(revenue[FY2021] / revenue[FY2019]) ** (1 / 2) - 1"),
        ("What is the FY2019 - FY2021 3 year average of capex as a % of revenue for Contoso?",
         "avg(capex_to_revenue[FY2019], capex_to_revenue[FY2020], capex_to_revenue[FY2021])"),
        ("What is Contoso's FY2021 SG&A as a % of revenue?", "sga / revenue"),
        ("What was Contoso's FY2021 return on equity?", "roe"),
        ("What is the FY2021 debt-to-equity ratio for Contoso?", "debt_to_equity"),
        ("What is Contoso's total debt in FY2021?", "total_debt"),
        ("What was Contoso's debt at the end of FY2021?", "total_debt"),
        ("What was Contoso's long-term debt in FY2021?", "long_term_debt"),
        # what falls due within the year is short-term debt, not all of it
        ("What is Contoso's debt due within one year at the end of FY2021?", "short_term_debt"),
        ("How much of Contoso's debt matures within the next 12 months in FY2021?",
         "short_term_debt"),
        ("What was Contoso's current portion of long-term debt in FY2021?", "short_term_debt"),
        ("How much free cash flow did Contoso generate in FY2021?", "free_cash_flow"),
        # cash as the unit of what was spent, paid or returned, not the cash balance
        ("How much cash did Contoso spend on capital expenditures in FY2021?", "abs(capex)"),
        ("How much cash did Contoso pay in dividends in FY2021?", "abs(dividends_paid)"),
        ("How much cash did Contoso have at the end of FY2021?", "cash"),
        ("How much cash did Contoso spend on acquisitions in FY2021?", "abs(acquisitions)"),
        ("How much cash did Contoso return to shareholders through dividends and buybacks in "
         "FY2021?", "shareholder_returns"),
        ("How much did Contoso spend on dividends and share repurchases in FY2021?",
         "shareholder_returns"),
        ("What is the change in Contoso's total assets from FY2020 to FY2021?",
         "total_assets[FY2021] - total_assets[FY2020]"),
        ("What is Contoso's FY2021 operating income + depreciation and amortization?",
         "operating_income + dna"),
        ("What is the year-over-year change in operating income from FY2020 to FY2021 "
         "(in units of percents)?", "operating_income[FY2021] / operating_income[FY2020] - 1"),
        # "year over year" as the basis of a direction asked: the figure, not its growth
        ("What was Contoso's operating margin in Q2 of FY2021, and did it improve year over "
         "year?", "operating_margin"),
        ("What was Contoso's revenue growth year over year in FY2021, and did it improve?",
         "revenue[FY2021] / revenue[FY2020] - 1"),
    ],
)  # fmt: skip
def test_named_metrics_and_line_items(question, formula):
    assert chosen(question).formula == formula


@pytest.mark.parametrize(
    ("question", "formula"),
    [
        ("What were Contoso's operating margins in FY2021?", "operating_margin"),
        ("What were Contoso's current ratios in FY2021?", "current_ratio"),
        ("What were Contoso's FY2021 capital expenditures?", "abs(capex)"),
        ("What were Contoso's FY2021 inventory turnover ratios?", "inventory_turnover"),
    ],
)  # fmt: skip
def test_a_metric_named_in_the_plural_is_the_metric(question, formula):
    assert chosen(question).formula == formula


@pytest.mark.parametrize(
    ("question", "formula"),
    [
        ("What was Contoso's net debt at the end of FY2021?", "net_debt"),
        ("What was Contoso's FY2021 debt-to-EBITDA ratio?", "debt_to_ebitda"),
        ("What was Contoso's FY2021 debt/EBITDA?", "debt_to_ebitda"),
        ("What was Contoso's net debt to EBITDA in FY2021?", "net_debt_to_ebitda"),
        ("What was Contoso's net leverage in FY2021?", "net_debt_to_ebitda"),
        ("What was Contoso's FY2021 debt to assets ratio?", "debt_to_assets"),
        ("What was Contoso's FY2021 EBIT?", "operating_income"),
        ("What was Contoso's FY2021 EBIT margin?", "operating_margin"),
        ("What was Contoso's FY2021 EBITDA?", "ebitda"),
        ("What was Contoso's FY2021 debt ratio?", "debt_to_assets"),
        ("What was Contoso's FY2021 operating cash flow margin?", "cfo_margin"),
        ("What was Contoso's FY2021 free cash flow margin?", "fcf_margin"),
        ("What was Contoso's FY2021 FCF conversion?", "fcf_conversion"),
        ("What was Contoso's FY2021 earnings per share?", "diluted_eps"),
        ("What was Contoso's FY2021 tax rate?", "effective_tax_rate"),
        ("What was Contoso's total equity in FY2021?", "equity"),
        ("What was Contoso's cash and short-term investments in FY2021?",
         "cash_and_investments"),
        ("What was Contoso's inventory days in FY2021?", "dio"),
        ("What were Contoso's receivable days in FY2021?", "dso"),
        ("What was Contoso's revenue from FY2020 to FY2021?", "revenue"),
        ("How much did Contoso pay in dividends to common shareholders in FY2021?",
         "abs(dividends_paid)"),
    ],
)  # fmt: skip
def test_leverage_cash_flow_metrics_and_common_names(question, formula):
    assert chosen(question).formula == formula


@pytest.mark.parametrize(
    ("text", "formula"),
    [
        # Words of the question's own between "cash" and what provided it: the cash-flow
        # statement's line, not the balance sheet's cash.
        ("How much net cash did Contoso provide from its operating activities in FY2021?",
         "cfo"),
        ("What was Contoso's net cash provided by (used in) investing activities in FY2021?",
         "cfi"),
        ("How much cash did Contoso use in financing activities in FY2021?", "cff"),
        ("What was Contoso's cash and cash equivalents at the end of FY2021?", "cash"),
        ("How much cash did Contoso hold at the end of FY2021?", "cash"),
    ],
)  # fmt: skip
def test_cash_is_read_with_what_provided_it(text, formula):
    assert chosen(text).formula == formula


@pytest.mark.parametrize(
    ("question", "formula"),
    [
        # The instruction names the metric the asked line item is an input of: the metric.
        ("Roughly how many times has Contoso sold its inventory in FY2021? Calculate "
         "inventory turnover ratio for FY2021; if it is not meaningful, say why.",
         "inventory_turnover"),
        ("What were Contoso's current assets in FY2021? Compute the current ratio.",
         "current_ratio"),
        # A metric that does not use the asked line item leaves the question's own ask.
        ("What was Contoso's inventory in FY2021? Calculate the current ratio.", "inventory"),
        # An instruction that only names a line item changes nothing.
        ("What was Contoso's revenue in FY2021? Calculate it from the income statement.",
         "revenue"),
    ],
)  # fmt: skip
def test_an_instruction_naming_a_metric_refines_an_asked_line_item(question, formula):
    assert chosen(question).formula == formula


def test_the_questions_definition_wins():
    choice = chosen(
        "What is Contoso's FY2021 quick ratio? Quick ratio is defined as: (cash + "
        "receivables) / total current liabilities. Round your answer to two decimal places."
    )
    assert choice.formula == "quick_ratio"
    assert choice.definitions == {"quick_ratio": "(cash + receivables) / current_liabilities"}
    result = calculate(choice.formula, contoso(), choice.period, definitions=choice.definitions)
    assert format_value(result, choice.presentation) == "0.88"  # not the built-in 0.98


def test_definition_with_averages_and_changes():
    choice = chosen(
        "What is FY2021 days payable outstanding (DPO) for Contoso? DPO is defined as: 365 * "
        "(average accounts payable between FY2020 and FY2021) / (FY2021 COGS + change in "
        "inventory between FY2020 and FY2021). Round your answer to two decimal places."
    )
    assert choice.definitions["dpo"] == (
        "365 * (avg(payables[FY2020], payables[FY2021])) / "
        "(cost_of_revenue[FY2021] + (inventory[FY2021] - inventory[FY2020]))"
    )
    result = calculate(choice.formula, contoso(), choice.period, definitions=choice.definitions)
    assert result.value == pytest.approx(365 * 80 / (700 + 20))
    assert format_value(result, choice.presentation) == "40.56 days"


def test_defined_name_used_in_the_asked_phrase():
    choice = chosen(
        "What is the FY2021 unadjusted EBITDA less capex for Contoso? Define unadjusted EBITDA "
        "as unadjusted operating income + depreciation and amortization [from cash flow "
        "statement]. Answer in USD millions."
    )
    assert (choice.formula, choice.definitions) == (
        "ebitda - abs(capex)",
        {"ebitda": "operating_income + dna"},
    )
    result = calculate(choice.formula, contoso(), choice.period, definitions=choice.definitions)
    assert format_value(result, choice.presentation) == "$210 million"


def test_unreadable_definition_is_a_refusal_not_the_builtin():
    choice = choose_formula(
        "What is Contoso's FY2021 quick ratio? Quick ratio is defined as: the liquid assets "
        "a treasurer would count, over current liabilities."
    )
    assert isinstance(choice, Refusal)
    assert "definition of 'quick ratio'" in choice.reason


@pytest.mark.parametrize(
    "question",
    ["What were Contoso's debt securities in FY2021?", "What was Contoso's bad debt in FY2021?"],
)
def test_a_kind_of_debt_is_not_total_debt(question):
    choice = choose_formula(question)
    assert not (isinstance(choice, FormulaChoice) and choice.formula == "total_debt")


@pytest.mark.parametrize(
    "question",
    [
        "What was Contoso's revenue per employee in FY2021?",
        "What was Contoso's book value per share in FY2021?",
        "What were Contoso's dividends per share in FY2021?",
        "What were Contoso's dividends declared per share in FY2021?",
        "What were Contoso's cash dividends paid per share in FY2021?",
        "What was Contoso's free cash flow yield in FY2021?",
        "What was Contoso's capex intensity in FY2021?",
        "What was Contoso's revenue mix in FY2021?",
        "What was Contoso's cash burn in FY2021?",
        "What was Contoso's net cash position in FY2021?",
        "What was Contoso's capex to depreciation in FY2021?",
        "What was Contoso's long-term debt to equity in FY2021?",
        # a word before it makes it a balance: unearned revenue is a liability
        "Did Contoso's unearned revenue grow in FY2021?",
        "What was Contoso's deferred revenue in FY2021?",
        "What was Contoso's unbilled revenue in FY2021?",
    ],
)
def test_a_line_item_qualified_into_another_quantity_is_no_answer(question):
    # Read as the item alone, "revenue per employee" would be answered with revenue.
    assert isinstance(choose_formula(question), Refusal)


@pytest.mark.parametrize(
    ("question", "formula"),
    [
        # how the item moved in a period: each period's figure (the planner adds the prior)
        ("How did Contoso's revenue change in FY2021?", "revenue"),
        ("Did Contoso's total assets increase in 2021?", "total_assets"),
        ("Did Contoso's net debt decrease in the fourth quarter of 2021?", "net_debt"),
        # the change itself
        ("What was the change in Contoso's total assets in FY2021?",
         "total_assets[FY2021] - total_assets[FY2020]"),
        ("What was the increase in Contoso's revenue from FY2020 to FY2021?",
         "revenue[FY2021] - revenue[FY2020]"),
    ],
)  # fmt: skip
def test_a_change_in_a_period_is_the_item_and_a_change_in_an_item_is_the_change(question, formula):
    # A question with no "what is" is read as programs.figures asks it: "What is <question>".
    asked = question if question.startswith("What") else f"What is {question}"
    assert chosen(asked, Period(2021)).formula == formula


def test_refusals():
    assert isinstance(choose_formula("Tell me about Contoso."), Refusal)
    assert isinstance(choose_formula("What is Contoso's operating margin?"), Refusal)  # no year
    assert chosen("What is Contoso's operating margin?", Period(2021)).period == Period(2021)
    assert isinstance(choose_formula("What is Contoso's FY2021 market share?"), Refusal)
    # a percentage of one line item is not a question the calculator can answer
    assert isinstance(choose_formula("What is Contoso's FY2021 revenue (as a %)?"), Refusal)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What is Contoso's FY2021 operating margin?", "20.0%"),
        ("What is Contoso's FY2021 operating margin? Round to two decimal places.", "20.00%"),
        ("What is Contoso's FY2021 capex (in USD billions)?", "$0.09 billion"),
        ("What is Contoso's FY2021 total assets? Answer in USD millions.", "$2,000 million"),
        # a whole number of millions under 100 gets no decimals the page does not print
        ("What is Contoso's FY2021 capex?", "$90 million"),
        ("What is Contoso's FY2021 current ratio?", "1.30"),
        ("What is Contoso's FY2021 DSO?", "57.79 days"),
        ("What is Contoso's FY2021 diluted EPS?", "$1.70 per share"),
        # A margin's change is a difference of percentages: percentage points, not percent.
        ("What was the change in Contoso's operating margin in FY2021?", "5.0 percentage points"),
        # "percentage" names the margin here; its change is still in points
        (
            "What was the change in Contoso's operating margin percentage in FY2021?",
            "5.0 percentage points",
        ),
        ("What was the percentage change in Contoso's operating margin in FY2021?", "33.3%"),
        # a share of revenue is a percentage (Intel's capex had been given as "0.18")
        ("What was Contoso's capital expenditure for FY2021 as a share of revenue?", "7.5%"),
        ("What was Contoso's FY2021 net income as a proportion of revenue?", "14.2%"),
        # an average of margins is a margin (Oracle's three-year average had been "0.30")
        ("What was Contoso's average operating margin from FY2020 through FY2021?", "17.5%"),
        ("What was Contoso's average current ratio from FY2020 through FY2021?", "1.24"),
    ],
)
def test_presentation(question, expected):
    choice = chosen(question)
    result = calculate(choice.formula, contoso(), choice.period, definitions=choice.definitions)
    assert format_value(result, choice.presentation) == expected


def test_presentation_for_a_formula_chosen_elsewhere():
    question = "What is Contoso's FY2021 operating margin (as a %)?"
    assert presentation_for(question, "operating_income / revenue").display == "percent"
    assert presentation_for("Contoso's FY2021 current ratio?", "current_ratio").display == "ratio"


@pytest.mark.parametrize(
    ("question", "formula", "title"),
    [
        ("What was net income as a percent of revenue?", "net_income_attributable / revenue",
         "Net margin"),
        ("What was operating income as a % of revenue?", "operating_income / revenue",
         "Operating margin"),
        ("What was SG&A as a percent of revenue?", "sga / revenue", "SG&A as % of revenue"),
    ],
)  # fmt: skip
def test_a_ratio_in_words_that_is_a_named_metric_takes_its_name(question, formula, title):
    choice = choose_formula(question, Period(fy=2021))
    assert isinstance(choice, FormulaChoice)
    assert (choice.formula, choice.title) == (formula, title)


@pytest.mark.parametrize(
    "question",
    [
        "What is whether Contoso was profitable in FY2021?",
        "What is whether Contoso was unprofitable in FY2021?",
        "What is whether Contoso turned a profit in FY2021?",
        "What is whether Contoso reported a net loss in FY2021?",
        "What is whether Contoso returned to a profit in FY2021 after its FY2020 loss?",
        "What is whether Contoso got back to profitability in FY2021?",
    ],
)
def test_whether_a_company_was_profitable_asks_its_net_income(question):
    """A yes/no question reaches the calculator after the "What is" that
    :mod:`programs.figures` puts before it."""
    choice = choose_formula(question)
    assert isinstance(choice, FormulaChoice) and choice.formula == "net_income_attributable"


@pytest.mark.parametrize(
    ("question", "period", "formula"),
    [
        (
            "What was revenue growth in Q2 2023 year over year?",
            Period(2023, 2),
            "revenue[FY2023Q2] / revenue[FY2022Q2] - 1",
        ),
        (
            "What was revenue growth in FY2023?",
            Period(2023),
            "revenue[FY2023] / revenue[FY2022] - 1",
        ),
        # a later year than the slice's is no year of its quarter
        (
            "What was revenue growth in FY2024?",
            Period(2023, 3),
            "revenue[FY2024] / revenue[FY2023] - 1",
        ),
        # the year to date at the quarter (its references read the year to date)
        (
            "What was revenue growth in the first half of 2023?",
            Period(2023, 2, to_date=True),
            "revenue[FY2023Q2] / revenue[FY2022Q2] - 1",
        ),
    ],
)
def test_a_year_named_in_a_quarters_slice_is_that_quarters(question, period, formula):
    """McDonald's Q2 2023 release prints the quarter's revenue beside the year-ago quarter's,
    never a year's: a growth read as FY2023 over FY2022 found nothing to compute."""
    choice = choose_formula(question, period)
    assert isinstance(choice, FormulaChoice) and choice.formula == formula


@pytest.mark.parametrize(
    ("question", "formula", "fy"),
    [
        ("What percentage of Oracle's FY2021 revenue was spent on research and development?",
         "rnd / revenue", 2021),
        ("What share of revenue did Oracle spend on R&D in FY2021?", "rnd / revenue", 2021),
        ("What proportion of its FY2022 net sales did Apple spend on research and development?",
         "rnd / revenue", 2022),
        ("What percentage of revenue went to capital expenditures in FY2020?",
         "abs(capex) / revenue", 2020),
    ],
)  # fmt: skip
def test_a_share_asked_base_first_is_the_item_over_the_base(question, formula, fy):
    """ "What percentage of revenue was spent on R&D?" was refused as no question, though
    "R&D as a percentage of revenue" was computed: the same share, the base named first."""
    choice = choose_formula(question, Period(2019))
    assert isinstance(choice, FormulaChoice), choice
    assert choice.formula == formula and choice.period == Period(fy)
    assert choice.presentation.display == "percent"


@pytest.mark.parametrize(
    ("question", "formula"),
    [
        # a growth asked by its verb and a percent is the relative change
        ("How much did Contoso's total assets grow between FY2020 and FY2021, in percent?",
         "total_assets[FY2021] / total_assets[FY2020] - 1"),
        ("By what percent did Contoso's revenue grow from FY2020 to FY2021?",
         "revenue[FY2021] / revenue[FY2020] - 1"),
        ("By what percentage did Contoso's revenue decline in FY2021?",
         "revenue[FY2021] / revenue[FY2020] - 1"),
        # without a percent: each period's figure, as a trend is read
        ("How much did Contoso's revenue grow between FY2020 and FY2021?", "revenue"),
    ],
)  # fmt: skip
def test_a_growth_asked_by_its_verb_and_a_percent(question, formula):
    """Oracle's "How much did total assets grow between FY2022 and FY2023, in percent?" had
    been refused by the calculator ("a percentage is asked, but only one line item was
    read"), and "By what percent …" read as no question at all."""
    assert chosen(question, Period(2021)).formula == formula


@pytest.mark.parametrize(
    "question",
    [
        "Was Contoso's R&D spending above 15% of its revenue in FY2021?",
        "Was Contoso's R&D more than 15 percent of revenue in FY2021?",
        "Is Contoso's R&D at least 10% of revenue in FY2021?",
    ],
)
def test_a_share_set_against_a_level_is_the_share(question):
    """Intel's "Was R&D spending above 15% of its revenue in FY2020?" had no figure ("a
    percentage is asked, but only one line item was read") and closed with a bare "Yes";
    the level is the threshold verdict's (programs.threshold_verdicts)."""
    assert chosen(f"What is {question}", Period(2021)).formula == "rnd / revenue"


@pytest.mark.parametrize(
    "question",
    [
        "How much did Contoso's revenue growth accelerate in FY2021?",
        "What is Contoso's revenue growth acceleration in FY2021?",
        "How much did Contoso's revenue growth slow down in FY2021?",
    ],
)
def test_growth_asked_to_speed_up_or_slow_down_is_this_years_less_last_years(question):
    """ "Is Oracle's revenue growth accelerating in FY2023?" had been answered with FY2023's
    growth alone (17.7%); its answer is that growth less FY2022's (4.8%), in points."""
    choice = choose_formula(question)
    assert isinstance(choice, FormulaChoice)
    assert choice.formula == (
        "(revenue[FY2021] / revenue[FY2020] - 1) - (revenue[FY2020] / revenue[FY2019] - 1)"
    )
    assert (choice.title, choice.presentation.display) == ("Change in revenue growth", "points")


@pytest.mark.parametrize(
    ("question", "sentence"),
    [
        ("What was the change in Contoso's gross margin from FY2020 to FY2021?",
         "Gross margin rose by 1.7 percentage points from FY2020 to FY2021 (40.0% to 41.7%)"),
        ("What was the change in Contoso's operating income from FY2020 to FY2021?",
         "Operating income rose by $90 million from FY2020 to FY2021 ($150 million to "
         "$240 million)"),
        ("What was Contoso's gross margin in FY2021?", "Gross margin in FY2021 was 41.7%"),
    ],
)  # fmt: skip
def test_a_change_is_said_with_its_direction_and_both_periods_figures(question, sentence):
    """A trend's reader asks which way and from what to what: "Change in gross margin from
    FY2019 to FY2020 was 0.7 percentage points" said neither."""
    from dataclasses import replace

    from calculator.answers import figure_sentence

    choice = chosen(question)
    result = calculate(choice.formula, contoso(), choice.period, definitions=choice.definitions)
    result = replace(result, title=choice.title)  # as the figure probe titles it
    when = "from FY2020 to FY2021" if "change" in question else "in FY2021"
    value = format_value(result, choice.presentation)
    assert figure_sentence(result, choice.presentation, when, "", value) == sentence
