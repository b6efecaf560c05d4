"""Pipeline benchmark: does a multi-slice report cost its critical path, not the sum?

    uv run python benchmarks/pipeline.py [--latency 0.2] [--concurrency 8] [--json]

A scripted LM (tests/scripted_lm.py) answers every agent after a fixed latency. The
critical path is measured, not modelled: the wall time of a 1-slice × 1-probe question
with the same per-probe behaviour is the longest chain of dependent LM calls (planner →
probe list → researcher/reviewer rounds → synthesis → report). A 4-slice × 3-probe
question should take about that long (target ≤ 1.2×) given enough workers. A repeated,
identical run with DSPy's cache on must make no new LM calls.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import dspy  # noqa: E402
from scripted_lm import ScriptedLM  # noqa: E402

from programs.research_program import ResearchProgram, ResearchSettings  # noqa: E402
from retrieval.open_store import open_store  # noqa: E402
from retrieval.search.hybrid import HybridSearcher  # noqa: E402

WIDE = "Compare 3M's and PepsiCo's capital expenditure in FY2021 and FY2022."
NARROW = "What was 3M's capital expenditure in FY2022?"


def timed_run(searcher, question: str, lm: ScriptedLM, settings: ResearchSettings):
    program = ResearchProgram(searcher, settings=settings)
    start = time.perf_counter()
    with dspy.context(lm=lm):
        prediction = program(question=question)
    return time.perf_counter() - start, prediction


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per LM call")
    parser.add_argument("--probes", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DSPY_CACHEDIR"] = str(Path(tmp) / "dspy-cache")
        searcher = HybridSearcher(open_store(Path(tmp) / "grid.sqlite"))
        rows = {}
        narrow_lm = ScriptedLM(probes_per_slice=1, delay=args.latency)
        critical, _ = timed_run(
            searcher,
            NARROW,
            narrow_lm,
            ResearchSettings(max_probes=1, concurrency=args.concurrency),
        )
        rows["critical_path_s"] = round(critical, 2)
        rows["critical_path_calls"] = narrow_lm.total_calls
        for workers in sorted({args.concurrency, 4 * args.probes}):
            lm = ScriptedLM(probes_per_slice=args.probes, delay=args.latency)
            settings = ResearchSettings(max_probes=args.probes, concurrency=workers)
            wall, prediction = timed_run(searcher, WIDE, lm, settings)
            rows[f"wide_{workers}_workers"] = {
                "slices": len(prediction.slices),
                "wall_s": round(wall, 2),
                "ratio_to_critical_path": round(wall / critical, 2),
                "lm_calls": lm.total_calls,
                "sequential_estimate_s": round(lm.total_calls * args.latency, 2),
            }
        cached_lm = ScriptedLM(probes_per_slice=args.probes, delay=args.latency, cache=True)
        settings = ResearchSettings(max_probes=args.probes, concurrency=args.concurrency)
        first, _ = timed_run(searcher, WIDE, cached_lm, settings)
        calls_first = cached_lm.total_calls
        second, _ = timed_run(searcher, WIDE, cached_lm, settings)
        rows["repeat_run"] = {
            "first_calls": calls_first,
            "second_new_calls": cached_lm.total_calls - calls_first,
            "first_s": round(first, 2),
            "second_s": round(second, 2),
        }
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for key, value in rows.items():
        print(f"{key:>26}: {value}")


if __name__ == "__main__":
    main()
