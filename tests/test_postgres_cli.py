"""The PostgreSQL grid as a user meets it: ``--store postgresql://…`` on the commands,
``research grid copy`` both ways, its backend lines, and a server that stops mid-run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import dspy
import pytest
from postgres_server import drop_database, fresh_database, with_database
from scripted_lm import ScriptedLM
from typer.testing import CliRunner

from cli.app import app
from programs.research_program import ResearchProgram, ResearchSettings
from retrieval.ingest.grid_copy import copy_grid, document_names
from retrieval.postgres.store import PostgresStore
from retrieval.search.hybrid import HybridSearcher
from retrieval.sqlite.store import SQLiteStore
from retrieval.store import GridFilter

pytest_plugins = ("postgres_server",)
runner = CliRunner()
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def sample_on_postgres(postgres_server, sample_store_path):
    """The bundled sample grid copied into a database of its own (once for the module)."""
    name = fresh_database(postgres_server)
    uri = with_database(postgres_server, name)
    result = runner.invoke(app, ["grid", "copy", str(sample_store_path), uri])
    assert result.exit_code == 0, result.output
    yield uri, result.stdout
    drop_database(postgres_server, name)


def test_grid_copy_moves_pages_vectors_and_facts_and_grid_shows_the_backend(
    sample_on_postgres, sample_store
):
    uri, copied = sample_on_postgres
    stats = sample_store.stats()
    assert f"({stats['pages']} pages, {stats['vectors']} vectors" in copied
    shown = runner.invoke(app, ["grid", "--store", uri])
    assert shown.exit_code == 0, shown.output
    assert "backend: PostgreSQL" in shown.stdout and "pgvector" in shown.stdout
    assert "hnsw" not in shown.stdout.lower() or "vectors_hnsw_" in shown.stdout
    assert "vectors_hnsw_" in shown.stdout and "pages_tsv" in shown.stdout
    assert f"{stats['pages']} pages, {stats['vectors']} with vectors (100%)" in shown.stdout


def test_a_second_copy_skips_what_is_already_there(sample_on_postgres, sample_store_path):
    uri, _ = sample_on_postgres
    again = runner.invoke(app, ["grid", "copy", str(sample_store_path), uri])
    assert again.exit_code == 0, again.output
    assert "copied 0 documents" in again.stdout


def test_copy_back_to_sqlite_gives_the_same_grid_and_the_same_hits(
    sample_on_postgres, sample_store, tmp_path
):
    uri, _ = sample_on_postgres
    back = tmp_path / "back.sqlite"
    result = runner.invoke(app, ["grid", "copy", uri, str(back)])
    assert result.exit_code == 0, result.output
    copy = SQLiteStore(back)
    assert copy.stats() == sample_store.stats()
    where = GridFilter(ticker="MMM", fy=2018, fq=4)

    def top(store):
        return [p.uid for p in store.pages_by_id([h for h, _ in store.bm25(["capital"], where, 5)])]

    assert top(copy) == top(sample_store)
    copy.close()


def test_search_on_postgres_finds_what_sqlite_finds(sample_on_postgres, sample_store):
    uri, _ = sample_on_postgres
    store = PostgresStore(uri)
    on_postgres, on_sqlite = HybridSearcher(store), HybridSearcher(sample_store)
    for query, where in [
        ("capital expenditures", GridFilter(ticker="MMM", fy=2018, fq=4)),
        ("dividends paid", GridFilter(ticker="KO", fy=2020)),
        ("3M capital expenditures 2018", GridFilter()),
        ("PepsiCo net revenue by division", GridFilter()),
    ]:
        pg = [h.uid for h in on_postgres.search(query, where, k=5)]
        sq = [h.uid for h in on_sqlite.search(query, where, k=5)]
        assert len(set(pg) & set(sq)) >= 4, (query, pg, sq)
        assert pg[0] == sq[0], query
    store.close()
    result = runner.invoke(
        app, ["search", "capital expenditures", "--ticker", "MMM", "--fy", "2018", "--store", uri]
    )
    assert result.exit_code == 0 and "MMM 10-K FY2018" in result.stdout


def test_an_unreachable_server_is_one_line_on_the_command_line_without_the_password():
    secret = "hunter2-Zz"
    uri = f"postgresql://ana:{secret}@127.0.0.1:1/grid"
    done = subprocess.run(
        [sys.executable, "-m", "cli.app", "grid", "--store", uri],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and secret not in done.stderr + done.stdout
    assert done.stderr.count("\n") == 1 and "127.0.0.1" in done.stderr


def test_a_server_stopped_mid_run_stops_the_program_with_a_store_fault(
    private_postgres, sample_store
):
    """The first probe finishes; the server stops; the next search raises a store fault,
    which stops the program (the run service marks the run failed and resumable), instead
    of probes spending rounds on failing searches and closing under daggers."""
    from retrieval.search.tools import StoreFault

    store = PostgresStore(private_postgres.uri)
    copy_grid(
        sample_store,
        store,
        documents=[n for n in document_names(sample_store) if n.startswith("3M_")],
    )
    program = ResearchProgram(
        HybridSearcher(store), settings=ResearchSettings(concurrency=1, figures=False)
    )
    stopped: list[str] = []

    def stop_after_first_verdict(event) -> None:
        if event.kind == "verdict" and not stopped:
            stopped.append(event.probe or "")
            private_postgres.stop()

    program.observer = stop_after_first_verdict
    lm = ScriptedLM()
    with dspy.context(lm=lm), pytest.raises(StoreFault):
        program(question="3M capex in FY2022")
    assert stopped
    store.close()
