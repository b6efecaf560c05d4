"""The ``facts`` table of the SQLite grid store: its schema, writing and reading.

Facts are written inside the caller's transaction (the store's ``upsert_document``
writes a document's pages and facts together); a deleted page takes its facts with it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from retrieval.facts.model import Fact

FACTS_SCHEMA = """
CREATE TABLE IF NOT EXISTS facts (
    page_id    INTEGER NOT NULL,
    row_order  INTEGER NOT NULL,
    doc_name   TEXT NOT NULL,
    uid        TEXT NOT NULL,
    doc_label  TEXT NOT NULL,
    page_index INTEGER NOT NULL,
    ticker     TEXT NOT NULL,
    statement  TEXT NOT NULL,
    label      TEXT NOT NULL,
    concept    TEXT,
    fy         INTEGER NOT NULL,
    fq         INTEGER,
    duration   TEXT NOT NULL,
    header     TEXT NOT NULL,
    value      REAL NOT NULL,
    unit       TEXT NOT NULL,
    PRIMARY KEY (page_id, row_order)
);
CREATE INDEX IF NOT EXISTS facts_doc ON facts (doc_name);
CREATE INDEX IF NOT EXISTS facts_concept ON facts (concept);
CREATE TRIGGER IF NOT EXISTS pages_ad_facts AFTER DELETE ON pages BEGIN
    DELETE FROM facts WHERE page_id = old.page_id;
END;
"""

_FACT_COLUMNS = (
    "uid, page_id, doc_name, doc_label, page_index, ticker, statement, label, concept, "
    "fy, fq, duration, header, value, unit"
)


def _marks(items: Sequence) -> str:
    return ",".join("?" * len(items))


def write_facts(db: sqlite3.Connection, doc_name: str, facts: Sequence[Fact]) -> None:
    """Replace ``doc_name``'s facts inside the caller's transaction."""
    strays = sorted({f.doc_name for f in facts} - {doc_name})
    if strays:
        raise ValueError(f"facts of {doc_name} include other documents: {strays}")
    db.execute("DELETE FROM facts WHERE doc_name = ?", [doc_name])
    order: dict[int, int] = {}
    rows = []
    for f in facts:
        n = order[f.page_id] = order.get(f.page_id, -1) + 1
        rows.append(
            (
                f.page_id,
                n,
                f.doc_name,
                f.uid,
                f.doc_label,
                f.page_index,
                f.ticker,
                f.statement,
                f.label,
                f.concept,
                f.fy,
                f.fq,
                f.duration,
                f.column,
                float(f.value),
                f.unit,
            )
        )
    db.executemany(
        "INSERT INTO facts (page_id, row_order, doc_name, uid, doc_label, page_index, "
        "ticker, statement, label, concept, fy, fq, duration, header, value, unit) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )


def read_facts(
    db: sqlite3.Connection, clause: str, args: list, concepts: Sequence[str] | None
) -> list[Fact]:
    """Facts of the pages matching ``clause`` (over alias ``p``), in page then row order."""
    if concepts is not None:
        if not concepts:
            return []
        clause += f" AND f.concept IN ({_marks(concepts)})"
        args = [*args, *concepts]
    columns = ", ".join(f"f.{c}" for c in _FACT_COLUMNS.split(", "))
    try:
        rows = db.execute(
            f"SELECT {columns} FROM facts f JOIN pages p ON p.page_id = f.page_id "
            f"WHERE {clause} ORDER BY f.page_id, f.row_order",
            args,
        ).fetchall()
    except sqlite3.OperationalError as exc:
        if "no such table" not in str(exc):
            raise
        raise ValueError(
            "this grid store was made before statement facts and is read-only here: "
            "open it writable once, then run `research facts --rebuild`"
        ) from None
    return [
        Fact(
            uid=r[0],
            page_id=r[1],
            doc_name=r[2],
            doc_label=r[3],
            page_index=r[4],
            ticker=r[5],
            statement=r[6],
            label=r[7],
            concept=r[8],
            fy=r[9],
            fq=r[10],
            duration=r[11],
            column=r[12],
            value=r[13],
            unit=r[14],
        )
        for r in rows
    ]
