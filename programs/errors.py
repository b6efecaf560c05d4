"""Errors the research program raises to its caller (the CLI maps them to exit codes)."""

from __future__ import annotations


class PlanningError(ValueError):
    """The question cannot be planned: empty, no company the grid holds, periods outside it.

    The message is written for the user (one clear paragraph, naming what the grid does
    cover), so a CLI can print it as is.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
