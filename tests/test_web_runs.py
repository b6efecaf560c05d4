"""The runs list, a run's report page, its downloads and its MLflow link, for CLI runs."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from scripted_lm import ScriptedLM
from typer.testing import CliRunner
from web_helpers import client

import lm.language_models as language_models
from cli.app import app as cli
from web.settings import WebSettings

QUESTION = "How did 3M's capital expenditure compare with PepsiCo's in FY2022?"


@pytest.fixture(scope="module")
def asked(tmp_path_factory, sample_store_path, mlflow_template):
    """Two runs made by `research ask` (one tracked in MLflow), in a private WISSEN_HOME."""
    home = tmp_path_factory.mktemp("home")
    shutil.copy(mlflow_template, home / "mlflow.db")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("WISSEN_HOME", str(home))
        mp.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{home / 'mlflow.db'}")
        lm = ScriptedLM(insufficient=lambda s, p: s == "PEP FY2022 Q4" and p.startswith("Drivers"))
        mp.setattr(language_models, "build_lm", lambda *a, **k: lm)
        mp.setattr(language_models, "check_lm_reachable", lambda *a, **k: None)
        ids = []
        for track in ("--track", "--no-track"):
            out = home / "record.json"
            args = ["ask", QUESTION, "--store", str(sample_store_path), "--max-probes", "2",
                    "--no-figures", "--quiet", track, "--json", str(out)]  # fmt: skip
            result = CliRunner().invoke(cli, args)
            assert result.exit_code == 0, result.output
            ids.append(json.loads(out.read_text())["run_id"])
        with client(WebSettings(store=sample_store_path)) as web:
            yield web, home, ids


def test_the_runs_page_lists_every_run_newest_first(asked):
    web, _, (tracked, untracked) = asked
    runs = web.get("/api/runs").json()["runs"]
    assert [r["run_id"] for r in runs] == [untracked, tracked]
    first = runs[0]
    assert first["status"] == "completed" and first["question"] == QUESTION
    assert first["lm_calls"] > 0 and first["tokens"] > 0 and first["slices"] == "2/2"
    assert first["wall_seconds"] > 0
    html = web.get("/runs").text
    assert html.index(untracked) < html.index(tracked) and "completed" in html


def test_a_run_page_shows_the_report_with_linked_citations(asked):
    web, home, (run_id, _) = asked
    html = web.get(f"/runs/{run_id}").text
    markdown = (home / "runs" / run_id / "report.md").read_text()
    uids = set(re.findall(r"uid: ([0-9a-f]{12})\)", markdown))
    assert uids and {u for u in re.findall(r'data-uid="([0-9a-f]{12})"', html)} == uids
    assert '<h2 id="notes">Notes</h2>' in html and 'class="dagger" href="#notes"' in html
    assert web.get(f"/api/runs/{run_id}").json()["report"] == markdown


def test_the_report_and_the_run_record_download(asked):
    web, home, (run_id, _) = asked
    report = web.get(f"/runs/{run_id}/report.md")
    assert report.text == (home / "runs" / run_id / "report.md").read_text()
    assert f'filename="{run_id}-report.md"' in report.headers["content-disposition"]
    record = web.get(f"/runs/{run_id}/run.json")
    assert (
        record.json()["run_id"] == run_id and record.headers["content-type"] == "application/json"
    )


def test_a_run_links_to_its_mlflow_run(asked):
    web, _, (tracked, untracked) = asked
    link = web.get(f"/runs/{tracked}/mlflow", follow_redirects=False)
    assert link.status_code == 303
    assert re.fullmatch(
        r"http://127\.0\.0\.1:5000/#/experiments/\d+/runs/[0-9a-f]{32}", link.headers["location"]
    )
    assert web.get(f"/runs/{untracked}/mlflow").status_code == 404


@pytest.mark.parametrize("run_id", ["nope", ".hidden", "..%2F..%2Fetc", "a" * 80])
def test_unknown_runs_are_not_found(asked, run_id):
    web = asked[0]
    for path in ("", "/report.md", "/run.json", "/mlflow"):
        assert web.get(f"/runs/{run_id}{path}").status_code == 404
