"""Numbers from code: a safe formula evaluator over statement facts, named metric
definitions, deterministic fact resolution and formula choice.

A language model may choose *what* to compute (a formula); this package does the arithmetic
and keeps the books: every computed figure carries the exact facts it was computed from, and
so the pages it cites.
"""

from calculator.choice import FormulaChoice, Presentation, choose_formula
from calculator.errors import CalculationError, FormulaError, MissingInputError
from calculator.evaluation import calculate
from calculator.expressions import Expression, parse_formula
from calculator.result import Calculation
from domain.periods import Period

__all__ = [
    "Calculation",
    "CalculationError",
    "Expression",
    "FormulaChoice",
    "FormulaError",
    "MissingInputError",
    "Period",
    "Presentation",
    "calculate",
    "choose_formula",
    "parse_formula",
]
