"""`research ingest FOLDER` accounts for every file: any-case .pdf, unreadable, unnamed;
and its progress bar knows how many documents there are (a folder's, a pages file's).

The company map and filings here are made up (ACME); the PDFs are written by PyMuPDF.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pymupdf
import pytest
from typer.testing import CliRunner
from unprivileged import run_unprivileged

from cli.app import app
from retrieval.ingest.pipeline import ingest
from retrieval.sqlite.store import SQLiteStore

runner = CliRunner()
ESCAPE = "\x1b[2J\x1b[31m"  # clear the screen, then print in red


def _companies(folder: Path) -> Path:
    path = folder / "companies.json"
    path.write_text(json.dumps({"Acme Corp": {"ticker": "ACME", "doc_name_prefixes": ["ACME"]}}))
    return path


def _write_pdf(path: Path, text: str = "Acme Corp net revenue was $12.3 million.") -> None:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), text)
    path.write_bytes(doc.tobytes())  # MuPDF's own save cannot take some file names
    doc.close()


def test_pdf_extension_matches_in_any_case(tmp_path):
    folder = tmp_path / "filings"
    (folder / "older").mkdir(parents=True)
    _write_pdf(folder / "ACME_2017_10K.PDF")
    _write_pdf(folder / "older" / "ACME_2016_10K.Pdf")
    _write_pdf(folder / "ACME_2018_10K.pdf")
    store = SQLiteStore(tmp_path / "g.sqlite")
    totals: list[int] = []
    report = ingest(folder, store, str(_companies(tmp_path)), on_total=totals.append)
    assert totals == [3]
    assert (report.documents, report.skipped) == (3, [])
    assert {c.fy for c in store.cells()} == {2016, 2017, 2018}
    store.close()


def test_ingest_names_every_file_it_did_not_take_and_escapes_terminal_codes(tmp_path):
    folder = tmp_path / "filings"
    folder.mkdir()
    _write_pdf(folder / "ACME_2017_10K.PDF")
    _write_pdf(folder / f"ACME_2018{ESCAPE}_10K.pdf")
    _write_pdf(folder / "[red]ACME_2019_10K[bold].pdf")
    (folder / "readme.txt").write_text("not a filing")
    result = runner.invoke(
        app,
        [
            "ingest",
            str(folder),
            "--store",
            str(tmp_path / "g.sqlite"),
            "--companies",
            str(_companies(tmp_path)),
            "--embed",
            "skip",
        ],
    )
    assert result.exit_code == 1, result.output  # something was skipped
    assert "ingested 1 documents, 1 pages" in result.stdout
    assert "\x1b" not in result.output, "a terminal escape code reached the terminal"
    assert "ACME_2018\\x1b[2J\\x1b[31m_10K.pdf" in result.output  # shown, escaped
    assert "[red]ACME_2019_10K[bold].pdf" in result.output  # Rich markup shown, not applied
    assert "readme.txt" in result.output and "not a PDF" in result.output


def _unreadable_files_and_folders_are_reported(folder: Path) -> None:
    filings = folder / "filings"
    locked = filings / "locked"
    locked.mkdir(parents=True)
    _write_pdf(filings / "ACME_2017_10K.pdf")
    _write_pdf(filings / "ACME_2018_10K.pdf")
    _write_pdf(locked / "ACME_2019_10K.pdf")
    (filings / "ACME_2018_10K.pdf").chmod(0o000)
    locked.chmod(0o000)
    store = SQLiteStore(folder / "g.sqlite")
    report = ingest(filings, store, str(_companies(folder)))
    store.close()
    locked.chmod(0o755)
    skipped = {Path(name).name: why for name, why in report.skipped}
    assert report.documents == 1
    assert set(skipped) == {"ACME_2018_10K.pdf", "locked"}, skipped
    assert "unreadable folder" in skipped["locked"]


def test_unreadable_files_and_folders_are_reported_not_passed_over():
    run_unprivileged(_unreadable_files_and_folders_are_reported)


def _pages_file(path: Path, docs: list[str], interleaved: bool = False) -> Path:
    rows = [
        {
            "doc_name": doc,
            "company": "3M",
            "ticker": "MMM",
            "doc_type": "10K",
            "doc_period": int(doc.split("_")[1]),
            "page_num": page,
            "text": f"{doc} page {page}: capital expenditures",
        }
        for page in range(2)
        for doc in docs
    ]
    if not interleaved:
        rows.sort(key=lambda r: r["doc_name"])
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        handle.writelines(json.dumps(r) + "\n" for r in rows)
    return path


@pytest.mark.parametrize("interleaved", [False, True])
def test_a_pages_file_gives_its_document_total_before_the_first_document(tmp_path, interleaved):
    docs = ["3M_2018_10K", "3M_2019_10K", "3M_2020_10K"]
    path = _pages_file(tmp_path / "pages.jsonl.gz", docs, interleaved)
    events: list[object] = []
    store = SQLiteStore(tmp_path / "g.sqlite")
    report = ingest(
        path,
        store,
        on_total=lambda n: events.append(("total", n)),
        on_document=lambda doc: events.append(doc.name),
    )
    store.close()
    assert report.documents == 3
    assert events[0] == ("total", 3) and sorted(events[1:]) == docs


def test_ingest_progress_shows_the_total_of_a_pages_file(tmp_path):
    """It showed ``3/?``: the total of a pages file was never given to the bar."""
    docs = ["3M_2018_10K", "3M_2019_10K", "3M_2020_10K"]
    path = _pages_file(tmp_path / "pages.jsonl.gz", docs)
    result = runner.invoke(
        app, ["ingest", str(path), "--store", str(tmp_path / "g.sqlite"), "--embed", "skip"]
    )
    assert result.exit_code == 0, result.output
    assert "ingesting documents" in result.stderr
    assert "3/3" in result.stderr and "/?" not in result.stderr
