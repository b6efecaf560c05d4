import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from retrieval.companies import load_companies
from retrieval.ingest.filenames import parse_doc_name
from retrieval.pages import doc_label, normalise_doc_type, page_uid

COMPANIES = load_companies()


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("3M_2018_10K.pdf", ("MMM", 2018, 4, "10-K", None)),
        ("PEPSICO_2023Q2_10Q.pdf", ("PEP", 2023, 2, "10-Q", None)),
        ("PEPSICO_2022Q4_EARNINGS.pdf", ("PEP", 2022, 4, "EARNINGS", None)),
        ("PEPSICO_2023_8K_dated-2023-05-05.pdf", ("PEP", 2023, 2, "8-K", "2023-05-05")),
        ("MCDONALDS_8K_dated-2023-02-13", ("MCD", 2023, 1, "8-K", "2023-02-13")),
        ("AMD_2022_annualreport", ("AMD", 2022, 4, "ANNUAL REPORT", None)),
        ("PG_E_2023_EARNINGS-dated-2023-07-27", ("PCG", 2023, 3, "EARNINGS", "2023-07-27")),
        ("JOHNSON_JOHNSON_2022_10K", ("JNJ", 2022, 4, "10-K", None)),
    ],
)
def test_parse_doc_name(name, expected):
    meta = parse_doc_name(name, COMPANIES)
    assert (meta.ticker, meta.fy, meta.fq, meta.doc_type, meta.doc_date) == expected


@pytest.mark.parametrize(
    "name", ["UNKNOWNCO_2018_10K.pdf", "3M_10K.pdf", "3M_2018_20F.pdf", "3M_2018Q5_10Q.pdf"]
)
def test_unreadable_names_raise_clear_errors(name):
    with pytest.raises(ValueError, match=r"cannot read|no known company"):
        parse_doc_name(name, COMPANIES)


def test_every_financebench_document_name_parses_to_its_metadata(shared_data):
    for line in (shared_data / "docs.jsonl").read_text().splitlines():
        doc = json.loads(line)
        meta = parse_doc_name(doc["doc_name"], COMPANIES)
        assert meta.ticker == doc["ticker"], doc["doc_name"]
        assert meta.fy == doc["doc_period"], doc["doc_name"]
        assert meta.doc_type == normalise_doc_type(doc["doc_type"])
        if doc["fiscal_quarter"]:
            assert meta.fq == doc["fiscal_quarter"]


def test_labels_follow_the_spec():
    assert doc_label("MMM", "10-K", 2018, 4) == "MMM 10-K FY2018"
    assert doc_label("KO", "EARNINGS", 2024, 4) == "KO Earnings FY2024 Q4"
    assert doc_label("PEP", "10-Q", 2023, 2) == "PEP 10-Q FY2023 Q2"


@given(st.text(min_size=1, max_size=40), st.integers(0, 5000))
def test_uid_is_stable_12_hex(doc, index):
    uid = page_uid(doc, index)
    assert uid == page_uid(doc, index)
    assert len(uid) == 12 and int(uid, 16) >= 0
    assert uid != page_uid(doc, index + 1)
