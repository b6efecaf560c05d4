"""`research eval` and `research optimise` end to end, offline, with scripted LMs."""

from __future__ import annotations

import json

import pytest
from optimiser_lm import OptimiserLM
from scripted_lm import ScriptedLM
from typer.testing import CliRunner

import lm.language_models as language_models
from cli.app import app

runner = CliRunner()


def _use(monkeypatch, lm) -> None:
    monkeypatch.setattr(language_models, "build_lm", lambda spec=None: lm)
    monkeypatch.setattr(language_models, "check_lm_reachable", lambda spec=None, timeout=5: None)


@pytest.fixture
def optimiser_lm(monkeypatch):
    lm = OptimiserLM()
    _use(monkeypatch, lm)
    return lm


def _client(home):
    import mlflow

    return mlflow.MlflowClient(tracking_uri=f"sqlite:///{home / 'mlflow.db'}")


def _runs(client, experiment_name):
    (experiment,) = [e for e in client.search_experiments() if e.name == experiment_name]
    return client.search_runs([experiment.experiment_id])


def test_eval_planner_prints_the_table_and_logs_one_run(
    optimiser_lm, wissen_home, sample_store_path
):
    args = ["eval", "--set", "planner", "--split", "dev", "--store", str(sample_store_path)]
    result = runner.invoke(app, [*args, "--examples"])
    assert result.exit_code == 0, result.output
    assert "slice_f1" in result.stdout and "planner-0" in result.stdout
    (run,) = _runs(_client(wissen_home), "wissen-eval")
    assert run.info.status == "FINISHED"
    assert run.data.params["set"] == "planner" and run.data.params["split"] == "dev"
    assert len(run.data.params["program_version"]) == 10
    assert {"slice_f1", "slice_exact", "unknown_recall", "score", "examples"} <= set(
        run.data.metrics
    )
    assert 0 < run.data.metrics["score"] <= 1
    artifacts = {a.path for a in _client(wissen_home).list_artifacts(run.info.run_id)}
    assert {"results.json", "outputs.json"} <= artifacts


def test_eval_reports_scores_every_report_metric(monkeypatch, wissen_home, sample_store_path):
    _use(monkeypatch, ScriptedLM(probes_per_slice=1))
    result = runner.invoke(
        app,
        [
            "eval",
            "--set",
            "reports",
            "--split",
            "test",
            "--limit",
            "1",
            "--max-probes",
            "1",
            "--max-rounds",
            "2",
            "--store",
            str(sample_store_path),
        ],
    )
    assert result.exit_code == 0, result.output
    (run,) = _runs(_client(wissen_home), "wissen-eval")
    expected = {
        "citation_coverage", "numeric_grounding", "dagger_correctness", "answer_correctness",
        "composite", "fact_recall", "fact_cited_recall", "score",
    }  # fmt: skip
    assert expected <= set(run.data.metrics)
    assert run.data.metrics["citation_coverage"] > 0


def test_eval_rejects_unknown_sets_and_splits(optimiser_lm, wissen_home, sample_store_path):
    store = ["--store", str(sample_store_path)]
    result = runner.invoke(app, ["eval", "--set", "nope", *store])
    assert result.exit_code == 2 and "financebench" in result.stderr
    result = runner.invoke(app, ["eval", "--set", "planner", "--split", "holdout", *store])
    assert result.exit_code == 2 and "test" in result.stderr


def _optimise(tmp_path, sample_store_path, *extra):
    return runner.invoke(
        app,
        [
            "optimise",
            "--set",
            "planner",
            "--target",
            "planner",
            "--limit",
            "6",
            "--out-dir",
            str(tmp_path / "optimised"),
            "--store",
            str(sample_store_path),
            "--threads",
            "2",
            *extra,
        ],
    )


def _check_outputs(tmp_path, home, name, optimiser):
    folder = tmp_path / "optimised" / name
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["optimiser"] == optimiser and manifest["set"] == "planner"
    assert set(manifest["scores"]) == {"baseline_dev", "baseline_test", "dev", "test"}
    scores = manifest["scores"]
    assert manifest["selected"] == (
        "compiled" if scores["dev"] >= scores["baseline_dev"] else "baseline"
    )
    assert all(0 <= v <= 1 for v in manifest["scores"].values())
    assert manifest["predictors"] == ["planner.extract_facets", "planner.equity_to_ticker"]
    program = json.loads((folder / "program.json").read_text())
    assert "planner.extract_facets" in program and "reviewer.review" in program
    assert "api_key" not in (folder / "program.json").read_text()
    assert (folder / "prompts" / "planner.extract_facets.md").exists()
    client = _client(home)
    runs = _runs(client, "wissen-optimise")
    parents = [r for r in runs if "mlflow.parentRunId" not in r.data.tags]
    (parent,) = parents
    assert parent.info.status == "FINISHED"
    assert {"baseline_dev", "baseline_test", "dev", "test"} <= set(parent.data.metrics)
    for key in ("optimiser", "budget", "seed", "evalset_hash", "git_commit", "dspy_version"):
        assert key in parent.data.params
    children = {r.info.run_name for r in runs if r is not parent}
    assert {"shipped-dev", "shipped-test", "compiled-dev", "compiled-test"} <= children
    shipped_dev = next(r for r in runs if r.info.run_name == "shipped-dev")
    compiled_dev = next(r for r in runs if r.info.run_name == "compiled-dev")
    # The same metric names for both versions: MLflow's compare view lines them up.
    assert set(shipped_dev.data.metrics) == set(compiled_dev.data.metrics)
    assert shipped_dev.data.params["program_version"] == manifest["baseline_version"]
    version = client.get_prompt_version_by_alias("wissen.planner.extract_facets", "champion")
    assert version.tags["run_id"] == parent.info.run_id
    return manifest, children


def test_optimise_bootstrap_saves_registers_and_loads(
    optimiser_lm, wissen_home, sample_store_path, tmp_path
):
    result = _optimise(
        tmp_path, sample_store_path, "--optimiser", "bootstrap", "--name", "boot", "--demos", "1"
    )
    assert result.exit_code == 0, result.output
    manifest, _ = _check_outputs(tmp_path, wissen_home, "boot", "bootstrap")
    assert manifest["max_demos"] == 1  # --demos, not the light budget's 2
    program = json.loads((tmp_path / "optimised" / "boot" / "program.json").read_text())
    assert all(
        len(state.get("demos", [])) <= 1 for state in program.values() if isinstance(state, dict)
    )
    folder = tmp_path / "optimised" / "boot"
    result = runner.invoke(
        app,
        ["eval", "--set", "planner", "--split", "dev", "--limit", "3", "--program", str(folder),
         "--store", str(sample_store_path)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    evals = _runs(_client(wissen_home), "wissen-eval")
    assert evals[0].data.params["program_version"] == manifest["program_version"]


def test_optimise_mipro_light_logs_a_child_run_per_candidate(
    optimiser_lm, wissen_home, sample_store_path, tmp_path
):
    result = _optimise(
        tmp_path, sample_store_path, "--optimiser", "mipro", "--budget", "light", "--name", "m"
    )
    assert result.exit_code == 0, result.output
    _, children = _check_outputs(tmp_path, wissen_home, "m", "mipro")
    assert any(name.startswith("eval") for name in children)  # autologged candidates
    assert optimiser_lm.calls["optimiser"] > 0  # the proposer really ran


def test_optimise_gepa_with_a_scripted_reflection_lm(
    optimiser_lm, wissen_home, sample_store_path, tmp_path
):
    result = _optimise(
        tmp_path, sample_store_path, "--optimiser", "gepa", "--reflection-lm", "openai/reflect",
        "--name", "g", "--limit", "3",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    _check_outputs(tmp_path, wissen_home, "g", "gepa")


def test_optimise_simba(optimiser_lm, wissen_home, sample_store_path, tmp_path):
    result = _optimise(tmp_path, sample_store_path, "--optimiser", "simba", "--name", "s")
    assert result.exit_code == 0, result.output
    _check_outputs(tmp_path, wissen_home, "s", "simba")


def test_a_compiled_program_worse_on_dev_is_not_kept(
    optimiser_lm, wissen_home, sample_store_path, tmp_path, monkeypatch
):
    import evaluation.runner

    real, calls = evaluation.runner.evaluate, []

    def scored(program, task, examples, split=None, **kwargs):
        outcome = real(program, task, examples, split, **kwargs)
        calls.append(split)
        compiled = len(calls) in (2, 4)  # shipped dev, compiled dev, shipped test, compiled test
        for row in outcome.rows:
            row["metrics"]["score"] = 0.5 if compiled else 0.9
        return outcome

    monkeypatch.setattr(evaluation.runner, "evaluate", scored)
    result = _optimise(tmp_path, sample_store_path, "--optimiser", "bootstrap", "--name", "w")
    assert result.exit_code == 0, result.output
    assert "keeping the shipped prompts" in result.stderr
    manifest, _ = _check_outputs(tmp_path, wissen_home, "w", "bootstrap")
    assert manifest["selected"] == "baseline"
    saved = json.loads((tmp_path / "optimised" / "w" / "program.json").read_text())
    assert saved["planner.extract_facets"]["demos"] == []  # the shipped prompt, no demos
    assert (
        "## Demos (0)"
        not in (tmp_path / "optimised/w/prompts/planner.extract_facets.md").read_text()
    )


@pytest.mark.parametrize("how", ["ctrl-c", "kill"])
def test_interrupted_optimise_leaves_a_killed_run_and_no_program(
    optimiser_lm, wissen_home, sample_store_path, tmp_path, monkeypatch, how
):
    import os
    import signal
    import time

    import evaluation.trace_demos

    def interrupted(*args, **kwargs):
        if how == "kill":  # `kill PID` (SIGTERM) ends the compile as Ctrl-C does
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
        raise KeyboardInterrupt

    monkeypatch.setattr(evaluation.trace_demos, "bootstrap_demos", interrupted)
    result = runner.invoke(
        app,
        ["optimise", "--set", "planner", "--target", "planner", "--limit", "2", "--name",
         "x", "--out-dir", str(tmp_path / "optimised"), "--store", str(sample_store_path)],
    )  # fmt: skip
    assert result.exit_code != 0  # click reports Ctrl-C as Aborted!
    runs = _runs(_client(wissen_home), "wissen-optimise")
    (parent,) = [r for r in runs if "mlflow.parentRunId" not in r.data.tags]
    assert parent.info.status == "KILLED"
    assert not [r for r in runs if r.info.status == "RUNNING"]
    assert not (tmp_path / "optimised").exists() or not any((tmp_path / "optimised").iterdir())


def test_a_program_that_does_not_fit_is_a_clear_error(
    optimiser_lm, wissen_home, sample_store_path, tmp_path
):
    bad = tmp_path / "program.json"
    bad.write_text(json.dumps({"planner.extract_facets": {}, "metadata": {}}))
    for command in (["eval", "--set", "planner"], ["ask", "What was 3M's capex in FY2022?"]):
        result = runner.invoke(
            app, [*command, "--program", str(bad), "--store", str(sample_store_path)]
        )
        assert result.exit_code == 2, result.output
        assert "does not fit" in result.stderr and "Traceback" not in result.output
    result = runner.invoke(
        app, ["eval", "--program", str(tmp_path / "missing"), "--store", str(sample_store_path)]
    )
    assert result.exit_code == 2 and "no compiled program" in result.stderr


def test_optimise_refuses_a_target_the_set_cannot_train(
    optimiser_lm, wissen_home, sample_store_path, tmp_path
):
    result = runner.invoke(
        app,
        ["optimise", "--set", "planner", "--target", "reviewer", "--out-dir", str(tmp_path),
         "--store", str(sample_store_path)],
    )  # fmt: skip
    assert result.exit_code == 2 and "no reviewer predictors" in result.stderr
    result = runner.invoke(app, ["optimise", "--name", "../escape", "--out-dir", str(tmp_path)])
    assert result.exit_code == 2 and "folder name" in result.stderr


@pytest.mark.local_model
def test_eval_smoke_with_the_bundled_model(wissen_home, sample_store_path):
    result = runner.invoke(
        app,
        ["eval", "--set", "planner", "--split", "test", "--limit", "2",
         "--store", str(sample_store_path), "--lm", "local/smollm2-135m-instruct"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    (run,) = _runs(_client(wissen_home), "wissen-eval")
    assert "SmolLM2" in run.data.params["model"] or "local" in run.data.params["model"]
    assert run.data.metrics["examples"] == 2
