"""What only the SQLite store does; the behaviour both backends share is in
tests/test_store_contract.py."""

import sqlite3

from retrieval.pages import Page
from retrieval.sqlite.store import SQLiteStore
from retrieval.store import GridFilter


def test_the_file_is_in_wal_mode_and_a_second_connection_reads_committed_documents(tmp_path):
    path = tmp_path / "g.sqlite"
    store = SQLiteStore(path)
    store.upsert_document(
        [
            Page(
                doc_name="3M_2018_10K",
                ticker="MMM",
                company="3M",
                fy=2018,
                fq=4,
                doc_type="10-K",
                page_index=0,
                text="capital expenditures",
            )
        ]
    )
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    reader = SQLiteStore(path)
    assert reader.bm25(["capital"], GridFilter(ticker="MMM"), 5)
    assert sqlite3.connect(path).execute("SELECT COUNT(*) FROM pages").fetchone()[0] == 1
    reader.close()
    store.close()
