"""The questions of the answer benchmark: FinanceBench rows whose evidence is in the store.

Two files carry FinanceBench questions, and both are read: the shared
``questions.jsonl`` (``financebench_id``, ``evidence[].evidence_page_num``) and the golden
set ``evalsets/financebench.jsonl`` (``id``, ``evidence[].page_index``, ``split``). A row's
slice is its evidence document's ``{ticker, FY, FQ}`` cell as the store labels it. Two
fixed splits can select rows: the golden set's ``train``/``dev``/``test`` (a row of the
shared file takes its golden-set split by id) and the retrieval benchmark's
``tune``/``holdout`` halves (a hash of the id, ``benchmarks.retrieval.half_of``).
FinanceBench is by Patronus AI (arXiv 2311.11944).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.retrieval import half_of
from domain.cells import SliceRef
from evaluation.evalsets import SPLITS, evalset_path
from retrieval.pages import page_uid
from retrieval.store import GridFilter, PageStore

HALVES = ("tune", "holdout")
METRIC_QUESTIONS = "metrics-generated"


@dataclass(frozen=True)
class AnswerCase:
    """One question with its gold answer and the slice its evidence lies in."""

    qid: str
    question: str
    gold: str
    question_type: str
    doc_name: str
    doc_type: str
    where: GridFilter
    split: str | None  # train / dev / test, when the golden set has the question
    half: str  # tune / holdout
    evidence_uids: tuple[str, ...] = ()  # the gold pages (of the question's own document)

    @property
    def slice_label(self) -> str:
        return SliceRef(ticker=self.where.ticker, fy=self.where.fy, fq=self.where.fq).label


def _evidence_uids(row: dict[str, Any]) -> list[str]:
    """Evidence page uids of the question's own document (either file's field names)."""
    uids = []
    for ev in row.get("evidence") or []:
        doc = ev.get("doc_name") or ev.get("evidence_doc_name") or row["doc_name"]
        if doc != row["doc_name"]:
            continue
        if ev.get("uid"):
            uids.append(ev["uid"])
            continue
        index = ev.get("page_index", ev.get("evidence_page_num"))
        if index is not None:
            uids.append(page_uid(doc, int(index)))
    return uids


def golden_splits() -> dict[str, str]:
    """FinanceBench id -> golden-set split (empty when the golden set is missing)."""
    path = evalset_path("financebench")
    if not path.exists():
        return {}
    rows = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return {r["id"]: r["split"] for r in rows}


def load_answer_cases(path: Path, store: PageStore) -> tuple[list[AnswerCase], int]:
    """(questions whose evidence document is in ``store``, in file order; how many were not).

    ``ValueError`` with the line number for a row that is not a FinanceBench question.
    """
    splits = golden_splits()
    cases, skipped = [], 0
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            qid = str(row.get("financebench_id") or row.get("id") or f"line{n}")
            question, gold, doc_name = row["question"], str(row["answer"]), row["doc_name"]
            uids = _evidence_uids(row)
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{path}:{n}: not a FinanceBench question row ({exc})") from None
        pages = store.pages_by_uid(uids[:1]) if uids else []
        if not pages:
            skipped += 1
            continue
        page = pages[0]
        cases.append(
            AnswerCase(
                qid=qid,
                question=question,
                gold=gold,
                question_type=str(row.get("question_type") or ""),
                doc_name=doc_name,
                doc_type=page.doc_type,
                where=GridFilter(ticker=page.ticker, fy=page.fy, fq=page.fq),
                split=row.get("split") or splits.get(qid),
                half=half_of(qid),
                evidence_uids=tuple(uids),
            )
        )
    return cases, skipped


def select_cases(cases: list[AnswerCase], split: str | None, limit: int | None) -> list[AnswerCase]:
    """The cases of ``split`` (a golden-set split or a half; None: all), the first ``limit``."""
    if split is not None and split not in (*SPLITS, *HALVES):
        raise ValueError(f"unknown split {split!r}; expected one of {', '.join(SPLITS + HALVES)}")
    if split in HALVES:
        cases = [c for c in cases if c.half == split]
    elif split is not None:
        cases = [c for c in cases if c.split == split]
    return cases[:limit] if limit is not None else cases
