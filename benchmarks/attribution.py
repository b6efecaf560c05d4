"""Where a wrong or refused answer went wrong: the first stage of the pipeline that failed.

The stages, in pipeline order (the first that applies is the label):

- ``planner``: the gold cell (the evidence document's) was not among the cells planned;
- ``retrieval``: no gold evidence page reached the agents (searched, read or cited);
- ``citation``: a draft stated the gold's figures, and the final answer does not (a figure
  dropped for want of a citation, or lost in synthesis);
- ``judgement``: the answer states the gold's figures and still concludes wrong;
- ``reading``: a gold page was seen and the answer is wrong (a figure misread, or, for a
  gold with no figure, the wrong passage or conclusion drawn from the right page).

Plain code over what a run records, so the labels are reproducible and the next change can
go where the losses are. A method that does not plan (the single-call baseline, facts)
cannot fail at ``planner``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.cells import SliceRef
from metrics.answer_figures import states_gold_figures

STAGES = ("planner", "retrieval", "citation", "judgement", "reading")


@dataclass
class Trace:
    """What a method did on the way to its answer, as attribution needs it."""

    planned: list[str] | None = None  # cell labels; None: the method does not plan
    seen_uids: set[str] = field(default_factory=set)  # pages that reached the agents
    drafts: list[str] = field(default_factory=list)  # drafts before citation checks

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Trace:
        """A program run's trace from its run record (``run.json``)."""
        plan = record.get("plan") or {}
        planned = [SliceRef(**cell).label for cell in plan.get("slices") or []]
        seen = set(record.get("pages") or {})
        drafts = []
        for slice_ in record.get("slices") or []:
            for probe in slice_.get("probes") or []:
                for round_ in probe.get("rounds") or []:
                    seen.update(uid for s in round_.get("searches", []) for uid in s["uids"])
                    if round_.get("draft"):
                        drafts.append(str(round_["draft"]))
                figure = probe.get("figure")
                if figure:
                    drafts.append(str(figure))
        return cls(planned=planned, seen_uids=seen, drafts=drafts)


def attribute(
    label: str,
    answer: str,
    gold: str,
    gold_cell: str,
    gold_uids: Iterable[str],
    trace: Trace,
) -> str | None:
    """The first stage that failed for an answer judged ``label`` (None when correct)."""
    if label == "correct":
        return None
    if trace.planned is not None and gold_cell not in trace.planned:
        return "planner"
    if not set(gold_uids) & trace.seen_uids:
        return "retrieval"
    stated = states_gold_figures(answer, gold)
    if stated:
        return "judgement"
    if stated is False and any(states_gold_figures(d, gold) for d in trace.drafts):
        return "citation"
    return "reading"


def attribution_table(rows: Sequence[dict[str, Any]]) -> str:
    """Markdown: per method and question type, wrong or refused answers by stage."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["method"], row.get("question_type") or "?"), []).append(row)
        groups.setdefault((row["method"], "all"), []).append(row)
    lines = [
        "| method | question type | n | not correct | " + " | ".join(STAGES) + " |",
        "| --- | --- | ---: | ---: | " + " | ".join("---:" for _ in STAGES) + " |",
    ]
    for (method, kind), members in sorted(
        groups.items(), key=lambda kv: (kv[0][0], kv[0][1] == "all", kv[0][1])
    ):
        failed = [r for r in members if r.get("label") != "correct"]
        counts = [sum(r.get("stage") == s for r in failed) for s in STAGES]
        lines.append(
            f"| {method} | {kind} | {len(members)} | {len(failed)} | "
            + " | ".join(str(c) for c in counts)
            + " |"
        )
    return "\n".join(lines)
