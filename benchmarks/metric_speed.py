"""How long do the metrics take on a realistic report? Target: < 50 ms for a 2,000-word
report with 60 citations (coverage + grounding + daggers + correctness, i.e. the composite).

    uv run python benchmarks/metric_speed.py
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import dspy  # noqa: E402

from citations.markup import render_marker  # noqa: E402
from metrics import composite_feedback_metric  # noqa: E402


def build_report(words: int = 2000, citations: int = 60, seed: int = 0):
    """A synthetic report: cited sentences with figures, 60 distinct pages, page texts."""
    rng = random.Random(seed)
    uids = [f"{rng.getrandbits(48):012x}" for _ in range(citations)]
    pages = {u: "" for u in uids}
    sentences, n_words, i = [], 0, 0
    while n_words < words:
        uid_idx = i % citations
        value = rng.randint(100, 99_999)
        pct = round(rng.uniform(-20, 40), 1)
        pages[uids[uid_idx]] += f" Net sales {value:,} and margin {pct}% in the period. "
        marker = render_marker([uid_idx + 1])
        sentence = (
            f"In FY2022 the company reported net sales of ${value:,} million{marker} while the "
            f"operating margin moved by {pct}%{marker}, driven by pricing, volume and mix "
            f"effects across the segments discussed in the filing.{marker}"
        )
        sentences.append(sentence)
        n_words += len(sentence.split())
        i += 1
    body = " ".join(sentences)
    sources = "\n".join(
        f"{render_marker([k + 1])} ACME 10-K FY2022 p.{k + 3} (page_id: {1000 + k}, uid: {u})"
        for k, u in enumerate(uids)
    )
    report = f"{body}\n\n**Sources**\n\n{sources}"
    flagged = {"ACME FY2022 Q4": set(uids[:5])}
    return report, pages, flagged, n_words


def main() -> int:
    report, pages, flagged, n_words = build_report()
    pred = dspy.Prediction(report=report, page_texts=pages, flagged_slices=flagged)
    gold = dspy.Example(answer="Net sales were $12,345 million.", question="What were net sales?")
    composite_feedback_metric(gold, pred)  # warm caches of compiled regexes
    runs = []
    for seed in range(1, 21):  # fresh report text each run: no cache hits on the report
        report, pages, flagged, _ = build_report(seed=seed)
        pred = dspy.Prediction(report=report, page_texts=pages, flagged_slices=flagged)
        start = time.perf_counter()
        composite_feedback_metric(gold, pred)
        runs.append((time.perf_counter() - start) * 1000)
    runs.sort()
    print(f"report: {n_words} words, 60 citations; composite metric over 20 runs:")
    print(f"median {runs[len(runs) // 2]:.1f} ms, max {runs[-1]:.1f} ms (target < 50 ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
