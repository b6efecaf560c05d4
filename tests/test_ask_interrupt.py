"""Ctrl-C during `research ask`: one line that says how to resume, and a prompt exit.

The run goes to the fake OpenAI server over real HTTP (LiteLLM's route), as a served model
does. Worker threads used to go on with their LM calls after Ctrl-C while the interpreter
shut down, each failing with "cannot schedule new futures after shutdown", and the exit
waited for them.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from fake_openai import FakeOpenAI

REPO = Path(__file__).resolve().parents[1]
QUESTION = "How did 3M's capital expenditure compare with PepsiCo's in FY2022, and what drove it?"


def test_ctrl_c_prints_one_resume_line_and_exits_promptly(wissen_home, sample_store_path):
    fake = FakeOpenAI(delay=1.0).start()  # each call in flight long enough to be interrupted
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "cli.app", "ask", QUESTION, "--api-base", fake.url,
             "--store", str(sample_store_path), "--max-probes", "2", "--no-track", "--quiet"],
            cwd=REPO,
            env={**os.environ, "DSPY_CACHEDIR": str(wissen_home / "dspy-cache")},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            # As from a terminal: a shell starts background jobs with Ctrl-C ignored, and
            # the child would inherit that (CI scripts often run so).
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )  # fmt: skip
        deadline = time.monotonic() + 180
        while fake.requests < 3:  # planned, and probes researching in several threads
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the run made no LM calls"
            time.sleep(0.05)
        interrupted_at = time.monotonic()
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=60)
        exit_seconds = time.monotonic() - interrupted_at
    finally:
        if process.poll() is None:
            process.kill()
        fake.stop()
    assert process.returncode == 130, stderr
    (run,) = (wissen_home / "runs").iterdir()
    assert stderr.strip().splitlines() == [
        f"interrupted; resume with `research ask --resume {run.name}`"
    ], stderr
    assert stdout == ""
    assert json.loads((run / "meta.json").read_text())["status"] == "interrupted"
    assert exit_seconds < 10, f"the exit took {exit_seconds:.1f} s"
