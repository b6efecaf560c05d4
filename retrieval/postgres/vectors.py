"""Dense search in PostgreSQL: which index answers, and the statement that asks it."""

from __future__ import annotations

import numpy as np
from pgvector import HalfVector
from psycopg import sql

from retrieval.postgres.bm25 import grid_clause
from retrieval.store import GridFilter


def nearest_statement(
    model_id: str, query: np.ndarray, where: GridFilter, k: int
) -> tuple[sql.Composed | sql.SQL, list]:
    """The statement (and its parameters) for the ``k`` pages nearest ``query`` in ``where``.

    With no ticker locked, the model's HNSW index answers: cosine distance over the same
    ``vector::halfvec(dim)`` expression the index was built on, limited to the model's rows
    by a literal (a partial index is only used when the planner sees the value), and
    approximate at ``hnsw.ef_search`` = 200 for a pool of 100. A locked slice holds a few
    hundred pages: they are scanned exactly by inner product, as the SQLite store does.
    """
    query = np.asarray(query, np.float32)
    clause, args = grid_clause(where)
    if where.ticker is None:
        dim = sql.SQL(str(int(query.shape[-1])))
        join = "" if where.is_empty() else "JOIN wissen.pages p ON p.page_id = v.page_id "
        statement = sql.SQL(
            "SELECT v.page_id FROM wissen.vectors v " + join + "WHERE v.model_id = {model} "
            "AND " + clause + " ORDER BY v.vector::halfvec({dim}) <=> %s::halfvec({dim}) "
            "LIMIT %s"
        ).format(model=sql.Literal(model_id), dim=dim)
        return statement, [*args, HalfVector(query), k]
    statement = sql.SQL(
        "SELECT v.page_id FROM wissen.pages p JOIN wissen.vectors v "
        "ON v.page_id = p.page_id WHERE v.model_id = %s AND v.text_hash = p.text_hash "
        "AND " + clause + " ORDER BY v.vector::vector <#> %s::vector, v.page_id LIMIT %s"
    )
    return statement, [model_id, *args, query, k]
