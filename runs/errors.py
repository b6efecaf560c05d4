"""What can stop a run before or while it researches, as exceptions a front end can map.

Messages are written for the user (they say the fix). :class:`BadRunRequest` is input the
user can correct (the command line's exit 2, a web form's 400); :class:`RunFailed` is work
that could not be done (exit 1), :class:`StoreFailed` among it when the grid's store
failed mid-run; :class:`RunAlreadyComplete` is not a failure at all: the
run asked to resume has its report already.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from runs.run_dir import RunDir


class RunError(Exception):
    """A run could not start or finish; the message says why."""


class BadRunRequest(RunError):
    """The request cannot run as given: an empty question, an unknown run, a bad model."""


class UnknownRun(BadRunRequest):
    """No run with that id."""


class RunStillRunning(BadRunRequest):
    """The run to resume is still running in another process."""


class RunFailed(RunError):
    """The research could not be done (no language model call succeeded while planning)."""


class StoreFailed(RunFailed):
    """The grid's store failed mid-run (its server stopped): the run stopped at once and is
    marked failed; its finished work stays checkpointed, so ``--resume`` goes on from there
    once the store is back."""

    def __init__(self, fault: str, run_id: str) -> None:
        super().__init__(
            f"{fault}; the run stopped and its finished probes are kept: once the grid "
            f"server is back, resume with `research ask --resume {run_id}`"
        )
        self.run_id = run_id


class RunAlreadyComplete(RunError):
    """The run to resume is complete: nothing to do; ``run`` holds its report."""

    def __init__(self, run: RunDir) -> None:
        super().__init__(f"run {run.run_id} is already complete")
        self.run = run
