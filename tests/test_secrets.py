"""No secret reaches anything a run writes: run directory, MLflow's database and artifacts,
``--out``/``--json`` files, the terminal. Keys live in the environment and stay there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI
from scripted_lm import ScriptedLM
from typer.testing import CliRunner

import lm.language_models as language_models
from cli.app import app
from runs.redaction import redact

runner = CliRunner()
KEY = "sk-test-PLANTED-7f3a9c2e5b1d4086"
QUESTION = "What was 3M's capital expenditure in FY2022?"


def plant_keys(monkeypatch) -> None:
    for variable in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "HOSTED_VLLM_API_KEY"):
        monkeypatch.setenv(variable, f"{KEY}-{variable}")


def leaks(root: Path, *texts: str) -> list[str]:
    """Files under ``root`` (and texts) holding :data:`KEY`, the prefix of every planted key."""
    needle = KEY.encode()
    found = [str(p) for p in root.rglob("*") if p.is_file() and needle in p.read_bytes()]
    return found + [f"output {i}" for i, text in enumerate(texts) if KEY in text]


def written(root: Path) -> set[str]:
    return {p.name for p in root.rglob("*") if p.is_file()}


def test_keys_in_the_environment_reach_no_file_and_no_output(
    wissen_home, sample_store_path, tmp_path, monkeypatch
):
    plant_keys(monkeypatch)
    monkeypatch.chdir(tmp_path)  # MLflow puts artifacts under ./mlruns: keep them in the scan
    lm = ScriptedLM()
    monkeypatch.setattr(language_models, "build_lm", lambda *args, **kw: lm)
    monkeypatch.setattr(language_models, "check_lm_reachable", lambda *args, **kw: None)
    result = runner.invoke(
        app,
        [
            "ask", QUESTION, "--lm", "openai/gpt-4o-mini", "--store", str(sample_store_path),
            "--max-probes", "1", "--out", "report.md", "--json", "run.json",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    files = written(tmp_path)
    assert {"mlflow.db", "meta.json", "plan.json", "report.md", "run.json"} <= files
    assert any(p.parts[-2] == "artifacts" for p in tmp_path.rglob("run.json"))  # tracked
    assert leaks(tmp_path, result.stdout, result.stderr) == []


def test_a_served_model_keeps_its_key_and_url_credentials_off_disk(
    wissen_home, sample_store_path, tmp_path, monkeypatch
):
    """Real HTTP through LiteLLM to a fake server: the key travels in a header, and a
    ``--api-base`` with ``user:password@`` is masked wherever the model is described."""
    plant_keys(monkeypatch)
    monkeypatch.chdir(tmp_path)
    fake = FakeOpenAI().start()
    try:
        api_base = fake.url.replace("://", f"://analyst:{KEY}@")
        result = runner.invoke(
            app,
            [
                "ask", QUESTION, "--api-base", api_base, "--store", str(sample_store_path),
                "--max-probes", "1", "--max-rounds", "1", "--out", "report.md",
                "--json", "run.json",
            ],
        )  # fmt: skip
    finally:
        fake.stop()
    assert result.exit_code == 0, result.output
    record = json.loads((tmp_path / "run.json").read_text())
    assert record["model"].startswith("(served) @ http://REDACTED@127.0.0.1:")
    assert record["usage"]["lm_calls"] > 0
    assert leaks(tmp_path, result.stdout, result.stderr) == []


def test_resuming_a_run_whose_api_base_held_credentials_asks_for_it_again(
    wissen_home, sample_store_path, monkeypatch
):
    lm = ScriptedLM()
    monkeypatch.setattr(language_models, "build_lm", lambda *args, **kw: lm)
    monkeypatch.setattr(language_models, "check_lm_reachable", lambda *args, **kw: None)
    api_base = f"http://analyst:{KEY}@127.0.0.1:9/v1"
    args = ["--store", str(sample_store_path), "--max-probes", "1", "--no-track", "--quiet"]
    assert runner.invoke(app, ["ask", QUESTION, "--api-base", api_base, *args]).exit_code == 0
    (run,) = (wissen_home / "runs").iterdir()
    meta = json.loads((run / "meta.json").read_text())
    assert meta["options"]["api_base"] == "http://REDACTED@127.0.0.1:9/v1"
    (run / "meta.json").write_text(json.dumps({**meta, "status": "interrupted"}))

    result = runner.invoke(app, ["ask", "--resume", run.name, "--quiet", "--no-track"])
    assert result.exit_code == 2 and "give it again" in result.stderr
    result = runner.invoke(
        app, ["ask", "--resume", run.name, "--api-base", api_base, "--quiet", "--no-track"]
    )
    assert result.exit_code == 0, result.output
    assert leaks(wissen_home) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("http://u:p@host:8000/v1", "http://REDACTED@host:8000/v1"),
        ("https://host/v1?api-key=abc&model=x", "https://host/v1?api-key=REDACTED&model=x"),
        ("(served) @ http://host/v1?token=abc", "(served) @ http://host/v1?token=REDACTED"),
        ("openai/gpt-4.1", "openai/gpt-4.1"),
    ],
)
def test_redact_masks_url_credentials(text, expected):
    assert redact(text) == expected
