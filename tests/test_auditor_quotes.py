"""Who audits the company is answered by the signature on the 10-K's auditor's report
(``programs.auditor_quotes``), through the probe loop with no model call."""

from __future__ import annotations

import pytest
from cited import TwoPageSearcher, closed_by_code, filing_page

from programs.auditor_quotes import asks_auditor, auditor_answer, quoted_auditor

ASKED = "Who is Shop's independent registered public accounting firm according to its 10-K?"
REPORT = (
    "Report of Independent Registered Public Accounting Firm\nTo the Shareholders of Shop "
    "Inc.\nOpinion on the Financial Statements … In our opinion, the financial statements "
    "present fairly …\n/s/ Ernst & Young LLP\nWe have served as Shop Inc.’s auditor since "
    "2009.\nSan Jose, California\n"
)
#: A company that changed auditors prints the former one's report on its earlier years.
FORMER = (
    "Report of Independent Registered Public Accounting Firm\n… for the year ended December "
    "31, 2021 …\n/s/ KPMG LLP\nWe served as the Company's auditor from 2011 to 2022.\n"
)


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        (ASKED, True),
        ("Who audits Shop?", True),
        ("Which accounting firm audited Shop's FY2021 financial statements?", True),
        ("Who is Shop's auditor?", True),
        ("What were Shop's audit fees in FY2022?", False),
        ("Who chairs Shop's audit committee?", False),
        ("What is the auditor's opinion on Shop's internal control?", False),
        ("What was Shop's revenue in FY2022?", False),
    ],
)
def test_what_asks_for_the_auditor(question, asked):
    assert asks_auditor(question) is asked


def test_the_firm_that_signed_the_report_answers_with_the_year_it_serves_since():
    """Apple's FY2022: the model answered "Apple Inc. is Apple's independent registered
    public accounting firm" from this page."""
    page = filing_page(REPORT, 53)
    found = quoted_auditor(ASKED, [filing_page("Revenue grew.", 3), page])
    assert found == (page, "Ernst & Young LLP", "2009")
    assert auditor_answer(*found).body == (
        "Ernst & Young LLP: it signed the report of independent registered public accounting "
        "firm in the SHOP 10-K FY2023, and has served as the company's auditor since 2009¹."
    )


def test_of_two_firms_the_one_serving_answers_and_a_name_in_capitals_gives_way():
    found = quoted_auditor(ASKED, [filing_page(FORMER, 60), filing_page(REPORT, 58)])
    assert found is not None and found[1:] == ("Ernst & Young LLP", "2009")
    capitals = REPORT.replace("Ernst & Young LLP", "ERNST & YOUNG LLP")
    found = quoted_auditor(ASKED, [filing_page(capitals, 58), filing_page(REPORT, 59)])
    assert found is not None and found[1] == "Ernst & Young LLP"


@pytest.mark.parametrize(
    "pages",
    [
        # two firms sign and neither says it serves: the research settles it
        [filing_page(FORMER.replace("We served as", "We were"), 60),
         filing_page(REPORT.replace("We have served as Shop Inc.’s auditor since 2009.", ""), 58)],
        # officers' signatures are no auditor's
        [filing_page("SIGNATURES\n/s/ Jane Doe\nChief Executive Officer", 90)],
        # a quarter's 10-Q carries no auditor's report
        [filing_page(REPORT, label="SHOP 10-Q FY2023 Q2")],
    ],
)  # fmt: skip
def test_no_answer_where_the_pages_do_not_settle_it(pages):
    assert quoted_auditor(ASKED, pages) is None


def test_the_probe_loop_closes_the_questions_probe_with_the_signature_and_no_model_call():
    outcome = closed_by_code(ASKED, TwoPageSearcher(REPORT))
    assert outcome.answer.answer.body.startswith("Ernst & Young LLP: it signed the report")
