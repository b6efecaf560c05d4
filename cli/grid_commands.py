"""Grid commands: ``ingest``, ``embed``, ``search`` and ``grid``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from cli import grid_copy_command
from cli.errors import EXIT_FAILED, fail, show_error, stderr
from cli.progress import progress_bar
from cli.terminal_text import for_terminal
from retrieval.browse import BrowseError, check_query, grid_filter, grid_matrix, search_grid
from retrieval.ingest.embedding_job import embed_missing
from retrieval.ingest.pipeline import ingest
from retrieval.ingest.vectors_file import read_vectors_file, vectors_beside
from retrieval.open_store import describe_location, is_new_file, open_store
from retrieval.search.embeddings import make_embedder
from retrieval.search.hybrid import HybridSearcher, SearchSettings
from retrieval.sqlite.store import NotAGridStore
from retrieval.store_info import backend_lines, embed_job_setting
from retrieval.store_location import StoreLocation

StoreOption = Annotated[
    StoreLocation | None,
    typer.Option(
        "--store",
        envvar="WISSEN_STORE",
        parser=StoreLocation.parse,
        metavar="STORE",
        help="grid store: a SQLite file, or postgresql://USER:PASSWORD@HOST:PORT/DATABASE",
    ),
]
INLINE_EMBED_LIMIT = 3000

console = Console(soft_wrap=True)


def say_seeding(location: StoreLocation, new: bool) -> None:
    """Say on stderr that the grid store at ``location`` is being made from the bundled
    sample filings (``open_store``'s seed notice): a mistyped ``--store`` would otherwise
    answer from the sample grid without a word."""
    if not new:
        message = f"grid store {location} is empty: loading the bundled sample filings…"
    elif location == StoreLocation.chosen(None) and not os.environ.get("WISSEN_STORE"):
        message = f"the default grid store {location} does not exist yet: making it"
        message += " from the bundled sample filings"
    else:  # chosen by the user: most likely a typo, so say what to do instead
        message = (
            f"grid store {location} does not exist yet: making it from the bundled sample "
            "filings (give an existing store with --store, or `research ingest` filings into it)"
        )
    stderr.print(message, highlight=False, markup=False)


def announce_new_store(store: StoreLocation | None) -> None:
    """Say at once that a grid store file that does not exist yet will be made, as its
    first run will (``research serve``, whose runs open the store later)."""
    location = StoreLocation.chosen(store)
    if is_new_file(location):
        say_seeding(location, new=True)


def _open_grid(store: StoreLocation | None, seed_if_empty: bool = True):
    """The grid at ``store``; a file that is not one (``--store mlflow.db``) is a one-line
    error, before anything is written into it."""
    try:
        return open_store(store, seed_if_empty=seed_if_empty, on_seed=say_seeding)
    except NotAGridStore as exc:
        raise fail(str(exc)) from None


def ingest_command(
    path: Annotated[Path, typer.Argument(help="folder of filing PDFs, a PDF, or pages.jsonl.gz")],
    store: StoreOption = None,
    companies: Annotated[
        Path | None, typer.Option(help="company→ticker JSON (default: bundled map)")
    ] = None,
    embed: Annotated[
        str,
        typer.Option(
            help="vectors: auto (inline if small, else background) | now | background | skip"
        ),
    ] = "auto",
    vectors: Annotated[
        Path | None,
        typer.Option(
            help="page vectors file (.npz); default: vectors.npz or vectors-*.npz beside "
            "a pages file"
        ),
    ] = None,
) -> None:
    """Add filings to the grid; re-ingesting a document replaces it."""
    if embed not in ("auto", "now", "background", "skip"):
        raise fail(f"--embed must be auto, now, background or skip, not {embed!r}")
    if not path.exists():
        raise fail(f"{path} does not exist")
    if vectors is not None and not vectors.is_file():
        raise fail(f"--vectors {vectors}: no such file")
    vectors = vectors or vectors_beside(path)
    try:
        shipped = read_vectors_file(vectors) if vectors else None
    except ValueError as exc:
        raise fail(str(exc)) from None
    grid = _open_grid(store, seed_if_empty=False)
    with progress_bar() as progress:
        # the total comes once known: a folder when listed, a pages file after its first pass
        task = progress.add_task("ingesting documents", total=None)
        try:
            report = ingest(
                path,
                grid,
                str(companies) if companies else None,
                on_document=lambda _doc: progress.advance(task),
                vectors=shipped,
                on_total=lambda n: progress.update(task, total=n),
            )
        except ValueError as exc:
            raise fail(str(exc)) from None
    for name, why in report.skipped:
        stderr.print(
            f"[yellow]skipped[/] {for_terminal(name)}: {for_terminal(why)}", highlight=False
        )
    for name in report.ignored:
        stderr.print(f"[dim]ignored[/] {for_terminal(name)}: not a PDF", highlight=False)
    for name, why in report.warnings:
        stderr.print(
            f"[yellow]warning[/] {for_terminal(name)}: {for_terminal(why)}", highlight=False
        )
    if report.duplicates:
        stderr.print(
            f"[yellow]warning[/] {report.duplicates:,} page rows repeated a page of their "
            f"document (same doc_name and page_num; {report.duplicates_differing:,} with "
            "different content): each page is stored once, from its last row",
            highlight=False,
        )
    stats = grid.stats()
    console.print(
        f"ingested {report.documents} documents, {report.pages} pages "
        f"into {describe_location(grid)} "
        f"(grid: {stats['documents']} documents, {stats['pages']} pages); "
        f"{report.facts} statement facts"
    )
    if report.file_error:
        show_error(f"{report.file_error}; the documents read before it are stored")
    if shipped:
        console.print(
            f"vectors from {shipped.path}: {report.vectors_used} pages matched; "
            f"{report.vectors_mismatched} had no vector for this model and text (embedded as usual)"
        )
    missing = grid.count_missing_vectors(grid.model_id)
    if embed == "now" or (embed == "auto" and 0 < missing <= INLINE_EMBED_LIMIT):
        _embed_inline(grid)
    elif embed != "skip" and missing:
        _embed_in_background(grid, missing)
    if report.skipped or report.file_error:
        raise typer.Exit(EXIT_FAILED)


def _embed_in_background(grid, missing: int) -> None:
    log, env = embed_job_setting(grid)
    process = subprocess.Popen(
        [sys.executable, "-m", "cli.app", "embed"],
        stdout=log.open("a"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
        env=env,
    )
    console.print(
        f"embedding {missing} pages in the background (pid {process.pid}, log {log}); "
        "search works meanwhile (BM25 on pages without vectors); `research grid` shows progress"
    )


def _embed_inline(grid, embedder_kind: str = "minilm") -> int:
    embedder = make_embedder(embedder_kind)
    missing = grid.count_missing_vectors(embedder.model_id)
    with progress_bar() as progress:
        task = progress.add_task("embedding pages", total=missing)
        return embed_missing(grid, embedder, on_batch=lambda n: progress.advance(task, n))


def embed_command(
    store: StoreOption = None,
    embedder: Annotated[str, typer.Option(help="minilm (offline) or openai[:MODEL]")] = "minilm",
) -> None:
    """Fill in missing page vectors (resumable; unchanged pages are never re-embedded)."""
    grid = _open_grid(store, seed_if_empty=False)
    try:
        done = _embed_inline(grid, embedder)
    except (ValueError, RuntimeError) as exc:
        raise fail(str(exc)) from None
    console.print(f"embedded {done} pages; {grid.stats()}")


def search_command(
    query: Annotated[str, typer.Argument(help="what to look for")],
    ticker: Annotated[str | None, typer.Option(help="e.g. MMM")] = None,
    fy: Annotated[str | None, typer.Option(help="fiscal year: 2018, FY2018, FY18")] = None,
    fq: Annotated[str | None, typer.Option(help="fiscal quarter: Q1..Q4")] = None,
    doc_type: Annotated[str | None, typer.Option(help="10-K, 10-Q, 8-K, EARNINGS")] = None,
    k: Annotated[int, typer.Option("-k", min=1, max=100, help="hits to show")] = 5,
    store: StoreOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="print hits as JSON lines")] = False,
    no_rerank: Annotated[bool, typer.Option(help="skip the rerank stage")] = False,
) -> None:
    """Hybrid search (BM25 + dense, fused) over the grid, with grid filters."""
    try:
        query = check_query(query)
        where = grid_filter(ticker, fy, fq, doc_type)
        grid = open_store(store, on_seed=say_seeding)
    except ValueError as exc:  # a BrowseError, or a store that cannot be opened
        raise fail(str(exc)) from None
    searcher = HybridSearcher(grid, settings=SearchSettings(rerank=not no_rerank))
    try:
        hits = search_grid(grid, query, where, k=k, searcher=searcher)
    except BrowseError as exc:  # a filter outside what the grid holds
        raise fail(str(exc)) from None
    if as_json:
        for hit in hits:
            row = {
                f: getattr(hit, f)
                for f in ("uid", "page_id", "doc_label", "page_index", "score", "snippet")
            }
            typer.echo(json.dumps(row))
        return
    if not hits:
        console.print("no matching pages")
        return
    for rank, hit in enumerate(hits, 1):
        console.print(
            f"[bold]{rank}. {hit.doc_label} p.{hit.page_index + 1}[/]  score {hit.score:.4f}  "
            f"(page_id: {hit.page_id}, uid: {hit.uid})",
            highlight=False,
        )
        console.print(f"   {hit.snippet}", highlight=False, markup=False)


def grid_command(ctx: typer.Context, store: StoreOption = None) -> None:
    """What the grid holds: tickers, fiscal periods, pages, vector coverage and backend."""
    if ctx.invoked_subcommand is not None:
        return
    grid = _open_grid(store)
    matrix = grid_matrix(grid)
    table = Table(title=describe_location(grid))
    for column in ("ticker", "company", "periods", "pages"):
        table.add_column(column)
    for ticker, periods in matrix.coverage().items():
        pages = str(matrix.ticker_pages(ticker))
        table.add_row(ticker, matrix.companies[ticker], ", ".join(periods), pages)
    console.print(table)
    console.print(
        f"{matrix.documents} documents, {matrix.pages} pages, "
        f"{matrix.vectors} with vectors ({matrix.vectors / max(matrix.pages, 1):.0%})"
    )
    for line in backend_lines(grid):
        console.print(line, highlight=False, markup=False)


def register(app: typer.Typer) -> None:
    app.command("ingest")(ingest_command)
    app.command("embed")(embed_command)
    app.command("search")(search_command)
    grid_app = typer.Typer(help="What the grid holds; `grid copy` moves it between stores.")
    grid_app.callback(invoke_without_command=True)(grid_command)
    grid_copy_command.register(grid_app)
    app.add_typer(grid_app, name="grid")
