"""``research grid copy SRC DST``: move a grid between stores without re-embedding it."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from cli.errors import fail, say
from cli.progress import progress_bar
from retrieval.ingest.grid_copy import copy_grid, document_names
from retrieval.open_store import describe_location, open_store

console = Console(soft_wrap=True)


def copy_command(
    source: Annotated[
        str, typer.Argument(help="the grid to copy: a SQLite file or postgresql://…")
    ],
    destination: Annotated[
        str, typer.Argument(help="where to copy it: a SQLite file or postgresql://…")
    ],
) -> None:
    """Copy a grid's pages, vectors and facts to another store (resumable; re-run to finish)."""
    if source == destination:
        raise fail("the source and the destination are the same store")
    src = open_store(source, seed_if_empty=False)
    if src.stats()["pages"] == 0:
        raise fail(f"{describe_location(src)} holds no pages: nothing to copy")
    dst = open_store(destination, seed_if_empty=False)
    try:
        names = document_names(src)
        with progress_bar() as progress:
            task = progress.add_task("copying documents", total=len(names))
            report = copy_grid(src, dst, on_document=lambda _n, _p: progress.advance(task))
    except ValueError as exc:
        raise fail(str(exc)) from None
    stats = dst.stats()
    if report.skipped:
        say(f"{report.skipped} documents were already there, unchanged: skipped")
    console.print(
        f"copied {report.documents} documents ({report.pages} pages, {report.vectors} vectors, "
        f"{report.facts} facts) from {describe_location(src)} to {describe_location(dst)} "
        f"(now: {stats['documents']} documents, {stats['pages']} pages, "
        f"{stats['vectors']} vectors)",
        highlight=False,
        markup=False,  # the stores are named as the user gave them, brackets and all
    )


def register(grid_app: typer.Typer) -> None:
    grid_app.command("copy")(copy_command)
