"""The examples of a golden set's split that a grid can answer: what ``research eval`` and
``research optimise`` both run on, chosen one way."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import dspy

from evaluation.evalsets import load_examples
from evaluation.tasks import EvalTask


def answerable_examples(
    task: EvalTask,
    name: str,
    split: str | None,
    grid: Any,
    limit: int | None = None,
    say: Callable[[str], None] = lambda _: None,
) -> list[dspy.Example]:
    """The split's examples whose evidence the grid holds, first ``limit``; ``say`` hears how
    many were skipped. ``ValueError`` when the set or split is unknown or none is answerable.
    """
    examples = load_examples(name, split)
    usable = task.answerable(examples, grid)
    where = f"{name} {split or ''}".strip()
    if not usable:
        raise ValueError(
            f"none of the {len(examples)} {where} examples has its evidence in this grid; "
            "ingest the filings first: research ingest ../shared/financebench/pages.jsonl.gz"
        )
    if len(usable) < len(examples):
        say(
            f"{len(examples) - len(usable)} of {len(examples)} {where} examples skipped: "
            "their evidence pages are not in the grid"
        )
    return usable[:limit] if limit else usable
