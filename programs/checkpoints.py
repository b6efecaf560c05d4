"""What the research program asks of a checkpoint: save finished work, find it again.

The program saves the plan, each slice's probes, each closed probe and each slice synthesis
as they finish, and on the next run over the same checkpoint loads them instead of
recomputing (a killed run resumes without repeating finished LM work). Where and how they
are kept is not the program's business: a run directory (``runs.checkpoint``) implements
this protocol, and :data:`NO_CHECKPOINT`, the default, keeps nothing, so the scheduler has
one code path. Every ``load_*`` returns None for work not done.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from domain.cells import SliceRef
    from programs.probe_loop import ProbeOutcome
    from signatures.planner import ResearchPlan
    from signatures.probes import Probe
    from signatures.synthesiser import SliceReport


class Checkpoint(Protocol):
    """Finished work of one run over one question."""

    def save_plan(self, plan: ResearchPlan) -> None: ...
    def load_plan(self) -> ResearchPlan | None: ...
    def save_probes(self, ref: SliceRef, probes: list[Probe], error: str | None) -> None: ...
    def load_probes(self, ref: SliceRef) -> tuple[list[Probe], str | None] | None: ...
    def save_probe(self, ref: SliceRef, index: int, outcome: ProbeOutcome) -> None: ...
    def load_probe(self, ref: SliceRef, index: int) -> ProbeOutcome | None: ...
    def save_slice(self, ref: SliceRef, report: SliceReport, synthesis: dict[str, Any]) -> None: ...
    def load_slice(self, ref: SliceRef) -> tuple[SliceReport, dict[str, Any]] | None: ...


class _NoCheckpoint:
    """Stores nothing and finds nothing: a run that is not resumable."""

    def save_plan(self, plan: ResearchPlan) -> None:
        return None

    def load_plan(self) -> ResearchPlan | None:
        return None

    def save_probes(self, ref: SliceRef, probes: list[Probe], error: str | None) -> None:
        return None

    def load_probes(self, ref: SliceRef) -> tuple[list[Probe], str | None] | None:
        return None

    def save_probe(self, ref: SliceRef, index: int, outcome: ProbeOutcome) -> None:
        return None

    def load_probe(self, ref: SliceRef, index: int) -> ProbeOutcome | None:
        return None

    def save_slice(self, ref: SliceRef, report: SliceReport, synthesis: dict[str, Any]) -> None:
        return None

    def load_slice(self, ref: SliceRef) -> tuple[SliceReport, dict[str, Any]] | None:
        return None


NO_CHECKPOINT: Checkpoint = _NoCheckpoint()
