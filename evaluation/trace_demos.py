"""Few-shot demos from the program's own runs that passed: the bootstrap ``research optimise``
uses.

DSPy's ``BootstrapFewShot`` keeps a trace whenever the metric passes. Here a trace passes
only when its answer is right **and** it cites a gold evidence page (``passes``), so a
demo never teaches a right answer read off the wrong page. Each predictor keeps its last
call of a passing run (the round the reviewer accepted, not a draft it sent back), and a
demo's long inputs are cut to what its output used: the evidence blocks its ``[n]`` markers
cite, each trimmed to the rows that speak of the output. A 1.5B model's prompt is its cost;
three whole-page demos would triple every call.

Every run's result and demos go to a ledger (one JSON line per example) as soon as the run
ends, so a killed compile run again skips what it already ran.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import dspy
from pydantic_core import to_jsonable_python

from citations import split_sentences
from evaluation.ledger import Ledger, example_id
from metrics._inputs import field as field_of
from retrieval.search.passages import select_passage

DEMO_FIELD_CHARS = 1500  # a demo's string input longer than this is cut
DEMO_BLOCK_CHARS = 900  # one cited evidence block, trimmed to the rows its output speaks of
MAX_DEMO_BLOCKS = 3
_MARKER_RE = re.compile(r"\[(\d{1,3})\]")
_BLOCK_TAG_RE = re.compile(r"^\[(\d{1,3})\]")


def cited_uids(pred: Any) -> set[str]:
    """The page uids a prediction's report cites (its footnotes)."""
    uids = set()
    for footnote in field_of(pred, "citations") or []:
        citation = getattr(footnote, "citation", None)
        uid = getattr(citation, "uid", None) or getattr(footnote, "uid", None)
        if uid:
            uids.add(str(uid))
    return uids


def gold_uids(example: Any) -> set[str]:
    return {str(u) for u in field_of(example, "evidence_uids") or []}


def compact_text(text: str, used: str) -> str:
    """A long input cut to what ``used`` (the demo's output) drew on.

    Evidence is blocks behind hit numbers (``[3] ACME 10-K FY2031 p.48: …``): the blocks
    the output cites are kept, up to three, each trimmed to its rows that share words with
    the output; any other long text keeps its rows that do.
    """
    if len(text) <= DEMO_FIELD_CHARS:
        return text
    blocks = text.split("\n\n")
    cited = set(_MARKER_RE.findall(used))
    kept = [b for b in blocks if (m := _BLOCK_TAG_RE.match(b)) and m.group(1) in cited]
    if not kept:
        return select_passage(text, [used], budget=DEMO_FIELD_CHARS).text
    preamble = [b for b in blocks[:1] if not _BLOCK_TAG_RE.match(b)]
    trimmed = [_trim_block(b, used) for b in kept[:MAX_DEMO_BLOCKS]]
    return "\n\n".join([*preamble, *trimmed])


def _trim_block(block: str, used: str) -> str:
    if len(block) <= DEMO_BLOCK_CHARS:
        return block
    head, sep, body = block.partition("\n") if "\n" in block[:200] else block.partition(": ")
    return head + sep + select_passage(body, [used], budget=DEMO_BLOCK_CHARS).text


def demo_of(inputs: dict[str, Any], outputs: Any) -> dict[str, Any]:
    """One predictor call as a JSON-ready demo, long inputs cut to what the output used."""
    out = {k: to_jsonable_python(v, fallback=str) for k, v in dict(outputs).items()}
    used = json.dumps(out, ensure_ascii=False)
    demo: dict[str, Any] = {}
    for key, value in inputs.items():
        value = to_jsonable_python(value, fallback=str)
        demo[key] = compact_text(value, used) if isinstance(value, str) else value
    return {**demo, **out}


def last_calls(trace: Iterable[tuple[Any, dict, Any]], names: dict[int, str]) -> dict[str, Any]:
    """Each named predictor's last call in ``trace``: ``name -> demo``."""
    last: dict[str, Any] = {}
    for predictor, inputs, outputs in trace:
        name = names.get(id(predictor))
        if name is not None:
            last[name] = (inputs, outputs)
    return {name: demo_of(inputs, outputs) for name, (inputs, outputs) in last.items()}


@dataclass
class TraceRun:
    """One train example run with its trace: whether it passed and the demos it gives."""

    id: str
    passed: bool
    reason: str
    demos: dict[str, dict[str, Any]] = field(default_factory=dict)
    seconds: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "passed": self.passed,
            "reason": self.reason,
            "demos": self.demos,
            "seconds": self.seconds,
        }

    @classmethod
    def from_json(cls, row: dict[str, Any]) -> TraceRun:
        demos = row.get("demos", {})
        return cls(row["id"], bool(row["passed"]), row.get("reason", ""), demos, row.get("seconds"))


Passes = Callable[[Any, Any], tuple[bool, str]]


def run_with_trace(
    program: dspy.Module, example: dspy.Example, names: dict[int, str], passes: Passes
) -> TraceRun:
    """Run ``program`` on ``example`` recording every predictor call; judge it with
    ``passes``; a run that raised passes nothing."""
    started = time.monotonic()
    with dspy.context(trace=[]):
        try:
            pred = program(**example.inputs())
        except Exception as exc:  # a failed run is a row, not the end of the compile
            return TraceRun(example_id(example), False, f"error: {type(exc).__name__}: {exc}")
        trace = list(dspy.settings.trace)
    ok, reason = passes(example, pred)
    demos = last_calls(trace, names) if ok else {}
    return TraceRun(example_id(example), ok, reason, demos, round(time.monotonic() - started, 1))


def demo_agrees(name: str, demo: dict[str, Any], example: Any) -> bool:
    """Whether a predictor's own output agrees with what the example knows.

    A run can pass although one of its steps was wrong, and shown as a demo that step
    would teach its mistake:
    - the planner's rules drop a year or a count of years the question never wrote, so an
      LM that invented them still ends in the right plan. Its facets must name the gold
      cells' companies, only their years, and no more "last N years" than they span;
    - code cites or removes what a draft left uncited, so a draft with an uncited sentence
      can still end right. A researcher demo cites every sentence, and a reviewer demo
      that accepts a draft accepts one whose verification found nothing wrong.
    """
    if name == "reviewer.review":
        return _review_agrees(demo)
    if name == "researcher.extract":
        return _every_sentence_cited(str(demo.get("answer_markdown") or ""))
    if name != "planner.extract_facets":
        return True
    gold = field_of(example, "slices") or field_of(example, "expected_slices") or []
    if not gold:
        return True
    tickers = {str(cell["ticker"]) for cell in gold}
    years = {int(cell["fy"]) for cell in gold}
    last_n = demo.get("last_n_years") or 0
    return (
        set(demo.get("tickers") or []) == tickers
        and {int(y) for y in demo.get("fiscal_years") or []} <= years
        and (not last_n or len(years) >= int(last_n))
    )


def bootstrap_demos(
    program: dspy.Module,
    train: Sequence[dspy.Example],
    predictors: Sequence[str],
    passes: Passes,
    ledger_path: Path,
    max_demos: int,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
    max_runs: int | None = None,
) -> tuple[dict[str, list[dict[str, Any]]], list[str]]:
    """Demos for each of ``predictors``, and the ids of the examples they came from.

    Train examples run in a seeded order until every predictor has ``max_demos`` demos,
    ``max_runs`` examples have run, or train is spent. The run budget bounds the compile's
    cost: a predictor that passing runs rarely call (most metric questions are answered
    from statement facts, with no researcher call) would otherwise keep it running.
    Each run's outcome goes to ``ledger_path`` as it ends and is read back instead of run
    again.
    """
    names = {id(p): n for n, p in program.named_predictors() if n in predictors}
    ledger = Ledger(ledger_path)
    order = list(train)
    random.Random(seed).shuffle(order)
    order = order[:max_runs] if max_runs else order
    pool: dict[str, list[dict[str, Any]]] = {name: [] for name in predictors}
    sources: list[str] = []
    for i, example in enumerate(order, 1):
        if all(len(demos) >= max_demos for demos in pool.values()):
            break
        key = example_id(example)
        row = ledger.get(key)
        run = TraceRun.from_json(row) if row else run_with_trace(program, example, names, passes)
        if row is None:
            ledger.add(run.to_json())
        if run.passed and run.demos:
            taken = [
                name
                for name, demo in run.demos.items()
                # The run passed, but a step whose own output was wrong teaches nothing.
                if name in pool and len(pool[name]) < max_demos and demo_agrees(name, demo, example)
            ]
            for name in taken:
                pool[name].append(run.demos[name])
            if taken:
                sources.append(run.id)
        if progress is not None:
            progress(i, len(order))
    return pool, sources


def attach_demos(program: dspy.Module, pool: dict[str, list[dict[str, Any]]]) -> list[str]:
    """Set each predictor's demos from ``pool``; the names of those that got any."""
    attached = []
    for name, predictor in program.named_predictors():
        demos = pool.get(name) or []
        if demos:
            predictor.demos = [dspy.Example(augmented=True, **d) for d in demos]
            attached.append(name)
    return attached


_VERIFICATION_COUNTS = re.compile(
    r"(\d+) fabricated citation|(\d+) marker\(s\) without|(\d+) sentence\(s\) without"
)


def _review_agrees(demo: dict[str, Any]) -> bool:
    """An accepting review counts only when its draft's verification found nothing wrong."""
    if demo.get("done") is not True:
        return True
    counts = _VERIFICATION_COUNTS.findall(str(demo.get("verification") or ""))
    return all(int(n or 0) == 0 for group in counts for n in group if n)


def _every_sentence_cited(answer: str) -> bool:
    """Every sentence of a draft carries a ``[n]`` hit-number marker."""
    sentences = [s.text for s in split_sentences(answer) if s.text.strip()]
    return bool(sentences) and all(_MARKER_RE.search(text) for text in sentences)
