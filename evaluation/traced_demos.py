"""Demos made of the evidence the program's own search found and a person's answer: the
``traced`` optimiser of ``research optimise``.

Three compiles taught the answer step an output's form and not its reading
(docs/evaluation.md): the ``bootstrap`` demos were drafts of a 1.5B model, and the
``labelled`` demos were evidence built for them (the gold page cut to the rows its answer
speaks of, one or two other pages beside it). Neither showed what a test question's answer
step actually reads: the blocks its own search returned, in that order, most of which do
not answer. Here each demo is exactly that:

- **inputs**: the answer step's first call on a train question, as the shipped program
  made it (recorded by tracing the program on train; every call replays from DSPy's cache
  when the program ran there before);
- **answer_markdown**: the train question's gold answer, each sentence cited to the hit
  number of the block that holds a gold evidence page, wherever that block stands.

A demo is kept only when that block exists, its passage prints every figure of the gold
answer, and its page supports one of the answer's sentences (as code attributes a draft's
sentence to a page): the demo never cites a block for a figure it does not show. Blocks
other than ``[1]`` come first, so the demos show reading past a first block that does not
answer. One demo per company, judgement questions only (metric questions are answered by
code), in a seeded order; each traced run goes to a ledger as it ends, so a killed compile
continues where it stopped.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import dspy
from pydantic_core import to_jsonable_python

from evaluation.labelled_demos import (
    ANSWER_STEP,
    JUDGEMENT_TYPES,
    cited_answer,
    grounded,
    supports_gold,
)
from evaluation.ledger import Ledger, example_id
from metrics._inputs import field as field_of

#: An evidence block's head: ``[3] ACME 10-K FY2031 p.48: …``.
_BLOCK_HEAD = re.compile(r"^\[(\d{1,3})\] (.+?) p\.(\d+): ", re.S)


def first_call(
    program: dspy.Module, example: Any, name: str
) -> tuple[dict[str, Any] | None, str, float]:
    """The inputs of ``program``'s first call of predictor ``name`` on ``example`` (None
    when the run never called it or raised), why, and the run's seconds."""
    predictor = dict(program.named_predictors()).get(name)
    started = time.monotonic()
    with dspy.context(trace=[]):
        try:
            program(**example.inputs())
        except Exception as exc:  # a failed run is a row, not the end of the compile
            return None, f"error: {type(exc).__name__}: {exc}", time.monotonic() - started
        trace = list(dspy.settings.trace)
    seconds = time.monotonic() - started
    for called, inputs, _ in trace:
        if called is predictor:
            return to_jsonable_python(dict(inputs), fallback=str), "traced", seconds
    return None, f"{name} was not called", seconds


def traced_answer_steps(
    program: dspy.Module,
    train: Sequence[Any],
    ledger_path: Path,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
) -> list[tuple[Any, dict[str, Any]]]:
    """Each train judgement question, in a seeded order, with its ledger row: the answer
    step's first inputs as ``program`` made them (``inputs``, None when it was not called),
    why, and the run's seconds. A row already in the ledger is read back, not run again."""
    order = [e for e in train if str(field_of(e, "question_type") or "") in JUDGEMENT_TYPES]
    random.Random(seed).shuffle(order)
    ledger = Ledger(ledger_path)
    rows = []
    for i, example in enumerate(order, 1):
        key = example_id(example)
        row = ledger.get(key)
        if row is None:
            inputs, reason, seconds = first_call(program, example, ANSWER_STEP)
            row = {"id": key, "inputs": inputs, "reason": reason, "seconds": round(seconds, 1)}
            ledger.add(row)
        rows.append((example, row))
        if progress is not None:
            progress(i, len(order))
    return rows


def evidence_blocks(evidence: str) -> list[tuple[int, str, int, str]]:
    """The evidence's page blocks as ``(hit number, document label, page, text)``."""
    blocks = []
    for block in evidence.split("\n\n"):
        if match := _BLOCK_HEAD.match(block):
            number, label, page = int(match.group(1)), match.group(2), int(match.group(3))
            blocks.append((number, label, page, block[match.end() :]))
    return blocks


def gold_block(evidence: str, gold: str, gold_pages: Sequence[Any]) -> int | None:
    """The hit number of the first block that is a gold page and shows the gold answer: its
    passage prints every figure of ``gold``, and its page supports one of ``gold``'s
    sentences (checked against the whole page, as code checks a real draft's citation).
    None if no block does."""
    where = {(page.doc_label, page.page_index + 1): page for page in gold_pages}
    for number, label, page, text in evidence_blocks(evidence):
        gold_page = where.get((label, page))
        if gold_page is not None and grounded(gold, text) and supports_gold(gold, [gold_page]):
            return number
    return None


def traced_demo(inputs: dict[str, Any], gold: str, gold_pages: Sequence[Any]) -> dict | None:
    """The answer step's demo: its recorded inputs and the gold answer cited to the block
    that shows it, or None when no block does."""
    number = gold_block(str(inputs.get("evidence") or ""), gold, gold_pages)
    answer = cited_answer(gold, f"[{number}]") if number is not None else ""
    if not answer:
        return None
    return {**inputs, "answer_markdown": answer}


def traced_demos(
    program: dspy.Module,
    train: Sequence[Any],
    searcher: Any,
    ledger_path: Path,
    max_demos: int,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[dict[str, list[dict[str, Any]]], list[str]]:
    """Up to ``max_demos`` answer-step demos from ``train``'s judgement questions, and the
    example ids they came from.

    Every judgement question is traced (each run is a ledger row, read back instead of run
    again), then the demos are chosen: one per company, those whose gold block is not the
    first block first, the rest in a seeded order. ``searcher`` reads the gold pages.
    """
    candidates: list[tuple[Any, dict[str, Any]]] = []
    for example, row in traced_answer_steps(program, train, ledger_path, seed, progress):
        gold = str(field_of(example, "answer") or "").strip()
        uids = [str(u) for u in field_of(example, "evidence_uids") or []]
        if row.get("inputs") and gold and uids:
            pages = searcher.pages_by_uid(uids)
            if pages and (demo := traced_demo(row["inputs"], gold, pages)):
                candidates.append((pages[0].ticker, {**demo, "_id": row["id"]}))
    candidates.sort(key=lambda c: _first_mark(c[1]["answer_markdown"]) == 1)  # stable
    demos, sources, companies = [], [], set()
    for ticker, demo in candidates:
        if len(demos) >= max_demos or ticker in companies:
            continue
        companies.add(ticker)
        sources.append(demo.pop("_id"))
        demos.append(demo)
    return {ANSWER_STEP: demos}, sources


def _first_mark(answer: str) -> int:
    match = re.search(r"\[(\d{1,3})\]", answer)
    return int(match.group(1)) if match else 0
