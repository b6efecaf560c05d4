"""`research ingest FOLDER` accounts for every file: any-case .pdf, unreadable, unnamed.

The company map and filings here are made up (ACME); the PDFs are written by PyMuPDF.
"""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf
from typer.testing import CliRunner
from unprivileged import run_unprivileged

from cli.app import app
from retrieval.ingest import count_documents, ingest
from retrieval.sqlite_store import SQLiteStore

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
    assert count_documents(folder) == 3
    store = SQLiteStore(tmp_path / "g.sqlite")
    report = ingest(folder, store, str(_companies(tmp_path)))
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
