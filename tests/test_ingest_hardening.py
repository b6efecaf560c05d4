"""`research ingest` on odd data: interleaved and repeated page rows, oversized pages, a
truncated ``pages.jsonl.gz``, numbers no store can hold, and a ``--store`` that is another
program's database. Each costs what it touches and is said in one line; none loses a page
silently or aborts the whole ingest."""

from __future__ import annotations

import gzip
import json
import math
import os
import random
import sqlite3
import string
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.app import app
from retrieval.ingest.pages_file import jsonl_documents
from retrieval.ingest.pipeline import MAX_PAGE_CHARS, ingest
from retrieval.ingest.report import IngestReport
from retrieval.sqlite.store import NotAGridStore, SQLiteStore
from retrieval.store import GridFilter

runner = CliRunner()
FIXTURE = Path(__file__).parent / "fixtures" / "facts_statement_pages.jsonl"
ROOT = Path(__file__).resolve().parents[1]


def row(doc: str, page: int, text: str | None = None, **fields: object) -> dict:
    """A FinanceBench-format page row of a 3M 10-K called ``doc``."""
    base = {
        "doc_name": doc,
        "company": "3M",
        "ticker": "MMM",
        "doc_type": "10K",
        "doc_period": 2018,
        "fiscal_quarter": None,
        "doc_date": None,
        "page_num": page,
        "text": f"{doc} page {page} capital expenditures" if text is None else text,
    }
    return {**base, **fields}


def write_rows(path: Path, rows: list[dict]) -> Path:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "wt", encoding="utf-8") as handle:
        handle.writelines(json.dumps(r) + "\n" for r in rows)
    return path


def stored(store: SQLiteStore, doc: str) -> dict[int, str]:
    return {p.page_index: p.text for p in store.document_pages(doc)}


@pytest.fixture
def store(tmp_path):
    s = SQLiteStore(tmp_path / "grid.sqlite")
    yield s
    s.close()


def cli_ingest(path: Path, store: Path, *args: str):
    return runner.invoke(
        app, ["ingest", str(path), "--store", str(store), "--embed", "skip", *args]
    )


# -- 8. interleaved and repeated rows --------------------------------------------------


def test_interleaved_documents_keep_every_page_and_the_summary_counts_what_is_stored(
    store, tmp_path
):
    order = [("A", 0), ("A", 1), ("B", 0), ("B", 1), ("A", 2), ("C", 0), ("B", 2), ("A", 3)]
    path = write_rows(tmp_path / "pages.jsonl.gz", [row(d, i) for d, i in order])
    report = ingest(path, store)
    assert {d: sorted(stored(store, d)) for d in "ABC"} == {
        "A": [0, 1, 2, 3],
        "B": [0, 1, 2],
        "C": [0],
    }
    assert (report.documents, report.pages, report.duplicates) == (3, 8, 0)
    assert store.stats() == {"pages": 8, "documents": 3, "vectors": 0}
    assert report.skipped == [] and report.file_error is None


def test_a_repeated_page_row_is_stored_once_the_last_row_winning_and_counted(store, tmp_path):
    rows = [row("A", 0, "first"), row("A", 1), row("B", 0), row("A", 0, "second"), row("A", 1)]
    report = ingest(write_rows(tmp_path / "pages.jsonl", rows), store)
    assert stored(store, "A") == {0: "second", 1: "A page 1 capital expenditures"}
    assert (report.duplicates, report.duplicates_differing) == (2, 1)
    assert (report.documents, report.pages) == (2, 3) == (2, store.stats()["pages"])


def test_grouped_rows_yield_each_document_once_its_rows_end(tmp_path):
    """The usual, grouped file holds one document at a time: each comes out as soon as
    its last row is read, in file order; an interleaved one comes out at its last row."""
    order = [("A", 0), ("A", 1), ("B", 0), ("C", 0), ("B", 1), ("D", 0)]
    path = write_rows(tmp_path / "pages.jsonl", [row(d, i) for d, i in order])
    docs = [
        (d.name, [p.page_index for p in d.pages]) for d in jsonl_documents(path, IngestReport())
    ]
    assert docs == [("A", [0, 1]), ("C", [0]), ("B", [0, 1]), ("D", [0])]


def test_the_cli_says_how_many_rows_repeated_a_page(tmp_path):
    rows = [row("A", 0, "x"), row("A", 0, "y"), row("A", 1)]
    result = cli_ingest(write_rows(tmp_path / "p.jsonl", rows), tmp_path / "g.sqlite")
    assert result.exit_code == 0, result.output
    assert "ingested 1 documents, 2 pages" in result.output
    assert "1 page rows repeated a page" in " ".join(result.output.split())


# -- 9b. the page size bound ------------------------------------------------------------


def test_a_page_over_the_limit_is_refused_by_name_and_the_rest_is_stored(store, tmp_path):
    rows = [
        row("A", 0),
        row("A", 1, "x" * (MAX_PAGE_CHARS + 1)),
        row("A", 2, "y" * MAX_PAGE_CHARS),  # at the limit: kept
    ]
    report = ingest(write_rows(tmp_path / "pages.jsonl", rows), store)
    assert sorted(stored(store, "A")) == [0, 2]
    assert report.pages == 2
    ((name, why),) = report.skipped
    assert name == "A page_index 1"
    assert f"{MAX_PAGE_CHARS + 1:,} characters" in why and f"{MAX_PAGE_CHARS:,}" in why


def test_the_cli_exits_1_naming_the_oversized_page(tmp_path):
    rows = [row("A", 0), row("A", 7, "z" * (MAX_PAGE_CHARS * 5))]
    result = cli_ingest(write_rows(tmp_path / "p.jsonl", rows), tmp_path / "g.sqlite")
    assert result.exit_code == 1, result.output
    out = " ".join(result.output.split())
    assert "skipped A page_index 7: page not stored" in out and "Traceback" not in out


# -- 12. a truncated pages.jsonl.gz -----------------------------------------------------


def truncated_file(tmp_path: Path) -> Path:
    """Documents A and B whole, then C, whose incompressible pages the file is cut in."""
    rng = random.Random(7)
    noise = lambda: "".join(rng.choices(string.ascii_letters, k=4000))  # noqa: E731
    rows = [row("A", i) for i in range(3)] + [row("B", i) for i in range(3)]
    rows += [row("C", i, noise()) for i in range(60)]
    whole = write_rows(tmp_path / "whole.jsonl.gz", rows).read_bytes()
    path = tmp_path / "pages.jsonl.gz"
    path.write_bytes(whole[: len(whole) * 2 // 3])
    return path


def test_a_truncated_file_keeps_the_documents_read_before_the_cut(store, tmp_path):
    old_c = write_rows(tmp_path / "old.jsonl", [row("C", 0, "the old copy")])
    ingest(old_c, store)
    report = ingest(truncated_file(tmp_path), store)
    assert report.file_error and "is truncated" in report.file_error
    assert str(tmp_path / "pages.jsonl.gz") in report.file_error
    assert (sorted(stored(store, "A")), sorted(stored(store, "B"))) == ([0, 1, 2], [0, 1, 2])
    assert stored(store, "C") == {0: "the old copy"}  # the cut-short copy is not written
    assert report.documents == 2 and report.pages == 6
    assert report.skipped[-1][0] == "C" and "cut short" in report.skipped[-1][1]


def test_the_command_says_truncated_and_exits_1_not_interrupted_130(tmp_path):
    path = truncated_file(tmp_path)
    command = [sys.executable, "-m", "cli.app", "ingest", str(path), "--embed", "skip"]
    result = subprocess.run(
        [*command, "--store", str(tmp_path / "g.sqlite")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "COLUMNS": "400"},
        timeout=120,
    )
    assert result.returncode == 1, result.stderr
    assert f"error: {path} is truncated" in result.stderr
    assert "interrupted" not in result.stderr and "Traceback" not in result.stderr
    assert "ingested 2 documents, 6 pages" in result.stdout


def test_a_file_that_is_not_gzip_is_a_clear_error(store, tmp_path):
    path = tmp_path / "pages.jsonl.gz"
    path.write_text("not compressed at all\n")
    report = ingest(path, store)
    assert report.file_error and str(path) in report.file_error
    assert "gzip" in report.file_error.lower() and report.documents == 0


# -- 15a. a --store that is another program's database ----------------------------------


def test_a_sqlite_file_that_is_not_a_grid_is_refused_untouched(tmp_path):
    path = tmp_path / "mlflow.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE experiments (id INTEGER PRIMARY KEY, name TEXT)")
        db.execute("INSERT INTO experiments (name) VALUES ('x')")
    db.close()
    before = path.read_bytes()
    with pytest.raises(NotAGridStore, match=r"mlflow\.db is not a grid store.*experiments"):
        SQLiteStore(path)
    rows = [row("A", 0)]
    result = cli_ingest(write_rows(tmp_path / "p.jsonl", rows), path)
    assert result.exit_code == 2, result.output
    out = " ".join(result.output.split())
    assert f"error: {path} is not a grid store" in out and "Traceback" not in out
    assert path.read_bytes() == before  # no grid tables, no sample, not even WAL mode
    assert not (tmp_path / "mlflow.db-wal").exists()


@pytest.mark.parametrize("content", [None, b""])
def test_a_new_or_empty_file_becomes_a_grid(tmp_path, content):
    path = tmp_path / "new.sqlite"
    if content is not None:
        path.write_bytes(content)
    store = SQLiteStore(path)
    assert store.stats()["pages"] == 0
    store.close()
    SQLiteStore(path).close()  # and is a grid when opened again


def test_a_file_that_is_not_sqlite_is_refused(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("these are my notes, not a database\n" * 100)
    with pytest.raises(NotAGridStore, match=r"notes\.txt is not a grid store"):
        SQLiteStore(path)
    result = runner.invoke(app, ["grid", "--store", str(path)])
    assert result.exit_code == 2 and "not a grid store" in result.output


# -- 15b. numbers no store can hold, and other odd values --------------------------------


@pytest.mark.parametrize(
    ("field", "value", "why"),
    [
        ("page_num", 2**64, "page_num 18446744073709551616 is out of range"),
        ("page_num", math.inf, "page_num inf is not a whole number"),
        ("page_num", -1, "page_num -1 is out of range"),
        ("doc_period", 2**64, "doc_period 18446744073709551616 is out of range"),
    ],
)
def test_an_out_of_range_integer_costs_its_row_not_the_ingest(store, tmp_path, field, value, why):
    rows = [row("A", 0), row("A", 1, **{field: value}), row("A", 2), row("B", 0)]
    report = ingest(write_rows(tmp_path / "pages.jsonl", rows), store)
    assert sorted(stored(store, "A")) == [0, 2] and sorted(stored(store, "B")) == [0]
    ((name, reason),) = report.skipped
    assert name == "A" and why in reason and "line 2" in reason
    assert report.pages == 3


def test_the_cli_reports_an_out_of_range_row_and_exits_1(tmp_path):
    rows = [row("A", 0), row("A", 1, page_num=2**70)]
    result = cli_ingest(write_rows(tmp_path / "p.jsonl", rows), tmp_path / "g.sqlite")
    assert result.exit_code == 1, result.output
    out = " ".join(result.output.split())
    assert "skipped A: bad page row: 1 of its 2 page rows not stored" in out
    assert "ingested 1 documents, 1 pages" in out and "Traceback" not in out


def test_a_statement_value_too_large_for_a_float_is_skipped_with_a_warning(store, tmp_path):
    rows = [json.loads(line) for line in FIXTURE.read_text().splitlines() if line.strip()]
    page = next(r for r in rows if (r["doc_name"], r["page_num"]) == ("3M_2018_10K", 59))
    page["text"] = page["text"].replace("1,577", "9" * 400, 1)  # reads as infinity
    report = ingest(write_rows(tmp_path / "pages.jsonl", [page]), store)
    facts = store.facts(GridFilter(ticker="MMM"))
    assert facts and all(math.isfinite(f.value) for f in facts)
    ((name, why),) = report.warnings
    assert name == "3M_2018_10K" and "statement facts not stored: a value out of range" in why
    assert report.facts == len(facts) and report.pages == 1


def test_a_lone_surrogate_is_stored_as_a_replacement_character(store, tmp_path):
    path = tmp_path / "pages.jsonl"
    path.write_text(
        json.dumps(row("A", 0, "cash \ud800 flow")) + "\n" + json.dumps(row("B", 0)) + "\n"
    )
    report = ingest(path, store)
    assert stored(store, "A") == {0: "cash \ufffd flow"} and stored(store, "B")
    assert report.warnings == [("A", "1 lone surrogate characters (not Unicode) stored as U+FFFD")]


def test_lines_that_are_not_page_rows_are_reported_and_the_rest_ingested(store, tmp_path):
    path = tmp_path / "pages.jsonl"
    path.write_text(
        json.dumps(row("A", 0))
        + "\n{not json\n[1, 2]\n"
        + json.dumps({"text": "no document"})
        + "\n"
        + json.dumps(row("A", 1))
        + "\n"
    )
    report = ingest(path, store)
    assert sorted(stored(store, "A")) == [0, 1]
    assert [name for name, _ in report.skipped] == [f"{path} line {n}" for n in (2, 3, 4)]
    assert "not JSON" in report.skipped[0][1] and "JSON list" in report.skipped[1][1]


def test_a_byte_order_mark_at_the_start_is_not_a_bad_row(store, tmp_path):
    path = tmp_path / "pages.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + (json.dumps(row("A", 0)) + "\n").encode())
    report = ingest(path, store)
    assert (report.pages, report.skipped) == (1, [])
