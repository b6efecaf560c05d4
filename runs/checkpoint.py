"""A run's checkpoint directory: finished research written to disk as it completes.

A :class:`DirectoryCheckpoint` (the :class:`programs.checkpoints.Checkpoint` a run directory
attaches to its program) is a directory holding the plan and, per slice, the generated probes,
each closed probe (answer, retrieved pages, record) and the slice synthesis::

    plan.json
    slices/MMM_FY2022_Q4/probes.json
    slices/MMM_FY2022_Q4/probe-1.json
    slices/MMM_FY2022_Q4/slice.json

Each file is written whole to a temporary file in the same directory, fsynced, then renamed
over its name (``os.replace`` is atomic on POSIX and Windows), so a reader sees either the
old file or the new one, never half of one: a ``kill -9`` at any instant leaves every file
readable. A file that cannot be read anyway (a damaged disk, a hand edit) counts as work not
done, so it is redone rather than trusted.

The scheduler saves each result in the order it finishes (probes, then their outcomes, then
the synthesis), so a stored synthesis always has every probe outcome it was built from. A
directory belongs to one question: the plan in it is used as is.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from atomicfiles import read_json, write_json_atomic
from domain.cells import SliceRef
from programs.probe_loop import ProbeOutcome
from retrieval.search.hybrid import Hit
from signatures.planner import ResearchPlan
from signatures.probes import Probe
from signatures.synthesiser import ProbeAnswer, SliceReport

logger = logging.getLogger(__name__)

T = TypeVar("T")


def slice_key(ref: SliceRef) -> str:
    """A file-name-safe key for a slice: ``MMM FY2022 Q4`` -> ``MMM_FY2022_Q4``."""
    return re.sub(r"[^A-Za-z0-9.-]+", "_", ref.label)


class DirectoryCheckpoint:
    """A run's finished work in ``directory``; every ``load_*`` returns None for work not done.

    ``DirectoryCheckpoint(None)`` stores nothing and finds nothing (as
    :data:`programs.checkpoints.NO_CHECKPOINT` does).
    """

    def __init__(self, directory: Path | str | None) -> None:
        self.directory = Path(directory) if directory is not None else None

    def _write(self, relative: str, data: Any) -> None:
        """Save ``data``; a failed write (disk full) costs only the resume of that work."""
        if self.directory is None:
            return
        try:
            write_json_atomic(self.directory / relative, data)
        except (OSError, ValueError) as exc:
            logger.warning("could not checkpoint %s: %s", relative, exc)

    def _load(self, relative: str, parse: Callable[[Any], T]) -> T | None:
        if self.directory is None:
            return None
        path = self.directory / relative
        data = read_json(path)
        if data is None:
            return None
        try:
            return parse(data)
        except (KeyError, TypeError, ValueError) as exc:  # pydantic errors are ValueErrors
            logger.warning("ignoring checkpoint %s that does not fit: %s", path, exc)
            return None

    # -- the plan --------------------------------------------------------------------------
    def save_plan(self, plan: ResearchPlan) -> None:
        self._write("plan.json", plan.model_dump(mode="json"))

    def load_plan(self) -> ResearchPlan | None:
        return self._load("plan.json", ResearchPlan.model_validate)

    # -- a slice's probes ------------------------------------------------------------------
    def save_probes(self, ref: SliceRef, probes: list[Probe], error: str | None) -> None:
        data = {"probes": [p.model_dump(mode="json") for p in probes], "error": error}
        self._write(f"slices/{slice_key(ref)}/probes.json", data)

    def load_probes(self, ref: SliceRef) -> tuple[list[Probe], str | None] | None:
        def parse(data: dict[str, Any]) -> tuple[list[Probe], str | None]:
            return [Probe.model_validate(p) for p in data["probes"]], data["error"]

        return self._load(f"slices/{slice_key(ref)}/probes.json", parse)

    # -- one closed probe ------------------------------------------------------------------
    def save_probe(self, ref: SliceRef, index: int, outcome: ProbeOutcome) -> None:
        data = {
            "answer": outcome.answer.model_dump(mode="json"),
            "pages": {uid: dataclasses.asdict(hit) for uid, hit in outcome.pages.items()},
            "record": outcome.record,
        }
        self._write(f"slices/{slice_key(ref)}/probe-{index}.json", data)

    def load_probe(self, ref: SliceRef, index: int) -> ProbeOutcome | None:
        def parse(data: dict[str, Any]) -> ProbeOutcome:
            return ProbeOutcome(
                answer=ProbeAnswer.model_validate(data["answer"]),
                pages={uid: Hit(**hit) for uid, hit in data["pages"].items()},
                record=data["record"],
            )

        return self._load(f"slices/{slice_key(ref)}/probe-{index}.json", parse)

    # -- a synthesised slice ---------------------------------------------------------------
    def save_slice(self, ref: SliceRef, report: SliceReport, synthesis: dict[str, Any]) -> None:
        data = {"report": report.model_dump(mode="json"), "synthesis": synthesis}
        self._write(f"slices/{slice_key(ref)}/slice.json", data)

    def load_slice(self, ref: SliceRef) -> tuple[SliceReport, dict[str, Any]] | None:
        def parse(data: dict[str, Any]) -> tuple[SliceReport, dict[str, Any]]:
            return SliceReport.model_validate(data["report"]), dict(data["synthesis"])

        return self._load(f"slices/{slice_key(ref)}/slice.json", parse)

    # -- progress, for listings ------------------------------------------------------------
    def progress(self) -> dict[str, int]:
        """Slices and probes planned and done, counted from the files (listing stays cheap)."""
        counts = {"slices": 0, "slices_done": 0, "probes": 0, "probes_done": 0}
        if self.directory is None:
            return counts
        plan = read_json(self.directory / "plan.json") or {}
        for ref in plan.get("slices") or []:
            counts["slices"] += 1
            try:
                directory = self.directory / "slices" / slice_key(SliceRef.model_validate(ref))
            except ValueError:
                continue
            probes = len((read_json(directory / "probes.json") or {}).get("probes") or [])
            counts["probes"] += probes
            done = (directory / f"probe-{j}.json" for j in range(1, probes + 1))
            counts["probes_done"] += sum(path.exists() for path in done)
            counts["slices_done"] += (directory / "slice.json").exists()
        return counts
