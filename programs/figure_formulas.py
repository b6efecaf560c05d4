"""The formula a question asks for, and the facts and periods it reads.

Apart from :mod:`programs.figures`, which computes it per slice, because the probes read it
too: a probe's focus (:mod:`programs.probe_focus`) compares the statements and figures its
title names with the question's, with no slice at hand.
"""

from __future__ import annotations

from calculator.choice import FormulaChoice, choose_formula, normalise
from calculator.concepts import CONCEPTS
from calculator.definitions import metric_formulas
from calculator.errors import CalculationError
from calculator.expressions import Reference, parse_formula, references
from calculator.phrases import compiled
from domain.periods import MIN_FY, Period


def formula_asked(question: str, period: Period) -> FormulaChoice | None:
    """The formula the question asks for; a comparison ("How did X compare …") is read as
    a question about the line item it names."""
    for text in (question, f"What is {question}"):
        choice = choose_formula(text, period)
        if isinstance(choice, FormulaChoice):
            return choice
    return None


def figures_named(text: str) -> frozenset[str]:
    """Every concept and metric ``text`` names anywhere ("capex", "operating margin")."""
    lowered = normalise(text)
    return frozenset(name for pattern, name in compiled() if pattern.search(lowered))


def statements_named(text: str) -> frozenset[str]:
    """The statements that print the figure ``text`` asks for or names ("Net cash provided
    by operating activities": the cash-flow statement; "operating margin": the income
    statement, where its inputs are); empty when it names none the calculator knows."""
    choice = formula_asked(text, Period(MIN_FY))
    if choice is None:
        return frozenset()
    return frozenset(
        CONCEPTS[ref.concept].statement for ref in formula_inputs(choice) if ref.concept in CONCEPTS
    )


def formula_inputs(choice: FormulaChoice) -> list[Reference]:
    """The facts ``choice``'s formula reads (none when it does not parse)."""
    try:
        expression = parse_formula(choice.formula, metrics=metric_formulas(choice.definitions))
    except CalculationError:
        return []
    return list(references(expression))


def names_fixed_years(choice: FormulaChoice) -> bool:
    """True if the formula names fixed years (growth from FY2018 to FY2022), not "this year"."""
    return any(ref.period.absolute is not None for ref in formula_inputs(choice))
