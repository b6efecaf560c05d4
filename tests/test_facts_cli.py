"""`research facts` as a user runs it on the bundled sample grid."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from cli.app import app

runner = CliRunner()


def facts(*args, store):
    return runner.invoke(app, ["facts", *args, "--store", str(store)])


def test_capex_as_json_with_its_page(sample_store_path):
    result = facts(
        "--ticker", "MMM", "--fy", "2018", "--concept", "capex", "--json", store=sample_store_path
    )
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    fy2018 = [r for r in rows if r["fy"] == 2018 and r["doc_label"] == "MMM 10-K FY2018"]
    assert fy2018 and fy2018[0]["value"] == -1_577_000_000.0
    assert fy2018[0]["page_index"] == 59 and fy2018[0]["printed"] == "-1,577 million USD"
    assert {r["concept"] for r in rows} == {"capex"}


def test_table_shows_concept_period_value_and_page(sample_store_path):
    result = facts(
        "--ticker", "MMM", "--fy", "FY2018", "--concept", "capex", store=sample_store_path
    )
    assert result.exit_code == 0, result.output
    assert "capex" in result.stdout and "FY2018" in result.stdout and "-1,577" in result.stdout


def test_unknown_concept_lists_the_concepts(sample_store_path):
    result = facts("--ticker", "MMM", "--concept", "capx", store=sample_store_path)
    assert result.exit_code == 2
    assert "unknown concept capx" in result.output and "capex" in result.output


def test_unknown_ticker_lists_the_tickers(sample_store_path):
    result = facts("--ticker", "NOPE", store=sample_store_path)
    assert result.exit_code == 2
    assert "NOPE is not in the grid" in result.output and "MMM" in result.output


def test_year_outside_the_grid(sample_store_path):
    result = facts("--ticker", "MMM", "--fy", "1999", store=sample_store_path)
    assert result.exit_code == 2 and "FY1999 is not in the grid" in result.output


def test_rebuild_rereads_every_document(tmp_path, sample_store_path):
    import shutil

    copy = tmp_path / "grid.sqlite"
    shutil.copy(sample_store_path, copy)
    from retrieval.sqlite.store import SQLiteStore

    store = SQLiteStore(copy)
    before = store.count_facts()
    store.replace_facts("3M_2018_10K", [])
    assert store.count_facts() < before
    store.close()
    result = runner.invoke(app, ["facts", "--rebuild", "--store", str(copy)])
    assert result.exit_code == 0, result.output
    assert f"{before} facts" in result.stdout
    assert SQLiteStore(copy).count_facts() == before


def test_no_ticker_is_a_clear_error(sample_store_path):
    result = facts(store=sample_store_path)
    assert result.exit_code == 2 and "--ticker" in result.output
