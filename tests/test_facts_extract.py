"""Statement facts read from REAL filing pages (FinanceBench's PyMuPDF text, Patronus AI).

The fixture pages were copied verbatim from ``pages.jsonl.gz``: 3M's FY2018 cash-flow
statement and balance sheet, Nike's FY2023 income statement and balance sheet, PepsiCo's
Q2 2023 earnings release (quarter and year-to-date columns) and FY2022 cash-flow
statement, American Water's Q2 2023 balance sheet (a quarter-end beside a year-end),
MGM Resorts' FY2019 cash-flow statement (in thousands), two pages that name
statements without being one (a table of contents and an audit report), and two notes
pages whose prose states amounts in billions above tables in millions (eBay FY2022,
Apple FY2020).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculator import calculate
from domain.periods import Period
from retrieval.facts.columns import scale_of
from retrieval.facts.extract import document_facts, facts_from_page
from retrieval.facts.headings import heading_statement
from retrieval.facts.layout import _line_values, parse_value
from retrieval.ingest.pages_file import _page_from_row
from retrieval.pages import Page

FIXTURE = Path(__file__).parent / "fixtures" / "facts_statement_pages.jsonl"


@pytest.fixture(scope="module")
def pages():
    rows = [json.loads(line) for line in FIXTURE.read_text().splitlines() if line.strip()]
    return {(r["doc_name"], r["page_num"]): _page_from_row(r) for r in rows}


def facts_of(pages, doc, page_num):
    return facts_from_page(pages[(doc, page_num)], page_id=1000 + page_num)


def pick(facts, concept, fy, fq=None, duration=None):
    found = [
        f
        for f in facts
        if f.concept == concept
        and f.fy == fy
        and f.fq == fq
        and (duration is None or f.duration == duration)
    ]
    assert len(found) == 1, (concept, fy, fq, [(f.label, f.value) for f in found])
    return found[0]


def test_3m_cash_flow_three_years_parentheses_and_scale(pages):
    facts = facts_of(pages, "3M_2018_10K", 59)
    capex = pick(facts, "capex", 2018)
    assert capex.value == -1_577_000_000.0
    assert capex.label == "Purchases of property, plant and equipment (PP&E)"
    assert (capex.statement, capex.unit, capex.duration, capex.page_index) == (
        "cash_flow",
        "USD",
        "year",
        59,
    )
    assert capex.uid == pages[("3M_2018_10K", 59)].uid and capex.doc_label == "MMM 10-K FY2018"
    assert pick(facts, "capex", 2017).value == -1_373_000_000.0
    assert pick(facts, "capex", 2016).value == -1_420_000_000.0
    assert pick(facts, "cfo", 2018).value == 6_439_000_000.0  # a subtotal row
    assert pick(facts, "cfi", 2017).value == -3_086_000_000.0
    assert pick(facts, "dividends_paid", 2018).value == -3_193_000_000.0
    assert pick(facts, "buybacks", 2018).value == -4_870_000_000.0
    assert pick(facts, "dna", 2018).value == 1_488_000_000.0


def test_rows_keep_page_order_then_column_order(pages):
    facts = facts_of(pages, "3M_2018_10K", 59)
    assert [f.fy for f in facts[:3]] == [2018, 2017, 2016]
    labels = list(dict.fromkeys(f.label for f in facts))
    assert labels.index("Net income including noncontrolling interest") < labels.index(
        "Purchases of property, plant and equipment (PP&E)"
    )


def test_3m_balance_sheet_two_year_end_dates(pages):
    facts = facts_of(pages, "3M_2018_10K", 57)
    assets = pick(facts, "total_assets", 2018)
    assert (assets.value, assets.duration, assets.fq) == (36_500_000_000.0, "instant", None)
    assert pick(facts, "total_assets", 2017).value == 37_987_000_000.0
    assert pick(facts, "current_liabilities", 2018).value == 7_244_000_000.0
    assert pick(facts, "inventory", 2018).value == 4_366_000_000.0  # "Total inventories"
    assert pick(facts, "equity", 2018).value == 9_796_000_000.0  # 3M shareholders' equity
    assert pick(facts, "total_equity", 2018).value == 9_848_000_000.0
    assert pick(facts, "ppe_net", 2017).value == 8_866_000_000.0
    treasury = [f for f in facts if f.label == "Treasury stock" and f.fy == 2018]
    assert treasury[0].value == -29_626_000_000.0


def test_nike_per_share_and_share_counts_get_their_own_units(pages):
    facts = facts_of(pages, "NIKE_2023_10K", 58)
    eps = pick(facts, "diluted_eps", 2023)
    assert (eps.value, eps.unit) == (3.23, "USD/share")
    assert eps.label == "Earnings per common share: Diluted"
    shares = pick(facts, "diluted_shares", 2023)
    assert (shares.value, shares.unit) == (
        1_569_800_000.0,
        "shares",
    )  # "(In millions, except per share data)"
    assert pick(facts, "revenue", 2021).value == 44_538_000_000.0
    assert pick(facts, "interest_expense", 2023).value == -6_000_000.0


def test_nike_fiscal_year_ending_in_may(pages):
    facts = facts_of(pages, "NIKE_2023_10K", 60)
    cash = pick(facts, "cash", 2023)
    assert (cash.value, cash.column, cash.duration) == (7_441_000_000.0, "2023", "instant")
    assert pick(facts, "current_assets", 2022).value == 28_213_000_000.0


def test_pepsico_quarter_and_year_to_date_columns(pages):
    facts = facts_of(pages, "PEPSICO_2023Q2_EARNINGS", 4)
    quarter = pick(facts, "revenue", 2023, 2, "quarter")
    assert (quarter.value, quarter.column) == (22_322_000_000.0, "6/17/2023")
    assert pick(facts, "revenue", 2023, 2, "ytd").value == 40_168_000_000.0
    assert pick(facts, "revenue", 2022, 2, "quarter").value == 20_225_000_000.0
    assert pick(facts, "diluted_eps", 2023, 2, "quarter").value == 1.99
    juice = [f for f in facts if f.label.startswith("Gain associated with the Juice")]
    assert [f.value for f in juice] == [0.0, -13_000_000.0, 0.0, -3_335_000_000.0]  # "—" is nil


def test_quarter_end_and_year_end_on_one_balance_sheet(pages):
    facts = facts_of(pages, "AMERICANWATERWORKS_2023Q2_10Q", 5)
    june = pick(facts, "total_assets", 2023, 2)
    december = pick(facts, "total_assets", 2022, None)
    assert (june.value, june.duration, june.column) == (
        29_496_000_000.0,
        "instant",
        "June 30, 2023",
    )
    assert december.value == 27_787_000_000.0 and december.column == "December 31, 2022"


def test_thousands_scale(pages):
    facts = facts_of(pages, "MGMRESORTS_2019_10K", 59)
    assert pick(facts, "cfo", 2019).value == 1_810_401_000.0


def test_pepsico_capex_on_its_cash_flow_page(pages):
    facts = facts_of(pages, "PEPSICO_2022_10K", 63)
    capex = pick(facts, "capex", 2022)
    assert (capex.value, capex.label, capex.page_index) == (
        -5_207_000_000.0,
        "Capital spending",
        63,
    )


def test_pages_that_only_name_statements_yield_nothing(pages):
    assert facts_of(pages, "WALMART_2024Q1_10Q", 1) == []  # table of contents
    assert facts_of(pages, "NIKE_2023_10K", 56) == []  # audit report


def test_document_facts_need_stored_pages(pages):
    page = pages[("3M_2018_10K", 59)]
    with pytest.raises(ValueError, match="no page_id"):
        document_facts([page])
    stored = page.model_copy(update={"page_id": 7})
    assert {f.page_id for f in document_facts([stored])} == {7}


@pytest.mark.parametrize(
    ("line", "statement"),
    [
        ("Consolidated Statement of Cash Flow s", "cash_flow"),
        ("CONSOLIDATED BALANCE SHEETS", "balance"),
        ("NIKE, Inc. Consolidated Statements of Income", "income"),
        (
            "Condensed Consolidated Statements of Comprehensive Income (Unaudited)",
            "comprehensive_income",
        ),
        ("Consolidated Statements of Shareholders’ Equity", "equity"),
        ("CASH FLOWS STATEMENTS", "cash_flow"),
        ("Notes to Consolidated Financial Statements", None),
        ("See accompanying notes to the Consolidated Statements of Income.", None),
        ("Consolidated Condensed Statements of Income and Other Information", "income"),
        ("Consolidated Statements of Income and Retained Earnings Data", None),
        ("Consolidated Statements of Operations Data", None),
        ("Consolidated Average Balance Sheets, Interest and Rates", None),
    ],
)
def test_statement_headings(line, statement):
    assert heading_statement(line) == statement


@pytest.mark.parametrize(
    ("token", "amount"),
    [
        ("(1,577)", -1577.0),
        ("2,853", 2853.0),
        ("3.23", 3.23),
        ("—", 0.0),
        ("-", 0.0),
        ("(0.12)", -0.12),
    ],
)
def test_printed_values(token, amount):
    assert parse_value(token).amount == amount


def test_a_negative_printed_with_spaces_in_its_parentheses_is_one_value():
    # Oracle, Best Buy, Walmart, Microsoft: "(5,768 )" had made the row a text line.
    assert [v.amount for v in _line_values("(5,768 )")] == [-5768.0]
    assert [v.amount for v in _line_values("1,556    (5,768 )")] == [1556.0, -5768.0]
    assert [v.amount for v in _line_values("( 259)")] == [-259.0]
    assert _line_values("(a)") is None and _line_values("( see note )") is None


def test_text_is_not_a_value():
    assert parse_value("2018:") is None and parse_value("Q2") is None


@given(st.integers(min_value=0, max_value=10**12), st.booleans())
def test_any_printed_amount_reads_back(n, negative):
    token = f"({n:,})" if negative else f"{n:,}"
    assert parse_value(token).amount == (-n if negative else n)


def test_change_columns_are_not_periods(pages):
    # McDonald's prints "2023  2022  Inc/(Dec)  %" with the percent sign apart.
    facts = facts_of(pages, "MCDONALDS_2023Q2_EARNINGS", 4)
    revenue = pick(facts, "revenue", 2023, 2, "quarter")
    assert revenue.value == 6_497_500_000.0 and revenue.label == "TOTAL REVENUES"
    assert pick(facts, "revenue", 2022, 2, "quarter").value == 5_718_400_000.0
    assert {f.unit for f in facts if f.concept == "revenue"} == {"USD"}
    assert not [f for f in facts if f.fy not in (2022, 2023)]


def test_supplemental_statements_of_part_of_a_group_are_not_read(pages):
    assert facts_of(pages, "AMCOR_2023_10K", 104) == []  # "Deed of Cross Guarantee"
    pretax = pick(facts_of(pages, "AMCOR_2023_10K", 49), "pretax_income", 2023)
    assert pretax.value == 1_251_000_000.0
    assert (
        pick(facts_of(pages, "AMCOR_2023_10K", 49), "cost_of_revenue", 2023).value < 0
    )  # as printed


def test_a_page_without_a_scale_takes_its_documents(pages):
    income = pages[("3M_2015_10K", 49)].model_copy(update={"page_id": 1})
    comprehensive = pages[("3M_2015_10K", 50)].model_copy(update={"page_id": 2})
    assert facts_from_page(income, 1) == []  # no "(Millions)" on the page itself
    facts = document_facts([income, comprehensive])
    assert pick(facts, "revenue", 2015).value == 30_274_000_000.0


@pytest.mark.parametrize(
    ("doc", "page_num", "label", "fy", "value"),
    [
        # "an estimated fair value of $2.8 billion" in the prose above a notes table
        ("EBAY_2022_10K", 81, "Short-term investments", 2022, 104_000_000.0),
        # "a carrying value of $2.8 billion and $2.9 billion" above a cash table in millions
        ("APPLE_2020_10K", 43, "Cash and cash equivalents", 2020, 38_016_000_000.0),
    ],
)
def test_an_amount_in_prose_is_not_the_tables_scale(pages, doc, page_num, label, fy, value):
    page = pages[(doc, page_num)]
    assert facts_from_page(page, 1) == []  # the page states no scale of its own
    found = [f for f in facts_from_page(page, 1, default_scale=1e6) if f.label == label]
    assert next(f.value for f in found if f.fy == fy) == value


@pytest.mark.parametrize(
    ("header", "scale"),
    [
        ("fair value of $2.8 billion and losses of $32 million", None),
        ("fair value of $2.8 billion (in millions)", 1e6),
        ("1.5 million shares; in thousands", 1e3),
        ("2022 2021 Millions", 1e6),  # a year before the unit is no amount
        ("(Dollars in billions)", 1e9),
    ],
)
def test_scale_words_after_a_figure_are_an_amount(header, scale):
    assert scale_of(header) == scale


def test_a_total_printed_without_a_label(pages):
    facts = facts_of(pages, "MGMRESORTS_2019_10K", 57)
    revenue = pick(facts, "revenue", 2019)
    assert (revenue.label, revenue.value) == ("Revenues (total)", 12_899_672_000.0)
    casino = [f for f in facts if f.label == "Casino" and f.fy == 2019]
    assert casino[0].value == 6_517_759_000.0  # the row before it keeps its own values


def test_per_share_rows_under_a_per_share_heading(pages):
    facts = facts_of(pages, "PFIZER_2019_10K", 145)
    eps = pick(facts, "diluted_eps", 2019)
    assert (eps.value, eps.unit) == (2.87, "USD/share")
    assert eps.label == "Net income attributable to Pfizer Inc. common shareholders"
    assert (
        pick(facts, "diluted_shares", 2019).value == 5_675_000_000.0
    )  # "(MILLIONS, EXCEPT PER COMMON SHARE DATA)"
    assert pick(facts, "pretax_income", 2019).value == 17_682_000_000.0
    assert not [f for f in facts if f.unit == "USD" and 0 < abs(f.value) < 1_000_000]


@pytest.mark.parametrize(
    ("label", "statement", "unit", "concept"),
    [
        ("Net (loss)/earnings", "income", "USD", "net_income"),
        ("Income/(loss) before income taxes", "income", "USD", "pretax_income"),
        ("(Loss)/earnings from operations", "income", "USD", "operating_income"),
        ("Payments to acquire property, plant and equipment", "cash_flow", "USD", "capex"),
        ("Proceeds from sale of property, plant and equipment", "cash_flow", "USD", None),
        ("Dividends paid-Series A Preferred Stock", "cash_flow", "USD", None),
        ("Net income", "cash_flow", "USD", None),  # the cash-flow statement's first line
        ("Diluted", "income", "USD", None),  # a per-share label only in its unit
        ("Cost of products", "income", "USD", "cost_of_products"),  # beside cost of services
        ("Cost of services", "income", "USD", "cost_of_services"),
        ("Cost of products sold", "income", "USD", "cost_of_revenue"),  # the total
        ("Net income attributable to 3M", "income", "USD", "net_income_attributable"),
        # after preferred dividends (a bank's EPS note), not the net income asked for
        ("Net income applicable to common stockholders", "income", "USD", "net_income_to_common"),
        ("Net income available to common shareholders", "income", "USD", "net_income_to_common"),
        # Oracle's debt, both halves
        ("Notes payable and other borrowings, current", "balance", "USD", "short_term_debt"),
        ("Notes payable and other borrowings, non-current", "balance", "USD", "long_term_debt"),
        # eBay's totals beside their continuing-operations parts: the total is the figure
        ("Net cash provided by continuing operating activities", "cash_flow", "USD", None),
        ("Net cash provided by operating activities", "cash_flow", "USD", "cfo"),
        ("Net cash used in continuing financing activities", "cash_flow", "USD", None),
        # SG&A on two rows (eBay, Oracle): each its own concept, the SG&A line the total
        ("Sales and marketing", "income", "USD", "sales_marketing"),
        ("General and administrative", "income", "USD", "general_administrative"),
        ("Selling, general and administrative expenses", "income", "USD", "sga"),
        # short-term debt under the names Verizon, J&J and Oracle print it
        ("Debt maturing within one year", "balance", "USD", "short_term_debt"),
        ("Loans and notes payable (Note 7)", "balance", "USD", "short_term_debt"),
        ("Notes payable, current", "balance", "USD", "short_term_debt"),
        # long-term debt due within the year is short-term debt (PG&E); the rest is not
        (
            "Long-term debt, classified as current (includes $168 million related to VIEs)",
            "balance",
            "USD",
            "short_term_debt",
        ),
        ("Long-term debt, current portion", "balance", "USD", "short_term_debt"),
        ("Long-term debt, less current portion", "balance", "USD", "long_term_debt"),
        ("Long-term debt, net of current portion", "balance", "USD", "long_term_debt"),
        ("Notes payable, non-current", "balance", "USD", "long_term_debt"),  # Oracle FY2016
        # cash paid for businesses, not for licences, intangibles or investments
        ("Acquisitions, net of cash acquired", "cash_flow", "USD", "acquisitions"),
        (
            "Payments to acquire businesses, net of cash acquired",
            "cash_flow",
            "USD",
            "acquisitions",
        ),
        ("Acquisitions of wireless licenses", "cash_flow", "USD", None),
        # D&A as PG&E, Microsoft and Adobe print it, commas between; not with impairment
        ("Depreciation, amortization, and decommissioning", "cash_flow", "USD", "dna"),
        ("Depreciation, amortization, and other", "cash_flow", "USD", "dna"),
        ("Depreciation, amortization and accretion", "cash_flow", "USD", "dna"),
        ("Depreciation, amortization and impairment", "cash_flow", "USD", None),
        # PG&E's line after its subsidiary's preferred dividends, with no "net"
        (
            "Income (Loss) Attributable to Common Shareholders",
            "income",
            "USD",
            "net_income_attributable",
        ),
        ("Income attributable to noncontrolling interests", "income", "USD", None),
        (
            "Acquisition of companies, net of cash acquired, and purchases of intangible and "
            "other assets",
            "cash_flow",
            "USD",
            None,
        ),
    ],
)
def test_vocabulary(label, statement, unit, concept):
    from retrieval.facts.vocabulary import concept_for, normalise_label

    assert concept_for(normalise_label(label), statement, unit) == concept


def _stored(index: int, text: str) -> Page:
    return Page(doc_name="SHOP_2022_10K", ticker="SHOP", company="Shop Inc", fy=2022, fq=4,
                doc_type="10-K", page_index=index, text=text, page_id=500 + index)  # fmt: skip


_YEARS = "Year Ended December 31,\n2022\n2021\n(In millions)\n"
_CASH_FLOW_TOP = (
    "CONSOLIDATED STATEMENT OF CASH FLOWS\n" + _YEARS + "Cash flows from operating activities:\n"
    "Net income\n$\n1,000\n$\n900\nNet cash provided by operating activities\n2,254\n2,657\n"
    "Cash flows from investing activities:\nPurchases of property and equipment\n(449)\n(444)\n"
    "Net cash provided by investing activities\n2,461\n3,663\n"
    "Cash flows from financing activities:\n"
)
_CASH_FLOW_REST = (
    "Table of Contents\n" + _YEARS + "Repurchases of common stock\n(3,000)\n(5,000)\n"
    "Net cash used in financing activities\n(3,792)\n(6,532)\n"
)
_NOTE_AFTER = "Table of Contents\n" + _YEARS + "Land\n100\n90\nBuildings\n555\n560\n"


def test_a_statement_that_runs_onto_the_next_page_is_read_there_too():
    facts = document_facts([_stored(61, _CASH_FLOW_TOP), _stored(62, _CASH_FLOW_REST)])
    financing = pick(facts, "cff", 2022)
    assert (financing.page_index, financing.statement, financing.value) == (
        62,
        "cash_flow",
        -3_792e6,
    )
    assert pick(facts, "buybacks", 2021).value == -5_000e6


def test_a_statement_that_runs_on_with_no_line_of_years_reads_its_columns_from_before():
    """PG&E's FY2021 cash-flow statement runs onto a page that opens with its next row
    ("Short-term debt matured"), no years above it: its financing total had gone unread."""
    rest = _CASH_FLOW_REST.removeprefix("Table of Contents\n" + _YEARS)
    facts = document_facts([_stored(61, _CASH_FLOW_TOP), _stored(62, rest)])
    financing = pick(facts, "cff", 2021)
    assert (financing.page_index, financing.value) == (62, -6_532e6)
    assert pick(facts, "buybacks", 2022).value == -3_000e6
    # a note's rows after a finished statement are still not the statement's
    finished = _CASH_FLOW_TOP + rest
    note = _NOTE_AFTER.removeprefix("Table of Contents\n" + _YEARS)
    assert not [f for f in document_facts([_stored(61, finished), _stored(62, note)])
                if f.page_index == 62]  # fmt: skip
    assert not [f for f in document_facts([_stored(61, _CASH_FLOW_TOP), _stored(62, note)])
                if f.page_index == 62]  # fmt: skip


def test_a_page_number_after_the_last_row_is_not_one_of_its_values():
    """eBay's FY2020 cash-flow page ends "Net cash (used in) financing activities (5,692)
    (7,091) (5,398)" and then its page number, "65": the row had four values for three
    columns and was dropped, and the financing total with it."""
    numbered = _CASH_FLOW_TOP + _CASH_FLOW_REST.removeprefix("Table of Contents\n" + _YEARS)
    facts = document_facts([_stored(61, numbered + "65\n")])
    assert pick(facts, "cff", 2022).value == -3_792e6
    # a value that is the table's own, not a page number, keeps its row as printed
    wide = numbered.replace("(6,532)\n", "(6,532)\n1,065\n")
    assert not [f for f in document_facts([_stored(61, wide)]) if f.concept == "cff"]


def test_a_page_after_a_finished_statement_or_finishing_nothing_is_not_the_statement():
    finished = _CASH_FLOW_TOP + _CASH_FLOW_REST.removeprefix("Table of Contents\n" + _YEARS)
    assert not [f for f in document_facts([_stored(61, finished), _stored(62, _NOTE_AFTER)])
                if f.page_index == 62]  # fmt: skip
    # a page that would go on with an unfinished statement but reads none of its last lines
    assert not [f for f in document_facts([_stored(61, _CASH_FLOW_TOP), _stored(62, _NOTE_AFTER)])
                if f.page_index == 62]  # fmt: skip


_BALANCE_SHEET = (
    "CONSOLIDATED BALANCE SHEETS\n(In millions)\nSeptember 24, 2022\nSeptember 25, 2021\n"
    "ASSETS:\nCurrent assets:\nCash and cash equivalents\n$\n23,646\n$\n34,940\n"
    "Marketable securities\n24,658\n27,699\nTotal current assets\n135,405\n134,836\n"
    "Non-current assets:\nMarketable securities\n120,805\n127,877\n"
    "Total assets\n$\n352,755\n$\n351,002\n"
    "LIABILITIES AND SHAREHOLDERS' EQUITY:\nCurrent liabilities:\n"
    "Commercial paper\n9,982\n6,000\nTerm debt\n11,128\n9,613\n"
    "Total current liabilities\n153,982\n125,481\n"
    "Non-current liabilities:\nTerm debt\n98,959\n109,106\n"
    "Total liabilities\n302,083\n287,912\n"
)


def test_a_balance_sheet_row_is_read_in_its_place():
    """Apple prints "Term debt" among current and again among non-current liabilities, and
    "Marketable securities" among both kinds of assets: each is read where it stands, and
    short-term debt is both current debt rows (the calculator adds them)."""
    facts = [f for f in facts_from_page(_stored(40, _BALANCE_SHEET), 540) if f.fy == 2022]
    by_label = [(f.label, f.concept) for f in facts]
    assert by_label[:3] == [
        ("Cash and cash equivalents", "cash"),
        ("Marketable securities", "short_term_investments"),
        ("Total current assets", "current_assets"),
    ]
    assert ("Marketable securities", None) in by_label  # the non-current one
    assert [(f.concept, f.value) for f in facts if f.label == "Term debt"] == [
        ("short_term_debt", 11_128e6),
        ("long_term_debt", 98_959e6),
    ]
    total = calculate("total_debt", facts, Period(fy=2022))
    assert total.value == 9_982e6 + 11_128e6 + 98_959e6


_UNCLASSED_SHEET = (
    "CONSOLIDATED BALANCE SHEETS\n(in thousands)\nDecember 31, 2022\nDecember 31, 2021\n"
    "ASSETS\nCash and cash equivalents\n$\n723,718\n$\n1,763,079\n"
    "Mortgage loans receivable\n50,000\n50,000\n"
    "Total assets\n$\n18,379,456\n$\n19,886,767\n"
    "LIABILITIES AND EQUITY\nLiabilities:\nMortgage notes payable\n3,438,714\n4,309,484\n"
    "Unsecured senior notes (net of discount of $10,683 and $12,296, respectively)\n"
    "5,289,317\n5,287,704\nUnsecured line of credit\n—\n—\n"
    "Mezzanine notes payable\n308,482\n309,796\n"
    "Accounts payable and accrued expenses\n274,709\n243,263\n"
    "Total liabilities\n10,492,529\n11,878,506\n"
    "Total stockholders' equity\n5,709,435\n5,697,298\n"
)


def test_borrowings_listed_by_instrument_are_the_debt_of_a_sheet_that_does_not_class_them():
    """Boston Properties' balance sheet lists no debt line: its borrowings are "Mortgage notes
    payable", "Unsecured senior notes", a line of credit and mezzanine notes, after total
    assets and classed neither current nor not. They are its long-term debt, and the
    calculator adds them; a loan it holds (an asset, before total assets) is none."""
    facts = [f for f in facts_from_page(_stored(110, _UNCLASSED_SHEET), 541) if f.fy == 2022]
    debt = [(f.label.split(" (")[0], f.concept) for f in facts if f.concept == "long_term_debt"]
    assert [label for label, _ in debt] == [
        "Mortgage notes payable",
        "Unsecured senior notes",
        "Unsecured line of credit",
        "Mezzanine notes payable",
    ]
    assert not [f for f in facts if f.label.startswith("Mortgage loans") and f.concept]
    total = calculate("total_debt", facts, Period(fy=2022))
    assert total.value == pytest.approx((3_438_714 + 5_289_317 + 308_482) * 1e3)


@pytest.mark.parametrize(
    ("current", "non_current"),
    [
        ("Recourse debt", "Non-recourse debt, including $760 and $1,030, respectively"),  # AES
        ("Debt and capital lease obligations", "Debt and capital lease obligations"),  # Adobe
        ("Debt, current", "Noncurrent debt"),  # Salesforce
        (  # Foot Locker: finance leases are borrowings too
            "Current portion of debt and obligations under finance leases",
            "Long-term debt and obligations under finance leases",
        ),
    ],
)
def test_debt_rows_read_by_their_names_and_places(current, non_current):
    sheet = _BALANCE_SHEET.replace("Commercial paper\n9,982\n6,000\nTerm debt", current).replace(
        "Non-current liabilities:\nTerm debt", f"Non-current liabilities:\n{non_current}"
    )
    facts = [f for f in facts_from_page(_stored(40, sheet), 540) if f.fy == 2022]
    assert [(f.concept, f.value) for f in facts if "debt" in (f.concept or "")] == [
        ("short_term_debt", 11_128e6),
        ("long_term_debt", 98_959e6),
    ]


def test_a_second_registrants_statements_give_no_facts():
    """PG&E Corporation and its utility file one 10-K, each one's statements in turn: the
    utility's "Common stock dividends paid" ($1,275 million, paid to its parent) had been
    read as PG&E's dividends in a year PG&E Corporation paid none."""
    rest = _CASH_FLOW_REST.removeprefix("Table of Contents\n" + _YEARS)
    parent = "PG&E CORPORATION\n" + _CASH_FLOW_TOP
    utility = "PACIFIC GAS AND ELECTRIC COMPANY\n" + _CASH_FLOW_TOP.replace("2,254", "3,831")
    paid = rest.replace("Repurchases of common stock", "Common stock dividends paid")
    facts = document_facts([_stored(61, parent + rest), _stored(70, utility), _stored(71, paid)])
    assert {f.page_index for f in facts} == {61}  # the utility's page, and its run-on, left out
    assert pick(facts, "cfo", 2022).value == 2_254e6
    assert not [f for f in facts if f.concept == "dividends_paid"]
    # one company's statements, its name above each, are all read
    again = document_facts([_stored(61, parent + rest), _stored(62, parent.replace("2,254", "7"))])
    assert {f.page_index for f in again} == {61, 62}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("PG&E CORPORATION\nCONSOLIDATED STATEMENTS OF INCOME\n", "pgecorporation"),
        ("PG&E CORPORATION\n(DEBTOR-IN-POSSESSION)\nCONSOLIDATED BALANCE SHEETS\n",
         "pgecorporationdebtorinpossession"),
        ("Table of Contents\nNETFLIX, INC.\nCONSOLIDATED BALANCE SHEETS\n", "netflixinc"),
        ("Exhibit 99.3\nCITYCENTER HOLDINGS, LLC\nCONSOLIDATED BALANCE SHEETS\n",
         "citycenterholdingsllc"),
        # Boston Properties' 10-K prints its operating partnership's statements after its own
        ("Table of Contents\nBOSTON PROPERTIES LIMITED PARTNERSHIP\nCONSOLIDATED BALANCE SHEETS\n",
         "bostonpropertieslimitedpartnership"),
        ("CONSOLIDATED BALANCE SHEETS\n(In millions)\n", ""),
        ("The following table shows the gains of the Company's derivative instruments, "
         "which the Company designated\nConsolidated Balance Sheets\n", ""),
    ],
)  # fmt: skip
def test_the_company_a_statement_heading_names(text, name):
    from retrieval.facts.extract import registrant

    assert registrant(text) == name


_SECURITIES_SHEET = (
    "Consolidated Balance Sheets\n(In Millions)\nDec 31, 2022\nDec 25, 2021\n"
    "Assets\nCurrent assets:\nCash and cash equivalents\n$\n5,865\n$\n4,194\n"
    "Short-term investments\n2,292\n1,082\nTrading assets\n15,738\n7,847\n"
    "Accounts receivable, net of allowance for doubtful accounts\n6,782\n7,659\n"
    "Total current assets\n47,249\n31,239\nTotal assets\n$\n153,091\n$\n136,524\n"
    "Current liabilities:\nShort-term debt\n$\n2,504\n$\n3,693\n"
    "Total current liabilities\n24,754\n22,310\n"
)


def test_securities_among_current_assets_are_quick_assets_under_any_of_their_names():
    """Intel holds "Trading assets" beside its "Short-term investments", both among current
    assets: both are short-term investments, and the quick ratio counts both (without the
    trading assets it read 0.60 for a company whose quick assets cover its current
    liabilities 1.24 times)."""
    facts = [f for f in facts_from_page(_stored(78, _SECURITIES_SHEET), 542) if f.fy == 2022]
    assert [f.label for f in facts if f.concept == "short_term_investments"] == [
        "Short-term investments",
        "Trading assets",
    ]
    quick = calculate("quick_ratio", facts, Period(fy=2022))
    assert quick.value == pytest.approx((5_865 + 2_292 + 15_738 + 6_782) / 24_754)


def test_a_banks_unclassed_trading_book_is_no_short_term_investment():
    """A bank's balance sheet classes nothing as current: its trading assets are its trading
    book, not a quick asset."""
    sheet = _SECURITIES_SHEET.replace("Current assets:\n", "").replace("Current liabilities:\n", "")
    facts = [f for f in facts_from_page(_stored(78, sheet), 543) if f.fy == 2022]
    assert [f.concept for f in facts if f.label == "Trading assets"] == [None]
