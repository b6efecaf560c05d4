"""Statement facts in PostgreSQL: written with their document, read by grid cell."""

from __future__ import annotations

from collections.abc import Sequence

import psycopg

from retrieval.facts.model import Fact
from retrieval.postgres.bm25 import grid_clause
from retrieval.store import GridFilter

_COLUMNS = (
    "uid, page_id, doc_name, doc_label, page_index, ticker, statement, label, concept, "
    "fy, fq, duration, header, value, unit"
)


def write_facts(conn: psycopg.Connection, doc_name: str, facts: Sequence[Fact]) -> None:
    """Replace ``doc_name``'s facts inside the caller's transaction."""
    strays = sorted({f.doc_name for f in facts} - {doc_name})
    if strays:
        raise ValueError(f"facts of {doc_name} include other documents: {strays}")
    conn.execute("DELETE FROM wissen.facts WHERE doc_name = %s", [doc_name])
    order: dict[int, int] = {}
    with conn.cursor().copy(
        "COPY wissen.facts (page_id, row_order, doc_name, uid, doc_label, page_index, "
        "ticker, statement, label, concept, fy, fq, duration, header, value, unit) FROM STDIN"
    ) as copy:
        for f in facts:
            n = order[f.page_id] = order.get(f.page_id, -1) + 1
            copy.write_row(
                (
                    f.page_id, n, f.doc_name, f.uid, f.doc_label, f.page_index, f.ticker,
                    f.statement, f.label, f.concept, f.fy, f.fq, f.duration, f.column,
                    float(f.value), f.unit,
                )
            )  # fmt: skip


def read_facts(
    conn: psycopg.Connection, where: GridFilter, concepts: Sequence[str] | None
) -> list[Fact]:
    """Facts of the pages in ``where`` (optionally only ``concepts``), in page and row order."""
    clause, args = grid_clause(where)
    if concepts is not None:
        clause += " AND f.concept = ANY(%s)"
        args.append(list(concepts))
    columns = ", ".join(f"f.{c}" for c in _COLUMNS.split(", "))
    rows = conn.execute(
        f"SELECT {columns} FROM wissen.facts f JOIN wissen.pages p "
        f"ON p.page_id = f.page_id WHERE {clause} ORDER BY f.page_id, f.row_order",
        args,
    ).fetchall()
    return [
        Fact(
            uid=r[0], page_id=r[1], doc_name=r[2], doc_label=r[3], page_index=r[4],
            ticker=r[5], statement=r[6], label=r[7], concept=r[8], fy=r[9], fq=r[10],
            duration=r[11], column=r[12], value=r[13], unit=r[14],
        )
        for r in rows
    ]  # fmt: skip
