"""``research facts``: the statement facts of a grid slice, each with the page it is on."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from cli.errors import EXIT_FAILED, fail
from cli.terminal_text import plain
from domain.periods import parse_fq, parse_fy
from retrieval.coverage import OutsideGridError, check_filter
from retrieval.facts.display import fact_record, period_text, printed_value
from retrieval.facts.rebuild import rebuild_facts
from retrieval.facts.vocabulary import concept_names
from retrieval.open_store import open_store
from retrieval.pages import normalise_doc_type
from retrieval.store import GridFilter

console = Console(soft_wrap=True)


def facts_command(
    ticker: Annotated[str | None, typer.Option(help="e.g. MMM")] = None,
    fy: Annotated[
        str | None, typer.Option(help="fiscal year of the documents: 2018, FY2018")
    ] = None,
    fq: Annotated[str | None, typer.Option(help="fiscal quarter of the documents: Q1..Q4")] = None,
    concept: Annotated[
        list[str] | None, typer.Option(help="only this concept (repeatable), e.g. capex")
    ] = None,
    doc_type: Annotated[str | None, typer.Option(help="10-K, 10-Q, EARNINGS")] = None,
    store: Annotated[
        Path | None,
        typer.Option("--store", envvar="WISSEN_STORE", help="grid store file (SQLite)"),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print facts as JSON lines")] = False,
    all_rows: Annotated[
        bool, typer.Option("--all", help="also rows without a canonical concept")
    ] = False,
    rebuild: Annotated[
        bool, typer.Option("--rebuild", help="re-read every stored document's facts")
    ] = False,
) -> None:
    """Numbers read from the financial statements of a slice's documents, with their pages."""
    if rebuild:
        _rebuild(store)
        return
    if not ticker:
        raise fail("say which company: --ticker MMM (or --rebuild to re-read every document)")
    known = concept_names()
    unknown = [c for c in concept or [] if c not in known]
    if unknown:
        raise fail(f"unknown concept {', '.join(unknown)}; concepts: {', '.join(known)}")
    try:
        where = GridFilter(
            ticker=ticker.strip().upper(),
            fy=parse_fy(fy) if fy else None,
            fq=parse_fq(fq) if fq else None,
            doc_type=normalise_doc_type(doc_type) if doc_type else None,
        )
        grid = open_store(store)
        check_filter(grid.cells(), where)
    except (ValueError, OutsideGridError) as exc:
        raise fail(str(exc)) from None
    try:
        facts = grid.facts(where, concept or None)
    except ValueError as exc:
        raise fail(str(exc), EXIT_FAILED) from None
    if not concept and not all_rows:
        facts = [f for f in facts if f.concept]
    if as_json:
        for fact in facts:
            typer.echo(json.dumps(fact_record(fact), ensure_ascii=False))
        return
    if not facts:
        held = sorted({f.concept for f in grid.facts(where) if f.concept})
        console.print(
            "no statement facts of that concept in that slice"
            + (f"; concepts there: {', '.join(held)}" if held else ": no statement pages were read")
        )
        return
    table = Table(title=plain(f"{where.ticker} facts"), show_lines=False)
    for column in ("concept", "label", "period", "value", "document", "page", "uid"):
        table.add_column(column, overflow="fold")
    for fact in facts:
        table.add_row(  # labels are read from filings: "[a]" is text, not markup
            *(
                plain(cell)
                for cell in (
                    fact.concept or "",
                    fact.label,
                    period_text(fact),
                    printed_value(fact),
                    fact.doc_label,
                    str(fact.page_index),
                    fact.uid,
                )
            )
        )
    console.print(table)
    console.print(f"{len(facts)} facts (page: zero-based page_index)")


def _rebuild(store: Path | None) -> None:
    grid = open_store(store, seed_if_empty=False)
    started = time.perf_counter()
    written = rebuild_facts(grid)
    console.print(
        f"re-read the facts of {len(grid.document_names())} documents: {written} facts "
        f"in {time.perf_counter() - started:.0f} s"
    )


def register(app: typer.Typer) -> None:
    app.command("facts")(facts_command)
