"""`research ask --out/--json`: a destination that cannot take a file is refused before any
LM call, and a write that still fails at the end loses nothing and is not called success."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from scripted_lm import ScriptedLM
from typer.testing import CliRunner

import lm.language_models as language_models
from cli.app import app

runner = CliRunner()
QUESTION = "How did 3M's capital expenditure compare with PepsiCo's in FY2022, and what drove it?"


@pytest.fixture
def scripted(monkeypatch):
    lm = ScriptedLM()
    monkeypatch.setattr(language_models, "build_lm", lambda *args, **kw: lm)
    monkeypatch.setattr(language_models, "check_lm_reachable", lambda *args, **kw: None)
    return lm


def _ask(store: Path, *options: str):
    return runner.invoke(
        app,
        ["ask", QUESTION, "--store", str(store), "--max-probes", "1", "--no-track", *options],
    )


def _runs(home: Path) -> list[Path]:
    folder = home / "runs"
    return sorted(folder.iterdir()) if folder.is_dir() else []


@pytest.mark.parametrize(
    ("option", "where", "says"),
    [
        ("--out", "folder", "is a folder"),
        ("--json", "folder", "is a folder"),
        ("--out", "missing/report.md", "does not exist"),
        ("--json", "missing/run.json", "does not exist"),
    ],
)
def test_a_destination_that_cannot_take_a_file_is_refused_before_any_lm_call(
    scripted, wissen_home, sample_store_path, tmp_path, option, where, says
):
    (tmp_path / "folder").mkdir()
    result = _ask(sample_store_path, option, str(tmp_path / where))
    assert result.exit_code == 2, result.output
    assert says in result.stderr and option in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert scripted.total_calls == 0 and _runs(wissen_home) == []


def test_the_same_file_for_report_and_record_is_refused(
    scripted, wissen_home, sample_store_path, tmp_path
):
    same = str(tmp_path / "out.txt")
    result = _ask(sample_store_path, "--out", same, "--json", same)
    assert result.exit_code == 2 and "same file" in result.stderr
    assert scripted.total_calls == 0


def test_a_full_disk_is_found_before_the_run(
    scripted, wissen_home, sample_store_path, tmp_path, monkeypatch
):
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    result = _ask(sample_store_path, "--out", str(tmp_path / "report.md"))
    assert result.exit_code == 2, result.output
    assert "No space left on device" in result.stderr
    assert scripted.total_calls == 0 and list(tmp_path.glob(".*")) == []  # no probe file left


def test_a_write_that_fails_at_the_end_keeps_the_report_and_marks_the_run(
    scripted, wissen_home, sample_store_path, tmp_path
):
    if not Path("/dev/full").exists():
        pytest.skip("needs /dev/full, a device every write to fails with ENOSPC")
    record = tmp_path / "run.json"
    result = _ask(sample_store_path, "--out", "/dev/full", "--json", str(record))
    assert result.exit_code == 1, result.output
    assert "Sources" in result.stdout  # the report reached the terminal all the same
    assert "No space left on device" in result.stderr and "--out" in result.stderr
    assert json.loads(record.read_text())["usage"]["lm_calls"] == scripted.total_calls > 0
    (run,) = _runs(wissen_home)
    assert "Sources" in (run / "report.md").read_text()
    meta = json.loads((run / "meta.json").read_text())
    assert meta["status"] == "failed" and "--out" in meta["error"]
    assert str(run / "report.md") in result.stderr
