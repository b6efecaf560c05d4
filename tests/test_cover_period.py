"""A filing's cover states its period, and that outranks its file name
(``retrieval.ingest.cover_period``, used by ``retrieval.ingest.pipeline.ingest``)."""

from __future__ import annotations

import calendar
import gzip
import json
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from retrieval.ingest.cover_period import as_its_cover_says, cover_period_end
from retrieval.ingest.pipeline import ingest
from retrieval.ingest.report import Document
from retrieval.pages import Page
from retrieval.sqlite.store import SQLiteStore

MONTHS = list(calendar.month_name)[1:]


def _cover(kind: str, end: date, gap: str = " ", comma: str = ", ") -> str:
    return (
        "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-Q\n"
        f"For the {kind} ended{gap}{MONTHS[end.month - 1]} {end.day}{comma}{end.year}\nOR"
    )


@given(
    end=st.dates(date(1990, 1, 1), date(2090, 12, 31)),
    gap=st.sampled_from([" ", "\n", " Commission file ", "\n \n"]),
    comma=st.sampled_from([", ", ",", " ", " ,\n"]),
    upper=st.booleans(),
)
def test_a_cover_sentence_gives_back_the_date_it_states(end, gap, comma, upper):
    text = _cover("quarterly period", end, gap, comma)
    assert cover_period_end("10-Q", text.upper() if upper else text) == end
    annual = _cover("fiscal year", end, gap, comma)
    assert cover_period_end("10-K", annual.upper() if upper else annual) == end


@pytest.mark.parametrize(
    "doc_type, text, expected",
    [
        # PDF text splits a word, and a form's labels stand between the words and the date
        ("10-K", "For the fis cal year ended December 31, 2017 OR", date(2017, 12, 31)),
        (
            "10-Q",
            "For the quarterly period ended Commission file March 31, 2021 number 1-5805",
            date(2021, 3, 31),
        ),
        ("10-K", "For the year ended May 31, 2023", date(2023, 5, 31)),
        # a 10-Q's cover names a quarter; a year-to-date table's heading is no cover
        ("10-Q", "For the nine months ended September 30, 2022", None),
        # another sentence's date is not the cover's
        ("10-Q", "For the quarterly period ended. Filed on March 31, 2021", None),
        ("10-K", "For the fiscal year ended February 30, 2021", None),
        ("8-K", "For the quarterly period ended March 31, 2021", None),
        ("10-Q", "Net revenues for the quarter were $2,540 million", None),
    ],
)
def test_cover_sentences_as_filings_print_them(doc_type, text, expected):
    assert cover_period_end(doc_type, text) == expected


def _page(doc_name, fy, fq, doc_type, index, text, ticker="PCG"):
    return Page(
        doc_name=doc_name,
        ticker=ticker,
        company="PG&E",
        fy=fy,
        fq=fq,
        doc_type=doc_type,
        page_index=index,
        text=text,
    )


def test_a_filing_named_for_another_period_moves_to_its_covers_cell():
    cover = _cover("quarterly period", date(2022, 9, 30))
    document = Document(
        "PG_E_2023Q3_10Q",
        [_page("PG_E_2023Q3_10Q", 2023, 3, "10-Q", i, t) for i, t in enumerate([cover, "x"])],
    )
    moved, note = as_its_cover_says(document, "1231")
    assert {(p.fy, p.fq) for p in moved.pages} == {(2022, 3)}
    assert note == (
        "its cover states the quarterly period ended September 30, 2022: stored as PCG "
        "FY2022 Q3, not FY2023 Q3 as its name says"
    )


def test_a_cover_is_read_in_the_companys_fiscal_calendar():
    # Adobe's year ends around November 30: the quarter ended June 2, 2023 is FY2023 Q2
    cover = _cover("quarterly period", date(2023, 6, 2))
    named = Document("ADOBE_2022Q2_10Q", [_page("ADOBE_2022Q2_10Q", 2022, 2, "10-Q", 0, cover)])
    moved, note = as_its_cover_says(named, "1130")
    assert (moved.pages[0].fy, moved.pages[0].fq) == (2023, 2) and "FY2023 Q2" in note
    # the same cover under the name it should have is left alone
    right = Document("ADOBE_2023Q2_10Q", [_page("ADOBE_2023Q2_10Q", 2023, 2, "10-Q", 0, cover)])
    assert as_its_cover_says(right, "1130") == (right, None)


def test_a_cover_past_the_first_two_pages_or_none_leaves_the_name_standing():
    cover = _cover("quarterly period", date(2022, 9, 30))
    late = Document(
        "PG_E_2023Q3_10Q",
        [_page("PG_E_2023Q3_10Q", 2023, 3, "10-Q", i, t) for i, t in enumerate(["a", "b", cover])],
    )
    assert as_its_cover_says(late, "1231") == (late, None)
    release = Document("X", [_page("X", 2023, 3, "EARNINGS", 0, cover)])
    assert as_its_cover_says(release, "1231") == (release, None)
    assert as_its_cover_says(Document("X", []), "1231") == (Document("X", []), None)


def _rows(doc_name, ticker, doc_type, fy, fq, first_page):
    return [
        {
            "doc_name": doc_name,
            "company": ticker,
            "ticker": ticker,
            "doc_type": doc_type,
            "doc_period": fy,
            "fiscal_quarter": fq,
            "doc_date": None,
            "page_num": i,
            "text": text,
        }
        for i, text in enumerate([first_page, "Net cash provided by operating activities 2,712"])
    ]


def test_ingest_stores_a_mislabelled_filing_in_its_covers_cell_and_says_so(tmp_path):
    rows = [
        *_rows(
            "PG_E_2023Q3_10Q", "PCG", "10Q", 2023, 3, _cover("quarterly period", date(2022, 9, 30))
        ),
        *_rows(
            "PG_E_2022_10K", "PCG", "10K", 2022, None, _cover("fiscal year", date(2022, 12, 31))
        ),
        # a company the map does not know: its year end is unknown, so its name stands
        *_rows(
            "ACME_2023Q3_10Q", "ACME", "10Q", 2023, 3, _cover("quarterly period", date(2022, 9, 30))
        ),
    ]
    path = tmp_path / "pages.jsonl.gz"
    with gzip.open(path, "wt") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)
    store = SQLiteStore(tmp_path / "g.sqlite")
    try:
        report = ingest(path, store)
        cells = {(c.ticker, c.fy, c.fq) for c in store.cells()}
    finally:
        store.close()
    assert cells == {("PCG", 2022, 3), ("PCG", 2022, 4), ("ACME", 2023, 3)}
    assert [name for name, _ in report.warnings] == ["PG_E_2023Q3_10Q"]
    assert report.documents == 3
