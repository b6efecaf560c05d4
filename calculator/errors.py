"""What can go wrong with a formula, as exceptions whose message is the one line a user sees."""

from __future__ import annotations


class CalculationError(ValueError):
    """A formula could not be computed; the message says why in one line."""


class FormulaError(CalculationError):
    """The formula text is not a formula this calculator accepts (syntax, unknown name)."""


class MissingInputError(CalculationError):
    """Facts the formula needs are not in the slice: never replaced by a made-up number."""

    def __init__(self, missing: list[str]) -> None:
        self.missing = list(missing)
        super().__init__("missing input: " + "; ".join(self.missing))
