"""The optimisers that write demos with the project's own modules, one function each:
``labelled`` (gold answers), ``traced`` (gold answers on the program's own evidence) and
``pick`` (which first-search passage answers). Each returns the student with its demos
attached and the train ids they came from (the manifest's ``demo_sources``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from runs.errors import BadRunRequest
from runs.optimisation_job import Optimisation, Say

Compiled = tuple[Any, list[str]]


def _require(step: str, names: list[str], optimiser: str) -> None:
    """A demo optimiser writes ``step``'s demos: the target must include it."""
    if step not in names:
        raise BadRunRequest(
            f"the {optimiser} optimiser writes demos for {step}: choose --target "
            "researcher (or answer)"
        )


def _labelled(job: Optimisation, student: Any, names: list[str], say: Say) -> Compiled:
    """The student with answer-step demos written from train's gold answers."""
    from evaluation.labelled_demos import ANSWER_STEP, labelled_demos
    from evaluation.trace_demos import attach_demos

    _require(ANSWER_STEP, names, "labelled")
    spec = job.spec
    pool, sources = labelled_demos(
        job.splits["train"], job.research.searcher, spec.max_demos, spec.seed
    )
    attached = attach_demos(student, pool)
    say(f"demos for {', '.join(attached) or 'no predictor'} from {len(sources)} gold answer(s)")
    return student, sources


def _from_traced_runs(job: Optimisation, student: Any, demos: Callable, say: Say) -> Compiled:
    """The student with the demos ``demos`` makes of its own traced train runs (one ledger,
    ``traced`` and ``pick`` alike, so the second compile replays the first's runs)."""
    from evaluation.trace_demos import attach_demos

    pool, sources = demos(
        student,
        job.splits["train"],
        job.research.searcher,
        job.work / f"traced-runs-{job.fingerprint}.jsonl",
        max_demos=job.spec.max_demos,
        seed=job.spec.seed,
        progress=lambda done, total: say(f"train run {done}/{total}") if done % 5 == 0 else None,
    )
    attached = attach_demos(student, pool)
    say(f"demos for {', '.join(attached) or 'no predictor'} from {len(sources)} traced run(s)")
    return student, sources


def _traced(job: Optimisation, student: Any, names: list[str], say: Say) -> Compiled:
    """The student with answer-step demos made of its own train evidence and gold answers."""
    from evaluation.labelled_demos import ANSWER_STEP
    from evaluation.traced_demos import traced_demos

    _require(ANSWER_STEP, names, "traced")
    return _from_traced_runs(job, student, traced_demos, say)


def _picked(job: Optimisation, student: Any, names: list[str], say: Say) -> Compiled:
    """The student with pick-step demos: train's first searches and their gold pages."""
    from evaluation.pick_demos import PICK_STEP, pick_demos

    _require(PICK_STEP, names, "pick")
    return _from_traced_runs(job, student, pick_demos, say)


DEMO_COMPILES: dict[str, Callable[[Optimisation, Any, list[str], Say], Compiled]] = {
    "labelled": _labelled,
    "traced": _traced,
    "pick": _picked,
}
