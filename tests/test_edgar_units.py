"""The parts of `research fetch` that need no server: labelling cells, cutting documents
into pages, placing XBRL values in the fiscal calendar, choosing filings."""

from __future__ import annotations

import pymupdf
import pytest

from edgar.cells import Placement as P
from edgar.cells import cell_from_date, filing_cell
from edgar.citing import printed_forms
from edgar.documents import PAGE_TARGET_CHARS, document_pages, html_pages, table_lines
from edgar.errors import DocumentError, EdgarInputError
from edgar.filings import Filing, all_filings, parse_forms, select
from edgar.xbrl import filing_facts, filing_focus


def filing(form="10-K", report="2023-12-31", filed="2024-02-20", accession="0000000001-24-000001"):
    return Filing(accession, form, filed, report, "doc.htm")


@pytest.mark.parametrize(
    ("end", "fye", "annual", "cell"),
    [
        ("2023-12-31", "1231", True, (2023, 4)),  # calendar year
        ("2023-05-31", "0531", True, (2023, 4)),  # Nike: FY2023 ends in May 2023
        ("2023-08-31", "0531", False, (2024, 1)),  # ... and its next quarter is FY2024 Q1
        ("2024-01-31", "0131", True, (2024, 4)),  # Walmart: FY2024 ends January 2024
        ("2023-07-01", "0930", False, (2023, 3)),  # Apple: a 52/53-week quarter end
        ("2023-12-30", "0930", False, (2024, 1)),
        ("2016-01-03", "1231", True, (2015, 4)),  # a 53-week year ending January 3
        ("2024-06-30", None, False, (2024, 2)),  # no fiscal year end known: December
    ],
)
def test_cells_from_report_dates(end, fye, annual, cell):
    found = cell_from_date(end, fye, annual)
    assert (found.fy, found.fq) == cell and found.source == "report date"


def test_the_filings_own_xbrl_focus_wins_over_the_date_rule():
    # Target names the year ending February 3, 2024 "fiscal 2023"; its XBRL says so.
    assert filing_cell(filing(report="2024-02-03"), "0203", (2023, "FY")) == P(2023, 4, "xbrl")
    assert filing_cell(filing("10-Q", "2024-06-30"), "1231", (2024, "Q2")) == P(2024, 2, "xbrl")


def test_an_xbrl_focus_that_does_not_fit_the_form_or_date_is_not_used():
    assert filing_cell(filing(), "1231", (2031, "FY")).source == "report date"
    assert filing_cell(filing("10-Q", "2024-06-30"), "1231", (2024, "FY")) == P(
        2024, 2, "report date"
    )


def test_an_8k_takes_the_calendar_quarter_of_its_date():
    assert filing_cell(filing("8-K", "2023-05-05"), "0531", None) == P(2023, 2, "event date")
    assert filing_cell(filing("8-K", None, "2023-11-02"), "1231", None) == P(2023, 4, "event date")


def test_amendments_take_their_forms_cell_and_forms_are_checked():
    assert filing_cell(filing("10-K/A"), "1231", None) == P(2023, 4, "report date")
    assert parse_forms(None) == ("10-K", "10-Q")
    assert parse_forms(" 10-k, 8-K,10-k ") == ("10-K", "8-K")
    with pytest.raises(EdgarInputError, match="S-1"):
        parse_forms("10-K,S-1")


def test_older_submission_files_are_read_only_when_since_reaches_them():
    recent = {
        "accessionNumber": ["0000000001-24-000001", "bad"],
        "form": ["10-K", "10-K"],
        "filingDate": ["2024-02-20", "2024-02-21"],
        "reportDate": ["2023-12-31", ""],
        "primaryDocument": ["a.htm", "b.htm"],
    }
    older = dict(recent, accessionNumber=["0000000001-15-000001"], filingDate=["2015-02-20"])
    older.update(reportDate=["2014-12-31"], primaryDocument=["../x.htm"])
    submissions = {
        "filings": {"recent": recent, "files": [{"name": "f1.json", "filingTo": "2015"}]}
    }
    loaded = []

    def load(name):
        loaded.append(name)
        return dict(older, primaryDocument=["old.htm"])

    assert [f.accession for f in all_filings(submissions, 2020, load)] == ["0000000001-24-000001"]
    assert loaded == []
    found = select(all_filings(submissions, 2014, load), ("10-K",))
    assert [f.primary_document for f in found] == ["old.htm", "a.htm"] and loaded == ["f1.json"]


def test_html_pages_split_at_rules_when_no_style_breaks():
    pages = html_pages(b"<html><body><p>one</p><hr><p>two</p><hr/><p>three</p></body></html>")
    assert pages == ["one", "two", "three"]


def test_html_without_breaks_is_cut_by_size_at_line_ends():
    body = "".join(f"<p>{'word ' * 20}line {i}</p>" for i in range(400))
    pages = html_pages(f"<html><body>{body}</body></html>".encode())
    assert len(pages) > 1 and all(len(p) <= PAGE_TARGET_CHARS + 200 for p in pages)
    assert pages[0].endswith(tuple(f"line {i}" for i in range(400)))


def test_hidden_inline_xbrl_is_not_page_text_and_cells_read_as_pymupdf_prints_them():
    doc = b"""<html><body><div style="display:none"><ix:header>secret 999</ix:header></div>
    <table><tr><td>Purchases of PP&amp;E</td><td>$</td><td>(1,577</td><td>)</td>
    <td>12.5</td><td>%</td></tr></table></body></html>"""
    assert html_pages(doc) == ["Purchases of PP&E\n(1,577)\n12.5%"]
    from lxml import html

    table = html.fromstring("<table><tr><td>Sales</td><td>$ 3,200</td></tr></table>")
    assert table_lines(table) == ["Sales", "3,200"]


def test_pdf_primary_documents_are_read_by_pymupdf():
    pdf = pymupdf.open()
    for text in ("first page", "second page"):
        pdf.new_page().insert_text((72, 72), text)
    pages = document_pages(pdf.tobytes(), "filing.pdf")
    assert [p.strip() for p in pages] == ["first page", "second page"]


@pytest.mark.parametrize(
    ("content", "name", "why"),
    [
        (b"<html><body></body></html>", "a.htm", "holds no text"),
        (b"%PDF-1.7 damaged", "a.pdf", "unreadable PDF"),
        (b"\x00\x01", "a.zip", "not an HTML, PDF or text document"),
    ],
)
def test_documents_that_cannot_be_pages_are_one_error(content, name, why):
    with pytest.raises(DocumentError, match=why):
        document_pages(content, name)


def test_printed_forms_of_a_value():
    assert printed_forms(-1_577_000_000, "USD") == [
        ("1,577", 0),
        ("1,577,000", 1),
        ("1,577,000,000", 2),
    ]
    assert printed_forms(3.23, "USD/share") == [("3.23", 0)]
    assert printed_forms(5_000_000, "USD") == [("5,000", 1), ("5,000,000", 2)]  # not "5"


COMPANYFACTS = {
    "facts": {
        "us-gaap": {
            "Assets": {
                "label": "Assets",
                "units": {
                    "USD": [
                        {"end": "2024-06-30", "val": 5.0e9, "accn": "A", "fy": 2024, "fp": "Q2"},
                        {"end": "2023-12-31", "val": 4.0e9, "accn": "A", "fy": 2024, "fp": "Q2"},
                        {"end": "2023-06-30", "val": 3.0e9, "accn": "A", "fy": 2024, "fp": "Q2"},
                        {"end": "2023-12-31", "val": 9.9e9, "accn": "B", "fy": 2023, "fp": "FY"},
                    ]
                },
            },
            "Revenues": {
                "label": "Revenues",
                "units": {
                    "USD": [
                        {"start": "2024-04-01", "end": "2024-06-30", "val": 1.0, "accn": "A"},
                        {"start": "2023-07-01", "end": "2024-06-30", "val": 4.0, "accn": "A"},
                        {"start": "2024-01-01", "end": "2024-06-30", "val": 2.0, "accn": "A"},
                    ],
                    "EUR": [{"start": "2024-04-01", "end": "2024-06-30", "val": 9.0, "accn": "A"}],
                },
            },
            "RevenueFromContractWithCustomerExcludingAssessedTax": {
                "label": "Revenue from contracts",
                "units": {
                    "USD": [{"start": "2024-04-01", "end": "2024-06-30", "val": 7.0, "accn": "A"}]
                },
            },
        }
    }
}


def test_xbrl_values_are_placed_in_the_filings_calendar():
    assert filing_focus(COMPANYFACTS, "A") == (2024, "Q2") and filing_focus(None, "A") is None
    facts = filing_facts(COMPANYFACTS, "A", P(2024, 2, "xbrl"), "2024-06-30", annual=False)
    placed = {(f.concept, f.fy, f.fq, f.duration): f.value for f in facts}
    assert placed == {
        ("total_assets", 2024, 2, "instant"): 5.0e9,
        ("total_assets", 2023, None, "instant"): 4.0e9,  # the fiscal year-end
        ("total_assets", 2023, 2, "instant"): 3.0e9,
        ("revenue", 2024, 2, "quarter"): 1.0,  # Revenues first: the other tag is not stored
        ("revenue", 2024, 2, "ytd"): 2.0,  # twelve trailing months and EUR are left out
    }


def test_a_stored_filings_cell_is_read_back_from_its_name():
    from edgar.fetch import doc_name_for, stored_cell

    for form, report, cell in [
        ("10-K", "2023-12-31", P(2023, 4, "xbrl")),
        ("10-Q", "2024-06-30", P(2024, 2, "xbrl")),
        ("10-Q/A", "2024-06-30", P(2024, 2, "xbrl")),
        ("8-K", "2024-10-24", P(2024, 4, "event date")),
    ]:
        name = doc_name_for("BRK.B", cell, filing(form, report))
        assert stored_cell(name) == P(cell.fy, cell.fq, "stored"), name
    assert stored_cell("3M_2018_10K") is None


def test_deeply_nested_html_is_read_or_one_error_never_a_crash():
    deep = b"<html><body>" + b"<div>" * 5000 + b"x" + b"</div>" * 5000 + b"</body></html>"
    try:
        pages = document_pages(deep, "deep.htm")
    except DocumentError as exc:  # libxml2 stops at its depth limit: the text is lost
        assert "nested too deeply" in str(exc) or "holds no text" in str(exc)
    else:
        assert pages == ["x"]
