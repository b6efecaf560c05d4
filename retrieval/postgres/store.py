"""The grid on a PostgreSQL server: full text in a stored tsvector, vectors in pgvector.

The same :class:`retrieval.store.PageStore` contract as the embedded SQLite file, for a
team that shares one grid or a corpus past one machine. Connections come from a pool, so
several ``research ask`` processes, a ``research serve`` and an ingest can use one store at
once. A document is written in one transaction (its pages, their stale vectors dropped, its
facts), so a killed ingest leaves no half document. Every server failure surfaces as a
one-line :class:`retrieval.postgres.errors.StoreError` that never shows the password.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import numpy as np
import psycopg
import psycopg_pool
from pgvector import HalfVector
from pgvector.psycopg import register_vector

from retrieval.facts.model import Fact
from retrieval.pages import Page
from retrieval.postgres import schema as postgres_schema
from retrieval.postgres.bm25 import TermStatistics, bm25, grid_clause, token_count
from retrieval.postgres.errors import (
    StoreError,
    StoreUnavailable,
    connection_uri,
    redact,
    translate,
)
from retrieval.postgres.facts import read_facts, write_facts
from retrieval.postgres.vectors import nearest_statement
from retrieval.sqlite.store import text_hash
from retrieval.store import FactExtractor, GridCell, GridFilter

T = TypeVar("T")
_COLUMNS = "page_id, uid, doc_name, ticker, company, fy, fq, doc_type, doc_date, page_index, text"
#: HNSW candidates per query: at least the search pool (pgvector's default, 40, is less).
EF_SEARCH = 200
CONNECT_TIMEOUT_S = 5
POOL_WAIT_S = 5
# The pool logs every failed reconnection attempt; the store reports the failure itself,
# once, as a one-line error.
logging.getLogger("psycopg.pool").setLevel(logging.ERROR)


#: A stored vector a search can use: not all zero (pgvector refuses NaN and infinity, and
#: the vector index other widths). Width is ``research embed``'s check, as in SQLite's counts.
_USABLE = "(l2_norm(v.vector) > 0)"


class PostgresStore:
    """:class:`retrieval.store.PageStore` over a PostgreSQL database with pgvector."""

    def __init__(
        self,
        uri: str,
        model_id: str = "all-MiniLM-L6-v2-onnx-int8",
        max_connections: int = 8,
    ) -> None:
        self.uri = connection_uri(uri)
        self.location = redact(self.uri)
        self.model_id = model_id
        #: Grid copy sets this to build each model's HNSW index once, after the bulk load.
        self.defer_vector_index = False
        self._indexed: set[tuple[str, int]] = set()
        self._terms = TermStatistics()
        self._lock = threading.Lock()
        try:
            with psycopg.connect(
                self.uri, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S
            ) as conn:
                postgres_schema.migrate(conn, self.location)
                self.server_version = conn.execute("SHOW server_version").fetchone()[0]
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            raise translate(exc, self.uri, "opening the grid") from None
        self.pool = psycopg_pool.ConnectionPool(
            self.uri,
            min_size=1,
            max_size=max_connections,
            kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT_S},
            configure=self._configure,
            check=psycopg_pool.ConnectionPool.check_connection,
            timeout=POOL_WAIT_S,
            open=False,
            name="wissen-grid",
        )
        try:
            self.pool.open(wait=True, timeout=15)
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            self.pool.close()
            raise translate(exc, self.uri, "opening the grid") from None

    @staticmethod
    def _configure(conn: psycopg.Connection) -> None:
        register_vector(conn)
        # A filter on a wide region (a year, a document type) keeps scanning the index until
        # enough rows pass it, rather than returning fewer than asked.
        conn.execute(f"SET hnsw.ef_search = {EF_SEARCH}")
        conn.execute("SET hnsw.iterative_scan = strict_order")

    def close(self) -> None:
        self.pool.close()

    @contextmanager
    def _connection(self, doing: str):
        try:
            with self.pool.connection() as conn:
                yield conn
        except StoreError:
            raise
        except psycopg_pool.PoolTimeout:
            raise self._why_no_connection(doing) from None
        except psycopg.Error as exc:
            raise translate(exc, self.uri, doing) from None

    def _why_no_connection(self, doing: str) -> StoreError:
        """The pool gave no connection in time: the server's own reason, when it is down."""
        try:
            psycopg.connect(self.uri, connect_timeout=CONNECT_TIMEOUT_S).close()
        except psycopg.Error as exc:
            return translate(exc, self.uri, doing)
        return StoreUnavailable(
            f"all {self.pool.max_size} connections to {self.location} stayed busy for "
            f"{POOL_WAIT_S} s while {doing}: the server is overloaded"
        )

    def _run(self, doing: str, work: Callable[[psycopg.Connection], T]) -> T:
        with self._connection(doing) as conn:
            return work(conn)

    # -- writing -------------------------------------------------------------------
    def upsert_document(self, pages: Sequence[Page], facts: FactExtractor | None = None) -> int:
        if not pages:
            return 0
        doc_names = {p.doc_name for p in pages}
        if len(doc_names) != 1:
            raise ValueError(f"upsert_document takes one document, got {sorted(doc_names)}")
        (doc_name,) = doc_names
        with self._connection(f"writing {doc_name}") as conn, conn.transaction():
            conn.execute(
                "CREATE TEMP TABLE incoming (uid text, doc_name text, ticker text, company text, "
                "fy integer, fq integer, doc_type text, doc_date text, page_index integer, "
                "text text, text_hash text, doc_len integer) ON COMMIT DROP"
            )
            with conn.cursor().copy("COPY incoming FROM STDIN") as copy:
                for p in pages:
                    copy.write_row(
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
                            p.text.replace("\x00", ""),
                            text_hash(p.text),
                            token_count(p.text),
                        )
                    )
            dropped = conn.execute(
                "DELETE FROM wissen.pages WHERE doc_name = %s "
                "AND uid NOT IN (SELECT uid FROM incoming)",
                [doc_name],
            ).rowcount
            written = conn.execute(
                """INSERT INTO wissen.pages (uid, doc_name, ticker, company, fy, fq, doc_type,
                                             doc_date, page_index, text, text_hash, doc_len)
                   SELECT * FROM incoming ORDER BY page_index
                   ON CONFLICT (uid) DO UPDATE SET
                     ticker = excluded.ticker, company = excluded.company, fy = excluded.fy,
                     fq = excluded.fq, doc_type = excluded.doc_type,
                     doc_date = excluded.doc_date, text = excluded.text,
                     text_hash = excluded.text_hash, doc_len = excluded.doc_len
                   WHERE pages.text_hash <> excluded.text_hash OR pages.fy <> excluded.fy
                      OR pages.fq <> excluded.fq OR pages.ticker <> excluded.ticker
                      OR pages.doc_type <> excluded.doc_type"""
            ).rowcount
            # A vector made from older text is dropped with it, so the HNSW index holds
            # current vectors only.
            conn.execute(
                "DELETE FROM wissen.vectors v USING wissen.pages p WHERE v.page_id = p.page_id "
                "AND p.doc_name = %s AND v.text_hash <> p.text_hash",
                [doc_name],
            )
            if dropped or written:  # an unchanged document keeps its postings
                conn.execute("DELETE FROM wissen.postings WHERE doc_name = %s", [doc_name])
                conn.execute(
                    postgres_schema.POSTINGS_SQL.format(where="p.doc_name = %s"), [doc_name]
                )
            if facts is not None:
                write_facts(conn, doc_name, facts(self._document_pages(conn, doc_name)))
        self._terms.invalidate()
        return len(pages)

    def replace_facts(self, doc_name: str, facts: Sequence[Fact]) -> None:
        with self._connection(f"writing facts of {doc_name}") as conn, conn.transaction():
            write_facts(conn, doc_name, facts)

    def put_vectors(self, model_id: str, rows: Sequence[tuple[int, np.ndarray]]) -> None:
        if not rows:
            return
        dims = {int(np.asarray(v).shape[-1]) for _, v in rows}
        if len(dims) != 1:
            raise ValueError(f"vectors of one model have one width, got {sorted(dims)}")
        with self._connection("writing vectors") as conn:
            if not self.defer_vector_index:
                self._ensure_vector_index(conn, model_id, dims.pop())
            with conn.transaction():
                conn.execute(
                    "INSERT INTO wissen.vectors (page_id, model_id, text_hash, vector) "
                    "SELECT p.page_id, %s, p.text_hash, x.vector "
                    "FROM unnest(%s::bigint[], %s::halfvec[]) AS x (page_id, vector) "
                    "JOIN wissen.pages p ON p.page_id = x.page_id "
                    "ON CONFLICT (page_id) DO UPDATE SET model_id = excluded.model_id, "
                    "text_hash = excluded.text_hash, vector = excluded.vector",
                    [
                        model_id,
                        [int(pid) for pid, _ in rows],
                        [HalfVector(np.asarray(v, np.float16)) for _, v in rows],
                    ],
                )

    def _ensure_vector_index(self, conn: psycopg.Connection, model_id: str, dim: int) -> None:
        if (model_id, dim) in self._indexed:
            return
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"hnsw/{model_id}"])
            conn.execute(postgres_schema.vector_index_sql(model_id, dim))
        self._indexed.add((model_id, dim))

    def finish_bulk_load(self) -> None:
        """After a bulk load (vector indexes deferred): HNSW indexes for every model and width
        present, BM25 postings stored in lexeme order (a search reads a term's rows from a
        few pages, not one page per document), fresh planner statistics."""
        with self._connection("building indexes") as conn:
            conn.execute("SET maintenance_work_mem = '512MB'")
            found = conn.execute(
                "SELECT DISTINCT model_id, vector_dims(vector) FROM wissen.vectors"
            ).fetchall()
            for model_id, dim in found:
                self._ensure_vector_index(conn, model_id, int(dim))
            conn.execute("CLUSTER wissen.postings USING postings_lexeme")
            conn.execute("ANALYZE wissen.pages, wissen.vectors, wissen.postings, wissen.facts")
            conn.execute("RESET maintenance_work_mem")

    # -- reading -------------------------------------------------------------------
    @staticmethod
    def _pages(conn: psycopg.Connection, query: str, args: Sequence) -> list[Page]:
        return [
            Page(
                page_id=r[0], doc_name=r[2], ticker=r[3], company=r[4], fy=r[5], fq=r[6],
                doc_type=r[7], doc_date=r[8], page_index=r[9], text=r[10],
            )
            for r in conn.execute(query, args).fetchall()
        ]  # fmt: skip

    def _select_pages(self, doing: str, condition: str, args: Sequence) -> list[Page]:
        return self._run(
            doing,
            lambda conn: self._pages(
                conn, f"SELECT {_COLUMNS} FROM wissen.pages WHERE {condition}", args
            ),
        )

    def pages_by_uid(self, uids: Iterable[str]) -> list[Page]:
        uids = list(uids)
        if not uids:
            return []
        return self._select_pages("reading pages", "uid = ANY(%s)", [uids])

    def pages_by_id(self, page_ids: Iterable[int]) -> list[Page]:
        ids = [int(i) for i in page_ids]
        if not ids:
            return []
        found = self._select_pages("reading pages", "page_id = ANY(%s)", [ids])
        by_id = {p.page_id: p for p in found}
        return [by_id[i] for i in ids if i in by_id]

    @classmethod
    def _document_pages(cls, conn: psycopg.Connection, doc_name: str) -> list[Page]:
        return cls._pages(
            conn,
            f"SELECT {_COLUMNS} FROM wissen.pages WHERE doc_name = %s ORDER BY page_index",
            [doc_name],
        )

    def document_pages(self, doc_name: str) -> list[Page]:
        return self._run("reading pages", lambda conn: self._document_pages(conn, doc_name))

    def document_names(self) -> list[str]:
        return self._run(
            "listing documents",
            lambda conn: [
                r[0]
                for r in conn.execute(
                    "SELECT DISTINCT doc_name FROM wissen.pages ORDER BY doc_name"
                ).fetchall()
            ],
        )

    def facts(self, where: GridFilter, concepts: Sequence[str] | None = None) -> list[Fact]:
        if concepts is not None and not concepts:
            return []
        return self._run("reading facts", lambda conn: read_facts(conn, where, concepts))

    def count_facts(self) -> int:
        return self._scalar("counting facts", "SELECT count(*) FROM wissen.facts", [])

    def _scalar(self, doing: str, query: str, args: Sequence) -> Any:
        return self._run(doing, lambda conn: conn.execute(query, args).fetchone()[0])

    def bm25(self, terms: Sequence[str], where: GridFilter, k: int) -> list[tuple[int, float]]:
        return self._run("searching", lambda conn: bm25(conn, self._terms, terms, where, k))

    def nearest(self, query: np.ndarray, where: GridFilter, k: int) -> list[int]:
        """page_ids of the ``k`` pages in ``where`` whose current vectors best match ``query``
        (see :func:`retrieval.postgres.vectors.nearest_statement`)."""
        statement, params = nearest_statement(self.model_id, query, where, k)
        return self._run(
            "searching",
            lambda conn: [int(r[0]) for r in conn.execute(statement, params).fetchall()],
        )

    def candidate_ids(self, where: GridFilter) -> np.ndarray:
        clause, args = grid_clause(where)
        rows = self._run(
            "searching",
            lambda conn: conn.execute(
                "SELECT p.page_id FROM wissen.pages p JOIN wissen.vectors v "
                "ON v.page_id = p.page_id WHERE v.model_id = %s AND v.text_hash = p.text_hash "
                f"AND {clause} ORDER BY p.page_id",
                [self.model_id, *args],
            ).fetchall(),
        )
        return np.array([r[0] for r in rows], dtype=np.int64)

    def vectors(self, page_ids: np.ndarray) -> np.ndarray:
        ids = [int(i) for i in page_ids]
        if not ids:
            return np.zeros((0, 0), dtype=np.float32)
        rows = self._run(
            "reading vectors",
            lambda conn: (
                conn.cursor(binary=True)
                .execute(
                    "SELECT page_id, vector FROM wissen.vectors WHERE page_id = ANY(%s)", [ids]
                )
                .fetchall()
            ),
        )
        by_id = {int(pid): v.to_numpy() for pid, v in rows}
        return np.stack([by_id[i] for i in ids]).astype(np.float32)

    def all_vectors(self) -> tuple[np.ndarray, np.ndarray]:
        """Every current vector of the active model (for exports; search uses the index)."""
        ids = self.candidate_ids(GridFilter())
        if not len(ids):
            return ids, np.zeros((0, 0), dtype=np.float32)
        return ids, self.vectors(ids)

    def missing_vectors(self, model_id: str, limit: int) -> list[tuple[int, str]]:
        return self._run(
            "reading pages to embed",
            lambda conn: [
                (int(pid), text)
                for pid, text in conn.execute(
                    "SELECT p.page_id, p.text FROM wissen.pages p LEFT JOIN wissen.vectors v "
                    "ON v.page_id = p.page_id WHERE v.page_id IS NULL OR v.model_id <> %s "
                    "OR v.text_hash <> p.text_hash ORDER BY p.page_id LIMIT %s",
                    [model_id, limit],
                ).fetchall()
            ],
        )

    def count_missing_vectors(self, model_id: str) -> int:
        """Pages with no usable ``model_id`` vector: none, a stale one, or an all-zero one."""
        return self._scalar(
            "counting vectors",
            "SELECT count(*) FROM wissen.pages p LEFT JOIN wissen.vectors v "
            "ON v.page_id = p.page_id WHERE v.page_id IS NULL OR v.model_id <> %s "
            f"OR v.text_hash <> p.text_hash OR NOT ({_USABLE})",
            [model_id],
        )

    def cells(self) -> list[GridCell]:
        rows = self._run(
            "reading the grid",
            lambda conn: conn.execute(
                "SELECT ticker, min(company), fy, fq, array_agg(DISTINCT doc_type), count(*) "
                "FROM wissen.pages GROUP BY ticker, fy, fq ORDER BY ticker, fy, fq"
            ).fetchall(),
        )
        return [
            GridCell(ticker=t, company=c, fy=fy, fq=fq, doc_types=tuple(sorted(d)), pages=n)
            for t, c, fy, fq, d, n in rows
        ]

    def stats(self) -> dict[str, int]:
        def read(conn: psycopg.Connection) -> dict[str, int]:
            pages, docs = conn.execute(
                "SELECT count(*), count(DISTINCT doc_name) FROM wissen.pages"
            ).fetchone()
            vectors = conn.execute(
                "SELECT count(*) FROM wissen.vectors v JOIN wissen.pages p "
                "ON p.page_id = v.page_id WHERE v.model_id = %s AND v.text_hash = p.text_hash "
                f"AND {_USABLE}",
                [self.model_id],
            ).fetchone()[0]
            return {"pages": int(pages), "documents": int(docs), "vectors": int(vectors)}

        return self._run("reading the grid", read)

    def index_state(self) -> list[tuple[str, str, str]]:
        """(index, kind, size) of the grid's text and vector indexes, for ``research grid``."""
        return self._run(
            "reading the grid", lambda conn: conn.execute(postgres_schema.INDEX_STATE).fetchall()
        )
