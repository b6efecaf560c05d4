"""`research ask` as a user runs it, with the scripted LM standing in for a provider."""

from __future__ import annotations

import json
import re

import pytest
from scripted_lm import ScriptedLM
from typer.testing import CliRunner

import lm.language_models as language_models
from citations import parse_cited_answer
from citations.markup import from_superscript
from cli.app import app

runner = CliRunner()
QUESTION = "How did 3M's capital expenditure compare with PepsiCo's in FY2022, and what drove it?"


@pytest.fixture
def scripted(monkeypatch):
    lm = ScriptedLM(insufficient=lambda s, p: s == "PEP FY2022 Q4" and p.startswith("Drivers"))
    monkeypatch.setattr(language_models, "build_lm", lambda spec=None: lm)
    monkeypatch.setattr(language_models, "check_lm_reachable", lambda spec=None, timeout=5: None)
    return lm


def test_ask_prints_a_cited_report_and_writes_the_record(
    scripted, wissen_home, sample_store_path, tmp_path
):
    out, record_path = tmp_path / "report.md", tmp_path / "run.json"
    result = runner.invoke(
        app,
        [
            "ask",
            QUESTION,
            "--store",
            str(sample_store_path),
            "--out",
            str(out),
            "--json",
            str(record_path),
            "--max-probes",
            "3",  # the figure probe, then the scripted model's two (one of them flagged)
        ],
    )
    assert result.exit_code == 0, result.output
    report = out.read_text()
    assert "Sources" in report and "uid:" in report and "†" in report
    assert f"{scripted.total_calls} LM calls" in report
    record = json.loads(record_path.read_text())
    researcher = record["usage"]["by_agent"]["researcher"]  # the footer names each agent's share
    assert f"researcher {researcher['prompt_tokens'] + researcher['completion_tokens']:,}" in report
    assert record["usage"]["lm_calls"] == scripted.total_calls > 0
    assert [s["slice"] for s in record["slices"]] == ["MMM FY2022 Q4", "PEP FY2022 Q4"]
    assert 0 < record["metrics"]["citation_coverage"] <= 1
    assert record["metrics"]["dagger_correctness"] == 1.0
    run_dir = wissen_home / "runs" / record["run_id"]
    assert (run_dir / "report.md").exists() and (run_dir / "run.json").exists()
    assert "planner" in result.stderr or "plan" in result.stderr  # the live trace
    assert "does not exist yet" not in result.stderr  # an existing store is not announced


def test_a_store_that_does_not_exist_is_announced_before_it_is_made_from_the_sample(
    scripted, wissen_home, tmp_path
):
    """A mistyped --store would otherwise answer from the sample grid without a word."""
    store = tmp_path / "typo" / "grid.sqlite"
    result = runner.invoke(
        app, ["ask", "What was 3M's capital expenditure in FY2022?", "--store", str(store),
              "--no-track", "--quiet"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"grid store {store} does not exist yet" in " ".join(result.stderr.split())
    assert store.exists() and "$1,749 million" in result.stdout


def test_ask_is_an_mlflow_run_with_params_metrics_and_artifacts(
    scripted, wissen_home, sample_store_path
):
    import mlflow

    result = runner.invoke(
        app, ["ask", QUESTION, "--store", str(sample_store_path), "--max-probes", "1", "--quiet"]
    )
    assert result.exit_code == 0, result.output
    client = mlflow.MlflowClient(tracking_uri=f"sqlite:///{wissen_home / 'mlflow.db'}")
    (experiment,) = [e for e in client.search_experiments() if e.name == "wissen-ask"]
    (run,) = client.search_runs([experiment.experiment_id])
    assert run.info.status == "FINISHED"
    assert run.data.params["model"] and len(run.data.params["program_version"]) == 10
    assert {"citation_coverage", "numeric_grounding", "dagger_correctness", "lm_calls"} <= set(
        run.data.metrics
    )
    artifacts = {a.path for a in client.list_artifacts(run.info.run_id)}
    assert {"report.md", "run.json"} <= artifacts


@pytest.mark.parametrize(
    ("question", "message"),
    [("   ", "the question is empty"), ("What is Zorblax Corp's revenue?", "grid")],
)
def test_bad_questions_get_clear_messages(
    scripted, wissen_home, sample_store_path, question, message
):
    result = runner.invoke(
        app, ["ask", question, "--store", str(sample_store_path), "--no-track", "--quiet"]
    )
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_missing_compiled_program_is_a_clear_error(
    scripted, wissen_home, sample_store_path, tmp_path
):
    result = runner.invoke(
        app,
        [
            "ask",
            QUESTION,
            "--store",
            str(sample_store_path),
            "--program",
            str(tmp_path / "nope"),
            "--no-track",
        ],
    )
    assert result.exit_code == 2 and "no compiled program" in result.output


@pytest.mark.local_model
def test_ask_with_the_bundled_model_produces_a_structured_report(
    wissen_home, sample_store_path, tmp_path
):
    """Structure only: the 135M smoke model runs every agent in-process, offline."""
    out = tmp_path / "report.md"
    result = runner.invoke(
        app,
        [
            "ask",
            "What was 3M's capital expenditure in FY2022?",
            "--store",
            str(sample_store_path),
            "--lm",
            "local/smollm2-135m-instruct",
            "--max-probes",
            "1",
            "--max-rounds",
            "1",
            "--no-figures",
            "--no-track",
            "--quiet",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    report = out.read_text()
    assert report.startswith("## Answer") and "MMM" in report
    # Either cited findings, or the slice is flagged where a reader will see it.
    assert ("**Sources**" in report) or ("MMM FY2022 Q4: evidence incomplete" in report)
    assert "is not in the grid" not in report  # 3M is MMM, whatever the model calls it
    assert "local/smollm2-135m-instruct" in report and "LM calls" in report


def test_max_tokens_bounds_every_call(monkeypatch, wissen_home, sample_store_path):
    specs = []
    lm = ScriptedLM()

    def build(spec=None):
        specs.append(spec)
        return lm

    monkeypatch.setattr(language_models, "build_lm", build)
    monkeypatch.setattr(language_models, "check_lm_reachable", lambda spec=None, timeout=5: None)
    args = ["ask", QUESTION, "--store", str(sample_store_path), "--max-probes", "1", "--quiet"]
    result = runner.invoke(app, [*args, "--no-track", "--max-tokens", "300"])
    assert result.exit_code == 0, result.output
    assert specs and all(spec.max_tokens == 300 for spec in specs)


@pytest.mark.local_model
def test_readme_question_on_the_default_model_is_right_and_cited(
    wissen_home, sample_store_path, tmp_path
):
    """The README's first command, judged as an analyst would: both companies' capex stated
    correctly, each cited to its cash-flow statement page, no dagger (the embedded default
    model, in-process; about three minutes on two cores)."""
    out = tmp_path / "report.md"
    result = runner.invoke(
        app,
        ["ask", "How did 3M's capital expenditure compare with PepsiCo's in FY2022?",
         "--store", str(sample_store_path), "--max-probes", "1", "--max-rounds", "2",
         "--no-track", "--quiet", "--out", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = out.read_text()
    answer = parse_cited_answer(report.split("\n---\n")[0])
    cited = {f.number: f.citation.uid for f in answer.references.footnotes}
    mmm = re.search(r"\$1,749 million([¹²³⁴⁵⁶⁷⁸⁹])", answer.body)
    pep = re.search(r"\$5,207 million([¹²³⁴⁵⁶⁷⁸⁹])", answer.body)
    assert mmm and pep, report
    # The 3M and PepsiCo FY2022 10-K cash-flow statement pages.
    assert cited[from_superscript(mmm.group(1))] == "9a80307e1587"
    assert cited[from_superscript(pep.group(1))] == "0a22aef3184c"
    assert "†" not in report and "insufficient" not in report
    assert "local/qwen2.5-coder-1.5b-instruct" in report
