"""Reliability benchmark: how a 2-slice × 2-probe run degrades as the provider fails more.

    uv run python benchmarks/reliability.py [--rates 0 0.1 0.3 0.5 1] [--seeds 3] [--json]
        [--part all|rates|cases]

`research ask --no-figures` (the agents' loop, not figures read by code) runs against
tests/fake_openai.py, an OpenAI-compatible server on 127.0.0.1 that answers like the
scripted LM and faults a chosen share of requests (HTTP 500, 429 with Retry-After, hangs
past the timeout, invalid JSON, truncated and empty output) through the real HTTP client
path. Per fault rate: runs that completed (exit 0), exit codes, requests,
faults injected, retries, probes daggered, and wall time. The targets: every run below
100% completes with a report, each failed probe carries its reason, and a fully faulted
run ends with a clear message and exit 1, never a hang or a traceback.

    uv run python benchmarks/reliability.py --part cases

The fault cases: each hostile input or failing component of the hardening issue, exercised
for real through the command line (the grid's PostgreSQL server really stopped mid-ask, a
gzip file really cut short, a 1 MB page really ingested), with what was expected and what
was observed. A case that did not go as expected is marked with ✗ and the script exits 1.
The cases are in ``benchmarks/reliability_cases.py``; this script runs the fault rates and
prints both tables.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from fake_openai import FakeOpenAI  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from benchmarks.reliability_cases import Case, fault_cases  # noqa: E402
from cli.app import app  # noqa: E402
from retrieval.ingest.sample import seed_from_sample  # noqa: E402
from retrieval.open_store import open_store  # noqa: E402

QUESTION = "How did 3M's capital expenditure compare with PepsiCo's in FY2022?"
LM_ERRORS = ("LMUnavailable", "UnusableOutput", "CallBudgetExceeded", "RunDeadlineExceeded")


def one_run(store: Path, rate: float, seed: int, work: Path) -> dict:
    fake = FakeOpenAI().start()
    try:
        fake.fault(rate, seed=seed, retry_after=0.05, hang_s=3)
        record_path = work / f"run-{rate}-{seed}.json"
        args = [
            "ask", QUESTION, "--api-base", fake.url, "--store", str(store), "--max-probes", "2",
            "--no-figures",  # the agents' loop: with figures, code reads both capex figures
            "--no-track", "--quiet", "--json", str(record_path), "--lm-timeout", "1",
            "--backoff", "0.01", "--retries", "1",
        ]  # fmt: skip
        started = time.perf_counter()
        result = CliRunner().invoke(app, args)
        wall = time.perf_counter() - started
        record = json.loads(record_path.read_text()) if record_path.exists() else {}
        probes = [p for s in record.get("slices", []) for p in s["probes"]]
        daggered = [p for p in probes if any(e in p.get("reason", "") for e in LM_ERRORS)]
        return {
            "rate": rate,
            "seed": seed,
            "exit": result.exit_code,
            "traceback": "Traceback" in result.output,
            "requests": fake.requests,
            "faults": fake.total_faults,
            "retries": record.get("lm_faults", {}).get("retries", 0),
            "probes": len(probes),
            "daggered": len(daggered),
            "wall_s": round(wall, 2),
        }
    finally:
        fake.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rates", type=float, nargs="+", default=[0.0, 0.1, 0.3, 0.5, 1.0])
    parser.add_argument("--seeds", type=int, default=3, help="runs per rate")
    parser.add_argument(
        "--part", choices=("all", "rates", "cases"), default="all",
        help="the fault-rate runs, the fault cases, or both",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    os.environ.setdefault("WISSEN_HOME", tempfile.mkdtemp(prefix="wissen-bench-"))
    work = Path(tempfile.mkdtemp(prefix="wissen-reliability-"))
    store = work / "grid.sqlite"
    grid = open_store(store)
    seed_from_sample(grid)  # the bundled filings: a question needs a grid to research
    grid.close()
    runs = []
    if args.part in ("all", "rates"):
        runs = [
            one_run(store, rate, seed, work) for rate in args.rates for seed in range(args.seeds)
        ]
    cases = fault_cases(work, store) if args.part in ("all", "cases") else []
    if args.json:
        print(json.dumps({"rates": runs, "cases": [c.__dict__ for c in cases]}, indent=2))
    else:
        if runs:
            print_rates(args.rates, runs)
        if cases:
            print_cases(cases)
    if not all(c.ok for c in cases):
        sys.exit(1)


def print_rates(rates: list[float], runs: list[dict]) -> None:
    print("| fault rate | runs completed | exit codes | requests | faults | retries "
          "| probes daggered | wall s (median) | tracebacks |")  # fmt: skip
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for rate in rates:
        rows = [r for r in runs if r["rate"] == rate]
        print(
            f"| {rate:.0%} | {sum(r['exit'] == 0 for r in rows)}/{len(rows)} "
            f"| {sorted({r['exit'] for r in rows})} | {sum(r['requests'] for r in rows)} "
            f"| {sum(r['faults'] for r in rows)} | {sum(r['retries'] for r in rows)} "
            f"| {sum(r['daggered'] for r in rows)}/{sum(r['probes'] for r in rows)} "
            f"| {statistics.median(r['wall_s'] for r in rows):.1f} "
            f"| {sum(r['traceback'] for r in rows)} |"
        )


def print_cases(cases: list[Case]) -> None:
    print("\n| case | expected | observed |")
    print("| --- | --- | --- |")
    for c in cases:
        mark = "" if c.ok else "✗ "
        print(f"| {c.case} | {c.expected} | {mark}{c.observed.replace('|', '/')} |")
    print(f"\n{sum(c.ok for c in cases)}/{len(cases)} cases as expected")


if __name__ == "__main__":
    main()
