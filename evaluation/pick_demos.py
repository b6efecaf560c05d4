"""Demos for the researcher's pick step: the ``pick`` optimiser of ``research optimise``.

Six demo compiles of the answer step lost (docs/evaluation.md): on the 1.5B model a demo
of an answer teaches its form (its length, its citing), not its reading. The pick step's
output has no form to copy, one hit number, and its demos did what the answer step's did
not: asked which of a train question's first-search passages answers it, the model with
no demos was right 5 times in 15 where the search's first hit was right 9 times; with
three demos from other companies, 7 times in 8.

Each demo is a train judgement question's first search as the shipped program's answer
step read it (:func:`evaluation.traced_demos.traced_answer_steps`: the same ledger of
traced runs, replayed from DSPy's cache where the program ran before) and, as its
answer, the hit number of the first block that is a gold evidence page. A question whose
search did not reach a gold page gives no demo. One demo per company; demos that choose
a block other than ``[1]`` and demos that keep ``[1]`` alternate, so the demos show both
keeping the search's first hit and reading past it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import zip_longest
from pathlib import Path
from typing import Any

import dspy

from evaluation.traced_demos import evidence_blocks, traced_answer_steps
from metrics._inputs import field as field_of

PICK_STEP = "researcher.pick"


def pick_demo(inputs: dict[str, Any], gold_pages: Sequence[Any]) -> dict[str, Any] | None:
    """The pick step's demo from the answer step's traced ``inputs``: its question and
    evidence, and the hit number of the first block on a gold page; None when no block is."""
    evidence = str(inputs.get("evidence") or "")
    gold = {(page.doc_label, page.page_index + 1) for page in gold_pages}
    blocks = evidence_blocks(evidence)
    number = next((n for n, label, page, _ in blocks if (label, page) in gold), 0)
    if not number:
        return None
    question = str(inputs.get("probe_question") or inputs.get("question") or "")
    return {"question": question, "evidence": evidence, "answering_passage": number}


def _alternating(candidates: list[tuple[str, dict[str, Any]]], max_demos: int) -> list[dict]:
    """One demo per company, a block past ``[1]`` and ``[1]`` in turn, past ``[1]`` first."""
    later = [c for c in candidates if c[1]["answering_passage"] != 1]
    first = [c for c in candidates if c[1]["answering_passage"] == 1]
    chosen: list[dict[str, Any]] = []
    companies: set[str] = set()
    for candidate in (c for pair in zip_longest(later, first) for c in pair if c is not None):
        ticker, demo = candidate
        if len(chosen) < max_demos and ticker not in companies:
            companies.add(ticker)
            chosen.append(demo)
    return chosen


def pick_demos(
    program: dspy.Module,
    train: Sequence[Any],
    searcher: Any,
    ledger_path: Path,
    max_demos: int,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[dict[str, list[dict[str, Any]]], list[str]]:
    """Up to ``max_demos`` pick-step demos from ``train``'s judgement questions, and the
    example ids they came from. ``searcher`` reads the gold pages."""
    candidates: list[tuple[str, dict[str, Any]]] = []
    for example, row in traced_answer_steps(program, train, ledger_path, seed, progress):
        uids = [str(u) for u in field_of(example, "evidence_uids") or []]
        pages = searcher.pages_by_uid(uids) if row.get("inputs") and uids else []
        if pages and (demo := pick_demo(row["inputs"], pages)):
            candidates.append((pages[0].ticker, {**demo, "_id": row["id"]}))
    demos = _alternating(candidates, max_demos)
    sources = [demo.pop("_id") for demo in demos]
    return {PICK_STEP: demos}, sources
