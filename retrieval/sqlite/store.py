"""The embedded page store: one SQLite file with FTS5 (BM25) and dense vectors.

WAL mode lets a background embedding process write vectors while searches read.
Vectors are kept as float16 with the hash of the text they were made from, so an
unchanged page is never embedded twice and a changed one is re-embedded.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from retrieval.facts.model import Fact
from retrieval.pages import Page
from retrieval.search.embeddings import unusable_blobs
from retrieval.sqlite.connection import connect
from retrieval.sqlite.facts import FACTS_SCHEMA, read_facts, write_facts
from retrieval.store import FactExtractor, GridCell, GridFilter, filter_clause

SCHEMA = """
CREATE TABLE IF NOT EXISTS pages (
    page_id    INTEGER PRIMARY KEY AUTOINCREMENT,
    uid        TEXT NOT NULL UNIQUE,
    doc_name   TEXT NOT NULL,
    ticker     TEXT NOT NULL,
    company    TEXT NOT NULL,
    fy         INTEGER NOT NULL,
    fq         INTEGER NOT NULL,
    doc_type   TEXT NOT NULL,
    doc_date   TEXT,
    page_index INTEGER NOT NULL,
    text       TEXT NOT NULL,
    text_hash  TEXT NOT NULL,
    grid       TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS pages_cell ON pages (ticker, fy, fq, doc_type);
CREATE INDEX IF NOT EXISTS pages_doc ON pages (doc_name, page_index);
CREATE VIRTUAL TABLE IF NOT EXISTS pages_fts USING fts5 (
    text, grid, content='pages', content_rowid='page_id',
    tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS pages_ai AFTER INSERT ON pages BEGIN
    INSERT INTO pages_fts (rowid, text, grid) VALUES (new.page_id, new.text, new.grid);
END;
CREATE TRIGGER IF NOT EXISTS pages_ad AFTER DELETE ON pages BEGIN
    INSERT INTO pages_fts (pages_fts, rowid, text, grid)
        VALUES ('delete', old.page_id, old.text, old.grid);
    DELETE FROM vectors WHERE page_id = old.page_id;
END;
CREATE TRIGGER IF NOT EXISTS pages_au AFTER UPDATE OF text, grid ON pages BEGIN
    INSERT INTO pages_fts (pages_fts, rowid, text, grid)
        VALUES ('delete', old.page_id, old.text, old.grid);
    INSERT INTO pages_fts (rowid, text, grid) VALUES (new.page_id, new.text, new.grid);
END;
CREATE TABLE IF NOT EXISTS vectors (
    page_id   INTEGER PRIMARY KEY,
    model_id  TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    vector    BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS vectors_model ON vectors (model_id);
"""

#: Columns a table called ``pages`` must have for its file to be taken for a grid.
_GRID_COLUMNS = frozenset(("uid", "doc_name", "page_index", "text", "text_hash", "grid"))

_COLUMNS = "page_id, uid, doc_name, ticker, company, fy, fq, doc_type, doc_date, page_index, text"


def text_hash(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def _marks(items: Sequence) -> str:
    """SQL placeholders for ``items``: ``?,?,?``."""
    return ",".join("?" * len(items))


def _grid_token(kind: str, value: object) -> str:
    """One FTS token per grid coordinate (``xtmmmx``, ``xy2018x``, ``xq4x``, ``xd10kx``).

    Filters become an FTS ``AND`` that SQLite evaluates inside the index, which keeps
    slice-locked BM25 fast on the full store; the trailing ``x`` keeps the porter
    stemmer from touching them.
    """
    return "x" + kind + re.sub(r"[^a-z0-9]", "", str(value).lower()) + "x"


def grid_tokens(ticker: str, fy: int, fq: int, doc_type: str) -> str:
    return " ".join(
        _grid_token(k, v) for k, v in (("t", ticker), ("y", fy), ("q", fq), ("d", doc_type))
    )


class NotAGridStore(ValueError):
    """The store path names a file that is not a grid: another program's SQLite database
    (``--store mlflow.db``) or not SQLite at all. Creating the grid's tables in it, as
    opening a store does, would write into someone else's data, so it is refused."""


def _check_is_grid(db: sqlite3.Connection, path: Path) -> None:
    """Raise :class:`NotAGridStore` unless ``path`` is new, empty or a grid.

    An empty database (no tables of its own) becomes a grid; one with tables must have
    the grid's ``pages`` table. Nothing is written before this check.
    """
    try:
        tables = sorted(
            name
            for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if not name.startswith("sqlite_")
        )
        columns = {row[1] for row in db.execute("PRAGMA table_info(pages)")}
    except sqlite3.DatabaseError as exc:  # "file is not a database"
        raise NotAGridStore(f"{path} is not a grid store: {exc}") from None
    if not tables or _GRID_COLUMNS.issubset(columns):
        return
    if "pages" in tables:
        missing = ", ".join(sorted(_GRID_COLUMNS - columns))
        raise NotAGridStore(
            f"{path} is not a grid store: its pages table has no {missing} column; "
            "choose another store file (a new or empty file becomes a grid)"
        )
    shown = ", ".join(tables[:5]) + (f" and {len(tables) - 5} more" if len(tables) > 5 else "")
    raise NotAGridStore(
        f"{path} is not a grid store: it is a SQLite database with other tables ({shown}); "
        "choose another store file (a new or empty file becomes a grid)"
    )


class SQLiteStore:
    """:class:`retrieval.store.PageStore` over one SQLite file."""

    def __init__(self, path: str | Path, model_id: str = "all-MiniLM-L6-v2-onnx-int8") -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.model_id = model_id
        self.db, self.writable = connect(self.path)
        try:
            _check_is_grid(self.db, self.path)
        except NotAGridStore:
            self.db.close()
            raise
        if self.writable:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA + FACTS_SCHEMA)
        self._all_vectors: tuple[np.ndarray, np.ndarray] | None = None

    def close(self) -> None:
        self.db.close()

    # -- writing -------------------------------------------------------------------
    def upsert_document(self, pages: Sequence[Page], facts: FactExtractor | None = None) -> int:
        if not pages:
            return 0
        doc_names = {p.doc_name for p in pages}
        if len(doc_names) != 1:
            raise ValueError(f"upsert_document takes one document, got {sorted(doc_names)}")
        (doc_name,) = doc_names
        keep = [p.uid for p in pages]
        with self.db:
            self.db.execute(
                f"DELETE FROM pages WHERE doc_name = ? AND uid NOT IN ({_marks(keep)})",
                [doc_name, *keep],
            )
            self.db.executemany(
                """INSERT INTO pages (uid, doc_name, ticker, company, fy, fq, doc_type, doc_date,
                                      page_index, text, text_hash, grid)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT (uid) DO UPDATE SET
                     ticker = excluded.ticker, company = excluded.company, fy = excluded.fy,
                     fq = excluded.fq, doc_type = excluded.doc_type, doc_date = excluded.doc_date,
                     text = excluded.text, text_hash = excluded.text_hash, grid = excluded.grid
                   WHERE pages.text_hash != excluded.text_hash OR pages.fy != excluded.fy
                      OR pages.fq != excluded.fq OR pages.ticker != excluded.ticker
                      OR pages.doc_type != excluded.doc_type""",
                [
                    (
                        p.uid,
                        p.doc_name,
                        p.ticker,
                        p.company,
                        p.fy,
                        p.fq,
                        p.doc_type,
                        p.doc_date,
                        p.page_index,
                        p.text,
                        text_hash(p.text),
                        grid_tokens(p.ticker, p.fy, p.fq, p.doc_type),
                    )
                    for p in pages
                ],
            )
            if facts is not None:
                write_facts(self.db, doc_name, facts(self._document_pages(doc_name)))
        return len(pages)

    def replace_facts(self, doc_name: str, facts: Sequence[Fact]) -> None:
        with self.db:
            write_facts(self.db, doc_name, facts)

    def put_vectors(self, model_id: str, rows: Sequence[tuple[int, np.ndarray]]) -> None:
        with self.db:
            hashes = dict(
                self.db.execute(
                    f"SELECT page_id, text_hash FROM pages WHERE page_id IN ({_marks(rows)})",
                    [int(pid) for pid, _ in rows],
                ).fetchall()
            )
            self.db.executemany(
                "INSERT OR REPLACE INTO vectors (page_id, model_id, text_hash, vector) "
                "VALUES (?, ?, ?, ?)",
                [
                    (int(pid), model_id, hashes[int(pid)], np.asarray(v, np.float16).tobytes())
                    for pid, v in rows
                    if int(pid) in hashes
                ],
            )
        self._all_vectors = None

    # -- reading -------------------------------------------------------------------
    def _pages(self, sql: str, args: Sequence) -> list[Page]:
        return [
            Page(
                page_id=r[0],
                doc_name=r[2],
                ticker=r[3],
                company=r[4],
                fy=r[5],
                fq=r[6],
                doc_type=r[7],
                doc_date=r[8],
                page_index=r[9],
                text=r[10],
            )
            for r in self.db.execute(sql, args).fetchall()
        ]

    def pages_by_uid(self, uids: Iterable[str]) -> list[Page]:
        uids = list(uids)
        if not uids:
            return []
        return self._pages(f"SELECT {_COLUMNS} FROM pages WHERE uid IN ({_marks(uids)})", uids)

    def pages_by_id(self, page_ids: Iterable[int]) -> list[Page]:
        ids = [int(i) for i in page_ids]
        if not ids:
            return []
        by_id = {
            p.page_id: p
            for p in self._pages(
                f"SELECT {_COLUMNS} FROM pages WHERE page_id IN ({_marks(ids)})", ids
            )
        }
        return [by_id[i] for i in ids if i in by_id]

    def document_pages(self, doc_name: str) -> list[Page]:
        return self._document_pages(doc_name)

    def document_names(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT DISTINCT doc_name FROM pages ORDER BY 1")]

    def _document_pages(self, doc_name: str) -> list[Page]:
        return self._pages(
            f"SELECT {_COLUMNS} FROM pages WHERE doc_name = ? ORDER BY page_index", [doc_name]
        )

    def facts(self, where: GridFilter, concepts: Sequence[str] | None = None) -> list[Fact]:
        clause, args = self._where(where)
        return read_facts(self.db, clause, args, concepts)

    def count_facts(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM facts").fetchone()[0]

    @staticmethod
    def _where(where: GridFilter, alias: str = "p") -> tuple[str, list]:
        return filter_clause(where, "?", alias)

    def bm25(self, terms: Sequence[str], where: GridFilter, k: int) -> list[tuple[int, float]]:
        if not terms:
            return []
        query = "text:(" + " OR ".join('"' + t.replace('"', '""') + '"' for t in terms) + ")"
        cell = [
            _grid_token(kind, value)
            for kind, value in (
                ("t", where.ticker),
                ("y", where.fy),
                ("q", where.fq),
                ("d", where.doc_type),
            )
            if value is not None
        ]
        if cell:
            query = "grid:(" + " AND ".join(cell) + ") AND " + query
        rows = self.db.execute(
            "SELECT rowid, bm25(pages_fts, 1.0, 0.0) AS s FROM pages_fts "
            "WHERE pages_fts MATCH ? ORDER BY s LIMIT ?",
            [query, k],
        ).fetchall()
        return [(int(pid), -float(score)) for pid, score in rows]

    def candidate_ids(self, where: GridFilter) -> np.ndarray:
        clause, args = self._where(where)
        rows = self.db.execute(
            f"SELECT p.page_id FROM pages p JOIN vectors v ON v.page_id = p.page_id "
            f"WHERE v.model_id = ? AND v.text_hash = p.text_hash AND {clause}",
            [self.model_id, *args],
        ).fetchall()
        return np.array([r[0] for r in rows], dtype=np.int64)

    def vectors(self, page_ids: np.ndarray) -> np.ndarray:
        ids = [int(i) for i in page_ids]
        if not ids:
            return np.zeros((0, 0), dtype=np.float32)
        blobs = dict(
            self.db.execute(
                f"SELECT page_id, vector FROM vectors WHERE page_id IN ({_marks(ids)})",
                ids,
            ).fetchall()
        )
        return np.stack([np.frombuffer(blobs[i], dtype=np.float16) for i in ids]).astype(np.float32)

    def all_vectors(self) -> tuple[np.ndarray, np.ndarray]:
        """Every current vector of the active model, cached for unfiltered searches."""
        if self._all_vectors is None:
            rows = self.db.execute(
                "SELECT v.page_id, v.vector FROM vectors v JOIN pages p ON p.page_id = v.page_id "
                "WHERE v.model_id = ? AND v.text_hash = p.text_hash ORDER BY v.page_id",
                [self.model_id],
            ).fetchall()
            ids = np.array([r[0] for r in rows], dtype=np.int64)
            matrix = (
                np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float16)
                .reshape(len(rows), -1)
                .astype(np.float32)
                if rows
                else np.zeros((0, 0), dtype=np.float32)
            )
            self._all_vectors = (ids, matrix)
        return self._all_vectors

    def missing_vectors(self, model_id: str, limit: int) -> list[tuple[int, str]]:
        return self.db.execute(
            "SELECT p.page_id, p.text FROM pages p LEFT JOIN vectors v ON v.page_id = p.page_id "
            "WHERE v.page_id IS NULL OR v.model_id != ? OR v.text_hash != p.text_hash "
            "ORDER BY p.page_id LIMIT ?",
            [model_id, limit],
        ).fetchall()

    def count_missing_vectors(self, model_id: str) -> int:
        return self.db.execute(
            "SELECT COUNT(*) FROM pages p LEFT JOIN vectors v ON v.page_id = p.page_id "
            "WHERE v.page_id IS NULL OR v.model_id != ? OR v.text_hash != p.text_hash",
            [model_id],
        ).fetchone()[0] + len(self.invalid_vectors(model_id))

    def invalid_vectors(self, model_id: str, dim: int | None = None) -> list[int]:
        """Page ids whose current ``model_id`` vector no search can use: NaN, infinite or
        all zero, or (``dim`` given: the embedder's) another width. A damaged vectors file
        ingested before such files were refused left them; they count as missing, so the
        grid does not call them embedded, and ``research embed`` makes them again."""
        rows = self.db.execute(
            "SELECT v.page_id, v.vector FROM vectors v JOIN pages p ON p.page_id = v.page_id "
            "WHERE v.model_id = ? AND v.text_hash = p.text_hash",
            [model_id],
        )
        return unusable_blobs(rows, dim)

    def cells(self) -> list[GridCell]:
        rows = self.db.execute(
            "SELECT ticker, company, fy, fq, GROUP_CONCAT(DISTINCT doc_type), COUNT(*) "
            "FROM pages GROUP BY ticker, fy, fq ORDER BY ticker, fy, fq"
        ).fetchall()
        return [
            GridCell(
                ticker=t, company=c, fy=fy, fq=fq, doc_types=tuple(sorted(d.split(","))), pages=n
            )
            for t, c, fy, fq, d, n in rows
        ]

    def stats(self) -> dict[str, int]:
        pages, docs = self.db.execute(
            "SELECT COUNT(*), COUNT(DISTINCT doc_name) FROM pages"
        ).fetchone()
        vectors = self.db.execute(
            "SELECT COUNT(*) FROM vectors v JOIN pages p ON p.page_id = v.page_id "
            "WHERE v.model_id = ? AND v.text_hash = p.text_hash",
            [self.model_id],
        ).fetchone()[0] - len(self.invalid_vectors(self.model_id))
        return {"pages": pages, "documents": docs, "vectors": vectors}
