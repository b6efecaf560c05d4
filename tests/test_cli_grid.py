"""`research search|ingest|grid` as a user runs them: clear errors, no tracebacks."""

import json
import os
import shutil

from typer.testing import CliRunner

from cli.app import app

runner = CliRunner()


def test_offline_defaults_are_set_at_start_up():
    for key in (
        "LITELLM_LOCAL_MODEL_COST_MAP",
        "MLFLOW_DISABLE_TELEMETRY",
        "DO_NOT_TRACK",
        "HF_HUB_OFFLINE",
        "HF_DATASETS_OFFLINE",
    ):
        assert os.environ.get(key)


def test_search_with_filters_prints_citable_hits(sample_store_path):
    result = runner.invoke(
        app,
        [
            "search",
            "capital expenditures",
            "--ticker",
            "MMM",
            "--fy",
            "FY2018",
            "--store",
            str(sample_store_path),
            "-k",
            "3",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "MMM 10-K FY2018" in result.stdout and "uid" in result.stdout


def test_search_json_output(sample_store_path):
    result = runner.invoke(
        app,
        [
            "search",
            "dividends",
            "--ticker",
            "KO",
            "--fy",
            "2020",
            "--json",
            "--store",
            str(sample_store_path),
            "-k",
            "2",
        ],
    )
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(rows) == 2 and rows[0]["doc_label"] == "KO 10-K FY2020"


def test_unknown_ticker_lists_what_the_grid_holds(sample_store_path):
    result = runner.invoke(
        app, ["search", "revenue", "--ticker", "ZZZZ", "--store", str(sample_store_path)]
    )
    assert result.exit_code == 2
    assert "ZZZZ is not in the grid" in result.output and "MMM" in result.output
    assert "Traceback" not in result.output


def test_year_outside_the_grid_is_explained(sample_store_path):
    result = runner.invoke(
        app,
        ["search", "revenue", "--ticker", "MMM", "--fy", "2031", "--store", str(sample_store_path)],
    )
    assert result.exit_code == 2 and "FY2031 is not in the grid for MMM" in result.output


def test_bad_inputs_get_messages(sample_store_path):
    for args in (
        ["search", "  "],
        ["search", "x", "--fy", "twenty"],
        ["search", "x", "--fq", "Q7"],
        ["search", "x", "--doc-type", "20-F"],
    ):
        result = runner.invoke(app, [*args, "--store", str(sample_store_path)])
        assert result.exit_code == 2, args
        assert "error" in result.output and "Traceback" not in result.output


def test_a_new_store_is_announced_as_the_default_or_as_one_the_user_chose(
    tmp_path, monkeypatch, capsys, sample_store_path
):
    import retrieval.store
    from cli.grid_commands import announce_new_store

    monkeypatch.delenv("WISSEN_STORE", raising=False)
    default = tmp_path / "data" / "grid.sqlite"
    monkeypatch.setattr(retrieval.store, "default_store_path", lambda: default)
    announce_new_store(None)
    said = " ".join(capsys.readouterr().err.split())
    assert f"the default grid store {default} does not exist yet" in said and "--store" not in said
    announce_new_store(tmp_path / "typo.sqlite")
    said = " ".join(capsys.readouterr().err.split())
    assert "typo.sqlite does not exist yet" in said and "--store" in said
    announce_new_store(sample_store_path)  # a store that exists: nothing to say
    assert capsys.readouterr().err == ""


def test_fresh_store_is_seeded_from_the_sample(tmp_path):
    result = runner.invoke(app, ["grid", "--store", str(tmp_path / "new.sqlite")])
    assert result.exit_code == 0, result.output
    assert "MMM" in result.stdout and "FY2018" in result.stdout


def test_ingest_reports_skips_and_keeps_the_rest(shared_data, tmp_path):
    folder = tmp_path / "pdfs"
    folder.mkdir()
    shutil.copy(shared_data / "pdfs" / "PEPSICO_2023_8K_dated-2023-05-05.pdf", folder)
    (folder / "3M_2019_10K.pdf").write_bytes(b"not a pdf")
    store = tmp_path / "g.sqlite"
    result = runner.invoke(app, ["ingest", str(folder), "--store", str(store), "--embed", "now"])
    assert result.exit_code == 1
    assert "skipped" in result.output and "3M_2019_10K.pdf" in result.output
    assert "ingested 1 documents, 5 pages" in result.stdout
    grid = runner.invoke(app, ["grid", "--store", str(store)])
    assert "PEP" in grid.stdout and "5 with vectors (100%)" in grid.stdout


def test_ingest_missing_path(tmp_path):
    result = runner.invoke(
        app, ["ingest", str(tmp_path / "nope"), "--store", str(tmp_path / "g.sqlite")]
    )
    assert result.exit_code == 2 and "does not exist" in result.output
