"""Ingestion from real PDFs and from the pre-extracted pages format."""

import gzip
import json
import shutil

import pymupdf
import pytest

from retrieval.ingest.pipeline import ingest
from retrieval.pages import page_uid
from retrieval.sqlite.store import SQLiteStore


@pytest.fixture
def store(tmp_path):
    s = SQLiteStore(tmp_path / "g.sqlite")
    yield s
    s.close()


def reference_pages(shared, doc_name):
    with gzip.open(shared / "pages.jsonl.gz", "rt") as f:
        return {r["page_num"]: r["text"] for r in map(json.loads, f) if r["doc_name"] == doc_name}


@pytest.mark.slow
def test_real_pdf_pages_match_financebench_extraction(shared_data, store, tmp_path):
    folder = tmp_path / "pdfs"
    folder.mkdir()
    name = "PEPSICO_2023_8K_dated-2023-05-05"
    shutil.copy(shared_data / "pdfs" / f"{name}.pdf", folder)
    report = ingest(folder, store)
    assert (report.documents, report.skipped) == (1, [])
    pages = store.document_pages(name)
    expected = reference_pages(shared_data, name)
    assert len(pages) == len(expected) == report.pages
    for page in pages:
        # PyMuPDF versions differ only in which space characters they emit.
        assert page.text.split() == expected[page.page_index].split()
        assert page.uid == page_uid(name, page.page_index)
        assert (page.ticker, page.fy, page.doc_type, page.doc_date) == (
            "PEP",
            2023,
            "8-K",
            "2023-05-05",
        )


def test_corrupt_encrypted_and_unnamed_pdfs_are_skipped_and_the_rest_ingested(
    shared_data, store, tmp_path
):
    folder = tmp_path / "pdfs"
    folder.mkdir()
    shutil.copy(shared_data / "pdfs" / "PEPSICO_2023Q1_EARNINGS.pdf", folder)
    (folder / "3M_2019_10K.pdf").write_bytes(b"%PDF-1.7 this is not really a pdf")
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "secret numbers")
    doc.save(
        folder / "COCACOLA_2019_10K.pdf",
        encryption=pymupdf.PDF_ENCRYPT_AES_256,
        owner_pw="o",
        user_pw="u",
    )
    (folder / "notes.pdf").write_bytes(b"%PDF-1.4")
    report = ingest(folder, store)
    assert report.documents == 1
    skipped = dict(report.skipped)
    assert set(map(lambda p: p.rsplit("/", 1)[-1], skipped)) == {
        "3M_2019_10K.pdf",
        "COCACOLA_2019_10K.pdf",
        "notes.pdf",
    }
    assert any("encrypted" in why for why in skipped.values())
    assert store.stats()["documents"] == 1


def test_jsonl_ingest_replaces_on_second_run(store, tmp_path):
    rows = [
        {
            "doc_name": "3M_2018_10K",
            "company": "3M",
            "ticker": "MMM",
            "doc_type": "10K",
            "doc_period": 2018,
            "fiscal_quarter": None,
            "doc_date": None,
            "page_num": i,
            "text": f"page {i} capital expenditures",
        }
        for i in range(3)
    ]
    path = tmp_path / "pages.jsonl.gz"
    with gzip.open(path, "wt") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)
    assert ingest(path, store).pages == 3
    assert ingest(path, store).pages == 3
    assert store.stats()["pages"] == 3
    assert {(c.ticker, c.fy, c.fq) for c in store.cells()} == {("MMM", 2018, 4)}


def test_bad_rows_are_reported(store, tmp_path):
    path = tmp_path / "pages.jsonl"
    path.write_text(json.dumps({"doc_name": "X_2018_10K", "text": "no metadata"}) + "\n")
    report = ingest(path, store)
    assert report.documents == 0 and report.skipped[0][0] == "X_2018_10K"


def test_unknown_path_kinds_are_refused(store, tmp_path):
    (tmp_path / "a.txt").write_text("x")
    with pytest.raises(ValueError, match="expected a folder"):
        ingest(tmp_path / "a.txt", store)
    with pytest.raises(FileNotFoundError):
        ingest(tmp_path / "missing", store)
