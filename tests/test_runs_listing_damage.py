"""`research runs` with a damaged run directory: the others are listed, that one is marked.

A ``meta.json`` or ``run.json`` can be valid JSON of the wrong shape (a hand edit, another
tool's file, a truncated write by an old version); one such file used to make the whole
listing exit 1 with nothing shown.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cli.app import app
from runs.meta_shape import UNREADABLE
from runs.run_dir import RunDir, list_runs

runner = CliRunner()
GOOD = "20261201-090000-aaaaaa"
DAMAGED = {
    "20261201-090100-bbbbbb": ("meta.json", "[]"),
    "20261201-090200-cccccc": ("meta.json", '"just a string"'),
    "20261201-090300-dddddd": ("meta.json", '{"question": 5, "started_at": 7, "status": []}'),
    "20261201-090400-eeeeee": ("run.json", "[1, 2, 3]"),
    "20261201-090500-ffffff": ("meta.json", '{"question": "half a fi'),
    "20261201-090600-gggggg": ("meta.json", '{"lm_calls": "many", "model": {"a": 1}}'),
}


@pytest.fixture
def runs_home(tmp_path, monkeypatch):
    monkeypatch.setenv("WISSEN_HOME", str(tmp_path))
    RunDir.start(GOOD, {"question": "What was Acme's revenue in FY2020?", "model": "m"}).update(
        status="completed"
    )
    for run_id, (name, text) in DAMAGED.items():
        folder = tmp_path / "runs" / run_id
        folder.mkdir(parents=True)
        (folder / name).write_text(text)
    return tmp_path


def test_the_listing_marks_damaged_runs_and_shows_the_rest(runs_home):
    rows = {row["run_id"]: row for row in list_runs()}
    assert rows[GOOD]["status"] == "completed"
    assert {run_id for run_id, row in rows.items() if row["status"] == UNREADABLE} == set(DAMAGED)
    for run_id in DAMAGED:
        assert rows[run_id]["error"], rows[run_id]

    result = runner.invoke(app, ["runs"])
    assert result.exit_code == 0, result.output
    assert GOOD in result.stdout and "What was Acme" in result.stdout
    for run_id in DAMAGED:
        line = next(line for line in result.stdout.splitlines() if run_id in line)
        assert UNREADABLE in line and (".json" in line), line

    listed = runner.invoke(app, ["runs", "--json"])
    assert listed.exit_code == 0, listed.output
    assert {row["run_id"] for row in json.loads(listed.stdout)} == {GOOD, *DAMAGED}


def test_resuming_a_damaged_run_is_refused_with_a_message(runs_home):
    run_id = next(iter(DAMAGED))
    result = runner.invoke(app, ["ask", "--resume", run_id, "--quiet", "--no-track"])
    assert result.exit_code == 2, result.output
    assert "cannot be resumed" in result.stderr
