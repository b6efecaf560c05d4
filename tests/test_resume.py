"""Checkpoints and ``research ask --resume``: a killed run goes on without redoing finished work."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import dspy
import pytest
from run_scripted_ask import QUESTION, install_scripted_lm, scripted_lm
from typer.testing import CliRunner

from cli.app import app
from programs.research_program import ResearchProgram, ResearchSettings
from runs.checkpoint import DirectoryCheckpoint

runner = CliRunner()
SCRIPT = Path(__file__).with_name("run_scripted_ask.py")
REPO = SCRIPT.parents[1]
ARGS = ["--max-probes", "2", "--no-figures", "--no-track", "--quiet"]  # the agent loop


@pytest.fixture
def install_lm(monkeypatch):
    """Point ``research ask`` (in this process) at a new scripted LM, returned for counting."""

    return lambda **kwargs: install_scripted_lm(monkeypatch, **kwargs)


def run_ids(home: Path) -> set[str]:
    runs = home / "runs"
    return {p.name for p in runs.iterdir()} if runs.is_dir() else set()


def probes_checkpointed(home: Path, besides: set[str]) -> int:
    """Probe checkpoints in runs other than ``besides``."""
    files = home.glob("runs/*/checkpoint/slices/*/probe-*.json")
    return sum(1 for f in files if f.parents[3].name not in besides)


def ask(store: Path, *args: str):
    return runner.invoke(app, ["ask", QUESTION, "--store", str(store), *ARGS, *args])


def listed(run_id: str) -> dict:
    result = runner.invoke(app, ["runs", "--json"])
    assert result.exit_code == 0, result.output
    return next(row for row in json.loads(result.stdout) if row["run_id"] == run_id)


# -- the program over a checkpoint -----------------------------------------------------------


def research(searcher, checkpoint: DirectoryCheckpoint):
    lm = scripted_lm()
    program = ResearchProgram(searcher, settings=ResearchSettings(max_probes=2, figures=False))
    program.checkpoint = checkpoint
    with dspy.context(lm=lm):
        return lm, program(question=QUESTION)


def comparable(record: dict) -> str:
    return json.dumps({k: v for k, v in record.items() if k != "elapsed_s"}, sort_keys=True)


def test_checkpointed_work_is_loaded_not_redone(searcher, tmp_path):
    fresh_lm, fresh = research(searcher, DirectoryCheckpoint(tmp_path))
    assert (tmp_path / "plan.json").exists()
    assert DirectoryCheckpoint(tmp_path).progress() == {
        "slices": 2, "slices_done": 2, "probes": 4, "probes_done": 4,
    }  # fmt: skip

    again_lm, again = research(searcher, DirectoryCheckpoint(tmp_path))
    assert dict(again_lm.calls) == {"composer": 1}  # only the report is composed again
    assert again.report == fresh.report
    assert comparable(again.record) == comparable(fresh.record)

    # A lost probe (and so its slice synthesis) and an unreadable one are redone; nothing else.
    pep = tmp_path / "slices" / "PEP_FY2022_Q4"
    (pep / "probe-2.json").unlink()
    (pep / "slice.json").unlink()
    (tmp_path / "slices" / "MMM_FY2022_Q4" / "probe-1.json").write_text('{"answer": ')
    partial_lm, partial = research(searcher, DirectoryCheckpoint(tmp_path))
    assert partial.report == fresh.report
    assert "planner.extract_facets" not in partial_lm.calls and "probes" not in partial_lm.calls
    assert partial_lm.calls["synthesiser"] == 2  # MMM: its probe-1 was unreadable
    assert 0 < partial_lm.total_calls < fresh_lm.total_calls


def test_no_checkpoint_means_nothing_is_written(searcher, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    program = ResearchProgram(searcher, settings=ResearchSettings(max_probes=1, figures=False))
    with dspy.context(lm=scripted_lm()):
        program(question=QUESTION)
    assert list(tmp_path.iterdir()) == []


# -- research ask --resume ---------------------------------------------------------------------


def test_a_run_killed_with_sigkill_resumes_without_redoing_finished_work(
    install_lm, wissen_home, sample_store_path, tmp_path
):
    # The reference: the same question, uninterrupted.
    fresh_lm = install_lm()
    before = run_ids(wissen_home)
    assert ask(sample_store_path).exit_code == 0
    (fresh_id,) = run_ids(wissen_home) - before
    fresh = fresh_lm.total_calls

    # The same run in a real process, slowed down, killed once two probes are checkpointed.
    calls, log = tmp_path / "killed-calls.txt", tmp_path / "killed.log"
    env = {**os.environ, "SCRIPTED_LM_DELAY": "0.25", "SCRIPTED_LM_CALLS": str(calls)}
    command = [sys.executable, str(SCRIPT), "ask", QUESTION, "--store", str(sample_store_path)]
    before = run_ids(wissen_home)
    with log.open("w") as out:
        process = subprocess.Popen(
            [*command, *ARGS, "--concurrency", "2"], cwd=REPO, env=env, stdout=out, stderr=out
        )
        try:
            deadline = time.monotonic() + 120
            while probes_checkpointed(wissen_home, besides=before) < 2:
                assert process.poll() is None, f"the run ended first:\n{log.read_text()}"
                assert time.monotonic() < deadline, f"no probe finished:\n{log.read_text()}"
                time.sleep(0.02)
        finally:
            process.send_signal(signal.SIGKILL)
            process.wait()  # reaped: its pid is gone, as after any kill -9
    assert process.returncode == -signal.SIGKILL
    (run_id,) = run_ids(wissen_home) - before
    run_dir = wissen_home / "runs" / run_id
    killed = len(calls.read_text().splitlines())
    assert not (run_dir / "report.md").exists()
    assert json.loads((run_dir / "meta.json").read_text())["status"] == "running"
    row = listed(run_id)
    assert row["status"] == "interrupted" and row["question"] == QUESTION
    assert row["probes_done"] >= 2

    resumed_lm = install_lm()
    result = runner.invoke(app, ["ask", "--resume", run_id, "--quiet", "--no-track"])
    assert result.exit_code == 0, result.output
    resumed = resumed_lm.total_calls
    saved = fresh - resumed
    print(f"\nLM calls: fresh {fresh}, killed run {killed}, resumed {resumed}, saved {saved}")

    assert (run_dir / "report.md").read_text() == (
        wissen_home / "runs" / fresh_id / "report.md"
    ).read_text()  # the same report, every citation included
    record = json.loads((run_dir / "run.json").read_text())
    assert record["usage"]["lm_calls"] == resumed
    assert [s["slice"] for s in record["slices"]] == ["MMM FY2022 Q4", "PEP FY2022 Q4"]
    assert 0 < resumed < fresh  # finished work was not redone
    assert killed + resumed >= fresh  # only work in flight at the kill was paid twice
    meta = json.loads((run_dir / "meta.json").read_text())
    assert meta["status"] == "completed" and meta["attempts"] == 2
    assert listed(run_id) | {"lm_calls": None} == {
        **row, "status": "completed", "slices_done": 2, "probes_done": 4, "lm_calls": None,
    }  # fmt: skip


def test_resuming_a_completed_run_prints_its_report_and_makes_no_lm_call(
    install_lm, wissen_home, sample_store_path
):
    install_lm()
    assert ask(sample_store_path).exit_code == 0
    (run_id,) = run_ids(wissen_home)
    lm = install_lm()
    result = runner.invoke(app, ["ask", "--resume", run_id])
    assert result.exit_code == 0, result.output
    assert lm.total_calls == 0
    assert "already complete" in result.stderr and "Sources" in result.stdout


def test_work_that_ended_on_an_lm_error_leaves_the_run_incomplete_and_is_redone(
    install_lm, wissen_home, sample_store_path
):
    def down(agent: str, inputs: dict[str, str]) -> bool:  # the LM fails one probe's research
        return agent.startswith("researcher") and inputs.get("slice_label") == "PEP FY2022 Q4"

    fresh_lm = install_lm()
    assert ask(sample_store_path).exit_code == 0
    (fresh_id,) = run_ids(wissen_home)
    install_lm(garbage=down)
    assert ask(sample_store_path).exit_code == 0
    (run_id,) = run_ids(wissen_home) - {fresh_id}
    row = listed(run_id)
    assert row["status"] == "incomplete"
    assert (row["probes_done"], row["slices_done"]) == (2, 1)  # MMM whole, PEP's probes lost

    healthy = install_lm()
    result = runner.invoke(app, ["ask", "--resume", run_id, "--quiet", "--no-track"])
    assert result.exit_code == 0, result.output
    assert healthy.calls["probes"] == 0 and healthy.calls["synthesiser"] == 1
    assert 0 < healthy.total_calls < fresh_lm.total_calls
    assert listed(run_id)["status"] == "completed"
    runs = wissen_home / "runs"
    assert (runs / run_id / "report.md").read_text() == (runs / fresh_id / "report.md").read_text()


def test_resume_refuses_unknown_live_and_mismatched_runs(
    install_lm, wissen_home, sample_store_path
):
    install_lm()
    for bad in ("20990101-000000-abcdef", "../runs", ""):
        result = runner.invoke(app, ["ask", "--resume", bad])
        assert result.exit_code == 2 and "no run" in result.stderr, result.output

    assert ask(sample_store_path).exit_code == 0
    (run_id,) = run_ids(wissen_home)
    meta_path = wissen_home / "runs" / run_id / "meta.json"
    meta = json.loads(meta_path.read_text())
    meta_path.write_text(json.dumps({**meta, "status": "running", "pid": os.getpid()}))
    result = runner.invoke(app, ["ask", "--resume", run_id])
    assert result.exit_code == 2 and "still running" in result.stderr

    meta_path.write_text(json.dumps({**meta, "status": "failed"}))
    result = runner.invoke(app, ["ask", "another question", "--resume", run_id])
    assert result.exit_code == 2 and "leave the question out" in result.stderr
    assert "Traceback" not in result.output


def test_runs_lists_newest_first_with_status_and_progress(
    install_lm, wissen_home, sample_store_path
):
    install_lm()
    assert ask(sample_store_path).exit_code == 0
    bad = runner.invoke(app, ["ask", "3M capex in FY2031", "--store", str(sample_store_path)])
    assert bad.exit_code == 2
    rows = json.loads(runner.invoke(app, ["runs", "--json"]).stdout)
    assert [r["status"] for r in rows] == ["failed", "completed"]
    assert "FY2031" in rows[0]["error"] and rows[0]["slices"] == 0
    assert (rows[1]["slices_done"], rows[1]["probes_done"]) == (2, 4)
    table = runner.invoke(app, ["runs"])
    assert table.exit_code == 0
    lines = table.stdout.splitlines()
    assert lines[0].split()[:6] == ["RUN", "DATE", "STATUS", "SLICES", "PROBES", "MODEL"]
    assert rows[0]["run_id"] in lines[1] and "failed" in lines[1]
