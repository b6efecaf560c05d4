"""One table row's values as facts: one per column, each placed in the fiscal calendar.

Shared by the statements' reader (:mod:`retrieval.facts.extract`) and the notes' one
(:mod:`retrieval.facts.note_rows`): what a fact records of its page, row and column is
the same wherever the row was printed.
"""

from __future__ import annotations

from collections.abc import Sequence

from retrieval.facts.columns import Column
from retrieval.facts.fiscal import ColumnPeriod
from retrieval.facts.layout import Value
from retrieval.facts.model import Fact
from retrieval.pages import Page


def row_facts(
    page: Page,
    page_id: int,
    *,
    statement: str,
    label: str,
    concept: str | None,
    unit: str,
    cols: Sequence[Column],
    periods: Sequence[ColumnPeriod],
    values: Sequence[Value],
    multiplier: float,
) -> list[Fact]:
    """The row's facts, column by column; ``values`` has one value per column, in printed
    units that ``multiplier`` (the table's scale) turns into base units."""
    return [
        Fact(
            uid=page.uid,
            page_id=page_id,
            doc_name=page.doc_name,
            doc_label=page.doc_label,
            page_index=page.page_index,
            ticker=page.ticker,
            statement=statement,
            label=label,
            concept=concept,
            fy=period.fy,
            fq=period.fq,
            duration=period.duration,
            column=col.header,
            value=value.amount * multiplier,
            unit=unit,
        )
        for col, period, value in zip(cols, periods, values, strict=True)
    ]
