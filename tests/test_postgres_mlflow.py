"""A shared run history: ``MLFLOW_TRACKING_URI=postgresql://…`` takes ``research ask``'s runs.

MLflow's SQLAlchemy store reaches PostgreSQL through psycopg 3 (SQLAlchemy 2.1's default
PostgreSQL driver; ``postgresql+psycopg://`` names it explicitly), so no other driver is
needed. A fresh tracking database spends a while in MLflow's migrations: one per session.
"""

from __future__ import annotations

import pytest
from postgres_server import drop_database, fresh_database, with_database
from run_scripted_ask import QUESTION, scripted_lm
from typer.testing import CliRunner

import lm.language_models as language_models
from cli.app import app

pytest_plugins = ("postgres_server",)
runner = CliRunner()


@pytest.fixture(scope="module")
def tracking_uri(postgres_server):
    import mlflow

    previous = mlflow.get_tracking_uri()
    name = fresh_database(postgres_server)
    uri = with_database(postgres_server, name)
    mlflow.MlflowClient(tracking_uri=uri).search_experiments()  # migrate once
    yield uri
    # The runs leave MLflow pointed at this database with DSPy autologging on: later tests'
    # programs would send their traces to it after it is dropped (logged errors, no failure).
    mlflow.flush_trace_async_logging()
    mlflow.dspy.autolog(disable=True)
    mlflow.set_tracking_uri(previous)
    drop_database(postgres_server, name)


@pytest.mark.parametrize("scheme", ["postgresql://", "postgresql+psycopg://"])
def test_ask_records_its_run_in_a_postgresql_tracking_store(
    scheme, tracking_uri, wissen_home, sample_store_path, monkeypatch
):
    import mlflow

    uri = scheme + tracking_uri.split("://", 1)[1]
    monkeypatch.setenv("MLFLOW_TRACKING_URI", uri)
    lm = scripted_lm()
    monkeypatch.setattr(language_models, "build_lm", lambda *args, **kw: lm)
    monkeypatch.setattr(language_models, "check_lm_reachable", lambda *args, **kw: None)
    before = _runs(mlflow.MlflowClient(tracking_uri=uri))
    result = runner.invoke(
        app, ["ask", QUESTION, "--store", str(sample_store_path), "--max-probes", "1", "--quiet"]
    )
    assert result.exit_code == 0, result.output
    client = mlflow.MlflowClient(tracking_uri=uri)
    (run,) = [r for r in _runs(client) if r.info.run_id not in {b.info.run_id for b in before}]
    assert run.info.status == "FINISHED" and "lm_calls" in run.data.metrics
    assert {"report.md", "run.json"} <= {a.path for a in client.list_artifacts(run.info.run_id)}
    mlflow.flush_trace_async_logging()  # traces land before the test database is dropped


def _runs(client) -> list:
    experiments = [e for e in client.search_experiments() if e.name == "wissen-ask"]
    return client.search_runs([experiments[0].experiment_id]) if experiments else []
