"""The formula a question asks for, and the facts and periods it reads.

Apart from :mod:`programs.figures`, which computes it per slice, because the probes read it
too: a probe's focus (:mod:`programs.probe_focus`) compares the statements and figures its
title names with the question's, with no slice at hand.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from calculator.choice import FormulaChoice, choose_formula, normalise, single_item
from calculator.concepts import CONCEPTS
from calculator.definitions import metric_formulas
from calculator.errors import CalculationError
from calculator.expressions import Reference, parse_formula, references
from calculator.phrases import compiled
from domain.periods import MIN_FY, Period
from textnorm.casing import lower_first
from textnorm.listing import listed


def formula_asked(question: str, period: Period) -> FormulaChoice | None:
    """The formula the question asks for; a comparison ("How did X compare …") is read as
    a question about the line item it names."""
    for text in (question, f"What is {question}"):
        choice = choose_formula(text, period)
        if isinstance(choice, FormulaChoice):
            return choice
    return None


#: Where a list of figures splits: "capex and dividends", "capex, dividends and buybacks".
_JOINED = re.compile(r"\s*,\s*(?:and\s+)?|\s+(?:and|plus|&)\s+")


def _one_size(text: str, period: Period) -> FormulaChoice | None:
    """One line item or metric named by ``text``, as a question asks its size (an amount
    paid is named in the plural: "dividends")."""
    for asked in (f"What was {text}?", f"What was {text}s?"):
        choice = formula_asked(asked, period)
        if choice is not None and single_item(choice.formula) is not None:
            return replace(choice, period=period)
    return None


def size_asked(
    text: str, period: Period, unpaid: Callable[[str], bool] = lambda item: False
) -> FormulaChoice | None:
    """The formula for the size of what ``text`` names: one line item or metric, or the sum
    of several it lists ("capex and dividends") when no one figure stands for them all.
    The phrases read "capex and dividends" as capex alone, and a cover question answered
    on it left the dividends out; "dividends and share buybacks" is one figure of its own
    (cash returned to shareholders), and stays one. A listed payment ``unpaid`` says the
    statements do not print (PG&E paid no dividends in FY2022) adds nothing and is named
    in the title: "Capital expenditure (no dividends paid)". None when a listed figure
    cannot be read."""
    whole = _one_size(text, period)
    parts = [part for part in _JOINED.split(text) if part.strip()]
    if len(parts) < 2 or whole is None:
        return whole
    each = [_one_size(part, period) for part in parts]
    if whole.formula not in {c.formula for c in each if c is not None}:
        return whole  # a figure of its own
    read = [c for c in each if c is not None]
    if len(read) < len(each) or len({c.formula for c in read}) < len(read):
        return None
    paid = [c for c in read if not unpaid(single_item(c.formula) or "")]
    if not paid:
        return None
    title = listed([paid[0].title, *(lower_first(c.title) for c in paid[1:])])
    if none := [lower_first(c.title) for c in read if c not in paid]:
        title += f" (no {listed(none)})"
    return replace(whole, formula=" + ".join(c.formula for c in paid), title=title)


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
