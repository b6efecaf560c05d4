"""The golden sets: where they live, their fixed splits, and loading them as DSPy examples.

Three JSONL files under ``evalsets/`` (see its README): ``financebench`` (FinanceBench's
open-source questions with gold answers and evidence pages), ``planner`` (questions ->
expected ``{ticker, FY, FQ}`` slices over the bundled sample grid) and ``reports``
(cross-sectional and inter-temporal questions with the facts a report must contain).

Each row carries its ``split`` (train / dev / test). Splits are assigned once by
``scripts/build_evalsets.py`` with :func:`assign_splits` (``datasets``' seeded
``train_test_split``) and stored in the files, so every optimiser and every evaluation
sees the same partition, and :func:`evalset_hash` pins which version of a set a compiled
program was scored on.
"""

from __future__ import annotations

import copy
import hashlib
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

import dspy

# Loading a local JSON file needs no network; make sure ``datasets`` never tries, even
# when imported outside the CLI (which sets the same switch).
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")

EVALSETS = ("financebench", "planner", "reports")
SPLITS = ("train", "dev", "test")
#: Seed of the split assignment; changing it reshuffles every set.
SEED = 2311
#: Column whose values each split should mirror (None: a plain shuffle). The planner's
#: rule tags have too few rows each to stratify on.
STRATIFY: dict[str, str | None] = {
    "financebench": "question_type",
    "planner": None,
    "reports": "kind",
}
#: Sets split by company: every row of one company lands in one split, so a program
#: compiled or a rule written on train never saw the test companies' filings.
GROUP_BY: dict[str, str] = {"financebench": "company"}
EVALSET_DIR = Path(__file__).resolve().parents[1] / "evalsets"


def _check_name(name: str) -> None:
    if name not in EVALSETS:
        raise ValueError(f"unknown evalset {name!r}; expected one of {', '.join(EVALSETS)}")


def _check_split(split: str | None) -> None:
    if split is not None and split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; expected one of {', '.join(SPLITS)}")


def evalset_path(name: str) -> Path:
    """``<repo>/evalsets/<name>.jsonl``; ValueError for a name not in :data:`EVALSETS`."""
    _check_name(name)
    return EVALSET_DIR / f"{name}.jsonl"


def evalset_hash(name: str) -> str:
    """First 12 hex digits of the file's sha256: recorded with every compiled program."""
    return hashlib.sha256(evalset_path(name).read_bytes()).hexdigest()[:12]


def _cache_dir() -> str:
    """A private ``datasets`` cache, so evalsets never mix with the user's HF cache."""
    import platformdirs

    return str(Path(platformdirs.user_cache_dir("wissen-research")) / "datasets")


@contextmanager
def _no_progress_bars() -> Iterator[None]:
    """``datasets`` draws progress bars for a few hundred rows; they would clutter the CLI."""
    import datasets

    already = datasets.are_progress_bars_disabled()
    datasets.disable_progress_bars()
    try:
        yield
    finally:
        if not already:
            datasets.enable_progress_bars()


@lru_cache(maxsize=16)
def _rows_of(path: str, digest: str) -> tuple[dict[str, Any], ...]:
    """All rows of one file version (``digest`` keys the cache, so an edit is re-read).

    ``datasets`` is the loader (Arrow parsing, its on-disk cache); the in-process cache
    keeps repeated loads, e.g. one per optimiser trial, far below a second.
    """
    import datasets

    with _no_progress_bars():
        table = datasets.load_dataset(
            "json", data_files=path, split="train", cache_dir=_cache_dir()
        )
    return tuple(table.to_list())


def load_rows(name: str, split: str | None = None, limit: int | None = None) -> list[dict]:
    """Rows of evalset ``name`` in file order, optionally one ``split``, the first ``limit``."""
    _check_split(split)
    path = evalset_path(name)
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: run `uv run python scripts/build_evalsets.py`")
    rows = [r for r in _rows_of(str(path), evalset_hash(name)) if split in (None, r["split"])]
    if limit is not None:
        rows = rows[: max(limit, 0)]
    return copy.deepcopy(rows)  # callers may mutate; the cache must not change


def facts_answer(facts: Sequence[dict[str, Any]]) -> str:
    """A reports row's gold answer: its facts as sentences, so answer-correctness has one."""
    return " ".join(f["fact"].rstrip(". ") + "." for f in facts)


def _example(name: str, row: dict[str, Any]) -> dspy.Example:
    fields = dict(row)
    if name == "reports":
        fields["answer"] = facts_answer(row["facts"])
    if company := _document_company(name, row):
        # FinanceBench asks every question of one filing: its company is the run's company,
        # used by a question that names none, as the answer benchmark gives it.
        fields["company"] = company
        return dspy.Example(**fields).with_inputs("question", "company")
    return dspy.Example(**fields).with_inputs("question")


def _document_company(name: str, row: dict[str, Any]) -> str | None:
    """The ticker of a FinanceBench question's document (None for rows of other sets)."""
    if name != "financebench" and row.get("grid") != "financebench":
        return None
    cells = row.get("slices") or row.get("expected_slices") or []
    return cells[0]["ticker"] if cells else None


def load_examples(
    name: str, split: str | None = None, limit: int | None = None
) -> list[dspy.Example]:
    """:func:`load_rows` as ``dspy.Example``s whose only input is ``question``.

    ``financebench`` keeps its gold ``answer``; ``reports`` gets ``answer`` built from its
    facts (:func:`facts_answer`); metrics read ``gold.answer``.
    """
    return [_example(name, row) for row in load_rows(name, split, limit)]


def assign_splits(
    rows: Sequence[dict[str, Any]], seed: int = SEED, stratify_by: str | None = None
) -> list[str]:
    """The split of each row: about 50% train, 25% dev, 25% test.

    Two seeded ``datasets`` ``train_test_split`` calls (train vs rest, then dev vs test),
    optionally stratified on ``stratify_by`` so each split mirrors the set. The result is
    a pure function of the number of rows, their strata and ``seed``: re-running the build
    reproduces the committed splits byte for byte. Appending rows reshuffles them, so a
    changed set (new :func:`evalset_hash`) means programs must be re-evaluated.
    """
    import datasets

    if len(rows) < 3:
        raise ValueError(f"need at least 3 rows for train/dev/test splits, got {len(rows)}")
    table = datasets.Dataset.from_dict({"row": list(range(len(rows)))})
    column = None
    with _no_progress_bars():
        if stratify_by is not None:
            strata = [str(r[stratify_by]) for r in rows]
            table = table.add_column("stratum", strata).class_encode_column("stratum")
            column = "stratum"
        first = table.train_test_split(test_size=0.5, seed=seed, stratify_by_column=column)
        second = first["test"].train_test_split(test_size=0.5, seed=seed, stratify_by_column=column)
    splits = [""] * len(rows)
    for name, part in (
        ("train", first["train"]),
        ("dev", second["train"]),
        ("test", second["test"]),
    ):
        for index in part["row"]:
            splits[index] = name
    return splits


def row_company(row: dict[str, Any]) -> str:
    """The company a FinanceBench row is about: its evidence document's ticker."""
    slices = row.get("slices") or []
    return str(slices[0]["ticker"]) if slices else str(row.get("doc_name", "")).split("_")[0]


def assign_group_splits(
    rows: Sequence[dict[str, Any]], seed: int = SEED, fractions: tuple[float, ...] = (0.5, 0.25)
) -> list[str]:
    """The split of each row with no company in two splits: about 50/25/25 by rows.

    Companies are shuffled with ``seed`` and dealt one at a time to the split furthest
    below its share of rows (train, dev, test in that order on ties). A pure function of
    the rows' companies and ``seed``, so a rebuild reproduces the committed file.
    """
    import random

    if len(rows) < 3:
        raise ValueError(f"need at least 3 rows for train/dev/test splits, got {len(rows)}")
    counts: dict[str, int] = {}
    for row in rows:
        counts[row_company(row)] = counts.get(row_company(row), 0) + 1
    companies = sorted(counts)
    random.Random(seed).shuffle(companies)
    shares = dict(zip(SPLITS, (*fractions, 1 - sum(fractions)), strict=True))
    filled = dict.fromkeys(SPLITS, 0)
    split_of: dict[str, str] = {}
    for company in companies:
        name = min(SPLITS, key=lambda s: (filled[s] / len(rows) - shares[s], SPLITS.index(s)))
        split_of[company] = name
        filled[name] += counts[company]
    return [split_of[row_company(row)] for row in rows]


def splits_for(name: str, rows: Sequence[dict[str, Any]], seed: int = SEED) -> list[str]:
    """The fixed split of each row of evalset ``name`` (grouped, stratified or shuffled)."""
    if name in GROUP_BY:
        return assign_group_splits(rows, seed)
    return assign_splits(rows, seed, STRATIFY[name])


def with_splits(rows: Sequence[dict[str, Any]], splits: Sequence[str]) -> list[dict[str, Any]]:
    """Rows with ``split`` set: replaced where present (key order kept), appended if not."""
    return [{**row, "split": split} for row, split in zip(rows, splits, strict=True)]
