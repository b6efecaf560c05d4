"""How much of a corpus the statement-fact extractor reads, how fast, and how consistently.

    uv run python benchmarks/facts_coverage.py \
        --pages ../shared/financebench/pages.jsonl.gz [--json]

Reports: extraction time (CPU and wall) over every page, facts and documents with facts;
for each 10-K, which canonical concepts are missing for the document's own fiscal year;
and cross-document agreement: where two documents print the same concept for the same
company and period (a 10-K's prior-year column beside the earlier 10-K), the share of such
groups whose values agree within 2% (the rest are mostly restatements).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from itertools import groupby
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from retrieval.facts.extract import document_facts
from retrieval.facts.model import Fact
from retrieval.ingest.pages_file import jsonl_documents
from retrieval.ingest.report import IngestReport

#: The concepts the calculator's formulas are written in.
CORE = (
    "revenue cost_of_revenue gross_profit sga rnd operating_income interest_expense "
    "pretax_income income_tax net_income net_income_attributable dna capex cfo cfi cff "
    "dividends_paid buybacks cash receivables inventory current_assets ppe_net total_assets "
    "payables current_liabilities short_term_debt long_term_debt total_liabilities equity "
    "diluted_eps diluted_shares"
).split()


def agreement(facts: list[Fact]) -> tuple[int, int]:
    """(groups printed by two or more documents, groups whose values agree within 2%)."""
    groups: dict[tuple, dict[str, float]] = defaultdict(dict)
    for f in facts:
        if f.concept:
            key = (f.ticker, f.concept, f.fy, f.fq, f.duration, f.unit)
            groups[key].setdefault(f.doc_name, f.value)
    shared = agree = 0
    for values in groups.values():
        if len(values) < 2:
            continue
        shared += 1
        spread = max(values.values()) - min(values.values())
        agree += spread <= 0.02 * max(abs(v) for v in values.values()) + 1
    return shared, agree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=Path, required=True)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pages = [p for doc in jsonl_documents(args.pages, IngestReport()) for p in doc.pages]
    stored = [p.model_copy(update={"page_id": i + 1}) for i, p in enumerate(pages)]
    wall, cpu = time.perf_counter(), time.process_time()
    facts: list[Fact] = []
    for _, group in groupby(stored, key=lambda p: p.doc_name):
        facts.extend(document_facts(list(group)))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    have = defaultdict(set)
    for f in facts:
        if f.concept:
            have[f.doc_name].add((f.concept, f.fy, f.fq))
    tenks = sorted({(p.doc_name, p.fy) for p in pages if p.doc_type == "10-K"})
    missing = Counter(c for doc, fy in tenks for c in CORE if (c, fy, None) not in have[doc])
    shared, agree = agreement(facts)
    result = {
        "pages": len(pages),
        "documents": len({p.doc_name for p in pages}),
        "documents_with_facts": len({f.doc_name for f in facts}),
        "facts": len(facts),
        "facts_with_concept": sum(1 for f in facts if f.concept),
        "seconds_cpu": round(cpu, 1),
        "seconds_wall": round(wall, 1),
        "ten_ks": len(tenks),
        "ten_ks_missing_concept": dict(sorted(missing.items(), key=lambda kv: kv[1])),
        "shared_groups": shared,
        "shared_groups_agreeing": agree,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    for key, value in result.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
