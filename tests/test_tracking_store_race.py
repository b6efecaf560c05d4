"""Several runs started at once on a fresh WISSEN_HOME all get one working MLflow store.

Each process used to create and migrate ``mlflow.db`` itself; two migrations interleaving
failed one process ("duplicate column name: step", "No such constraint").
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

STARTERS = 4
# Each starter imports MLflow, waits for the starting gun, then touches the store the way
# a run does: through the project's tracking URI.
STARTER = """
import sys, time
from pathlib import Path
import mlflow
from runs.tracking import tracking_uri
go = Path(sys.argv[1])
Path(f"{go}.{sys.argv[2]}.ready").touch()
while not go.exists():
    time.sleep(0.005)
client = mlflow.MlflowClient(tracking_uri=tracking_uri())
name = f"race-{sys.argv[2]}"
client.create_experiment(name)
assert client.get_experiment_by_name(name) is not None
"""


def test_concurrent_first_runs_share_one_store(tmp_path):
    home = tmp_path / "home"
    go = tmp_path / "go"
    env = {k: v for k, v in os.environ.items() if k != "MLFLOW_TRACKING_URI"}
    env["WISSEN_HOME"] = str(home)
    root = Path(__file__).resolve().parents[1]
    starters = [
        subprocess.Popen(
            [sys.executable, "-c", STARTER, str(go), str(i)],
            cwd=root,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for i in range(STARTERS)
    ]
    deadline = time.monotonic() + 180
    while len(list(tmp_path.glob("go.*.ready"))) < STARTERS and time.monotonic() < deadline:
        time.sleep(0.05)  # every starter has imported MLflow: the race is as tight as it gets
    go.touch()
    outcomes = [(p.wait(timeout=240), p.stdout.read()) for p in starters]
    failed = [output for code, output in outcomes if code != 0]
    assert not failed, failed[0][-3000:]
    assert (home / "mlflow.db").is_file()
    assert not [p.name for p in home.iterdir() if p.name.endswith(".tmp")]
