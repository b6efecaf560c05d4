"""Computing a formula over a slice's facts: bind every reference to a fact, then do the
arithmetic in plain Python floats, with units checked.

Every reference is bound before any arithmetic, so a formula naming facts the slice lacks
fails with one message that lists *all* of them; a missing number is never replaced by a
guess (a documented substitute, ``calculator.concepts.SUBSTITUTES``, is used and noted).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from calculator.concepts import ABSENT_WHERE_READ, CONCEPTS, SUBSTITUTES, concept_info
from calculator.definitions import METRICS_BY_NAME, metric_formulas
from calculator.errors import CalculationError, FormulaError, MissingInputError
from calculator.expressions import (
    MAX_EXPONENT,
    Binary,
    Call,
    Expression,
    Number,
    Reference,
    Unary,
    children,
    map_references,
    parse_formula,
    references,
    unparse,
    with_children,
)
from calculator.periods import PeriodRef
from calculator.resolution import FactResolver
from calculator.result import NONE_PRINTED, Calculation
from domain.periods import Period
from retrieval.facts.model import Fact

Dims = tuple[tuple[str, int], ...]  # ("USD", 1), ("shares", -1): sorted, no zero exponents

_UNIT_DIMS: dict[str, Dims] = {
    "USD": (("USD", 1),),
    "shares": (("shares", 1),),
    "USD/share": (("USD", 1), ("shares", -1)),
    "%": (),
}


def calculate(
    formula: str | Expression,
    facts: Sequence[Fact] | FactResolver,
    period: Period,
    *,
    title: str | None = None,
    definitions: Mapping[str, str] | None = None,
    doc_name: str | None = None,
    display: str | None = None,
    unit: str | None = None,
) -> Calculation:
    """Compute ``formula`` for ``period`` from ``facts`` (a slice's facts).

    ``definitions`` are a question's own metric definitions (they win over the named ones).
    A formula that is a single metric name takes that metric's title, display and unit.
    Raises :class:`FormulaError`, :class:`MissingInputError` or :class:`CalculationError`.
    """
    resolver = facts if isinstance(facts, FactResolver) else FactResolver(facts, doc_name)
    text = formula if isinstance(formula, str) else unparse(formula)
    metric = (
        METRICS_BY_NAME.get(text.strip())
        if not definitions or text.strip() not in definitions
        else None
    )
    if isinstance(formula, str):
        concepts = set(CONCEPTS) | set(resolver.concepts)
        expression = parse_formula(
            formula, metrics=metric_formulas(dict(definitions or {})), concepts=concepts
        )
    else:
        expression = formula
    bound_tree, bound, notes = _bind(expression, resolver, period)
    value, dims = _evaluate(bound_tree, bound)
    if not math.isfinite(value):
        raise CalculationError(f"{text.strip()} is not a finite number for {period.label}")
    inputs = tuple(dict.fromkeys(bound[r] for r in references(bound_tree)))
    return Calculation(
        title=title or (metric.title if metric else text.strip()),
        formula=text.strip(),
        expanded=unparse(bound_tree),
        period=period,
        value=value,
        unit=unit or (metric.unit if metric and metric.unit else _unit_text(dims)),
        display=display or (metric.display if metric else _default_display(dims)),
        inputs=inputs,
        bound=bound,
        expression=bound_tree,
        notes=tuple(notes),
    )


def _bind(
    expression: Expression, resolver: FactResolver, period: Period
) -> tuple[Expression, dict[Reference, Fact], list[str]]:
    """The tree with absolute periods (substitutes spliced in), each reference's fact, notes."""
    bound: dict[Reference, Fact] = {}
    missing: list[str] = []
    notes: list[str] = []

    def absolute(ref: Reference) -> Reference:
        return Reference(ref.concept, PeriodRef(absolute=ref.period.resolve(period)))

    def bind(node: Reference) -> Expression:
        ref = absolute(node)
        at = ref.period.resolve(period)
        fact = resolver.pick(ref.concept, at)
        if fact is not None:
            bound[ref] = fact
            return ref
        stand_in = _substitute(ref.concept, resolver, at)
        if stand_in is not None:
            tree, facts, substituted = stand_in
            bound.update(facts)
            for concept in substituted:
                formula = SUBSTITUTES[concept]
                read_as = NONE_PRINTED if formula == "0" else f"read as {formula}"
                note = f"{concept_info(concept).title} {at.label}: {read_as}"
                if note not in notes:
                    notes.append(note)
            return tree
        reason = resolver.missing_reason(ref.concept, at)
        if reason not in missing:
            missing.append(reason)
        return ref

    tree = map_references(expression, bind)
    if missing:
        raise MissingInputError(missing)
    return _without_redundant_abs(tree), bound, notes


def _non_negative(node: Expression) -> bool:
    """Whether ``node`` cannot be negative by its form: an ``abs(...)``, a sum of such."""
    if isinstance(node, Call):
        return node.function == "abs"
    if isinstance(node, Binary) and node.op == "+":
        return _non_negative(node.left) and _non_negative(node.right)
    return isinstance(node, Number) and node.value >= 0


def _without_redundant_abs(node: Expression) -> Expression:
    """``abs(abs(a) + abs(b))`` as ``abs(a) + abs(b)``: a stand-in spliced into ``abs(...)``
    (cost of revenue in gross profit) would otherwise render ``||a| + |b||``."""
    node = with_children(node, [_without_redundant_abs(c) for c in children(node)])
    if isinstance(node, Call) and node.function == "abs" and len(node.args) == 1:
        return node.args[0] if _non_negative(node.args[0]) else node
    return node


def _substitute(
    concept: str, resolver: FactResolver, at: Period, outer: frozenset[str] = frozenset()
) -> tuple[Expression, dict[Reference, Fact], list[str]] | None:
    """The documented stand-in for a missing concept, if every fact it needs is there
    (itself or through its own stand-in: gross profit is revenue less cost of revenue,
    which may be cost of products plus cost of services); the concepts substituted, outer
    first."""
    formula = SUBSTITUTES.get(concept)
    if formula is None or concept in outer or not _absent_where_read(concept, resolver, at):
        return None
    tree = parse_formula(formula, metrics={}, concepts=set(CONCEPTS))
    facts: dict[Reference, Fact] = {}
    substituted = [concept]

    def place(node: Reference) -> Expression:
        placed = Reference(node.concept, PeriodRef(absolute=at))
        fact = resolver.pick(node.concept, at)
        if fact is not None:
            facts[placed] = fact
            return placed
        inner = _substitute(node.concept, resolver, at, outer | {concept})
        if inner is None:
            raise _NoStandIn
        inner_tree, inner_facts, inner_substituted = inner
        facts.update(inner_facts)
        substituted.extend(c for c in inner_substituted if c not in substituted)
        return inner_tree

    try:
        return map_references(tree, place), facts, substituted
    except _NoStandIn:
        return None


def _absent_where_read(concept: str, resolver: FactResolver, at: Period) -> bool:
    """Whether a guarded stand-in of 0 holds at ``at``: its statement was read and prints
    no row like the item (:data:`calculator.concepts.ABSENT_WHERE_READ`); True unguarded."""
    guard = ABSENT_WHERE_READ.get(concept)
    if guard is None:
        return True
    total, rows = guard
    statement = concept_info(total).statement
    return resolver.pick(total, at) is not None and not resolver.prints(statement, rows, at)


def change_ends(calculation: Calculation) -> tuple[float, float] | None:
    """(earlier, later): the two levels a change subtracts (``gross_margin[FY2020] -
    gross_margin[FY2019]`` gives the two margins), so its sentence can state both periods'
    figures beside the change; None for any other formula."""
    node = calculation.expression
    if not (isinstance(node, Binary) and node.op == "-"):
        return None
    try:
        later, earlier = (_evaluate(side, calculation.bound)[0] for side in (node.left, node.right))
    except (CalculationError, KeyError):
        return None
    return earlier, later


class _NoStandIn(Exception):
    """A fact a stand-in needs is missing, and has no stand-in of its own."""


def _evaluate(node: Expression, bound: Mapping[Reference, Fact]) -> tuple[float, Dims]:
    if isinstance(node, Number):
        return node.value, ()
    if isinstance(node, Reference):
        fact = bound[node]
        if fact.unit not in _UNIT_DIMS:
            raise CalculationError(f"{fact.concept} has an unknown unit {fact.unit!r}")
        value = fact.value / 100 if fact.unit == "%" else fact.value
        return value, _UNIT_DIMS[fact.unit]
    if isinstance(node, Unary):
        value, dims = _evaluate(node.operand, bound)
        return (-value if node.op == "-" else value), dims
    if isinstance(node, Binary):
        return _binary(node, bound)
    values = [_evaluate(a, bound) for a in node.args]
    dims = values[0][1]
    if any(d != dims for _, d in values):
        raise CalculationError(f"{node.function}() of figures in different units")
    numbers = [v for v, _ in values]
    if node.function == "abs":
        return abs(numbers[0]), dims
    if node.function == "avg":
        return math.fsum(numbers) / len(numbers), dims
    return (min(numbers) if node.function == "min" else max(numbers)), dims


def _is_zero(node: Expression) -> bool:
    return isinstance(node, Number) and node.value == 0


def _binary(node: Binary, bound: Mapping[Reference, Fact]) -> tuple[float, Dims]:
    (a, da), (b, db) = _evaluate(node.left, bound), _evaluate(node.right, bound)
    if node.op in ("+", "-"):
        # A literal zero (a stand-in for a line a statement does not print) has any unit.
        if _is_zero(node.left):
            da = db
        elif _is_zero(node.right):
            db = da
        if da != db:
            raise CalculationError(
                f"cannot {'add' if node.op == '+' else 'subtract'} {_unit_text(db)} "
                f"{'to' if node.op == '+' else 'from'} {_unit_text(da)} in {unparse(node)}"
            )
        return (a + b if node.op == "+" else a - b), da
    if node.op == "*":
        return a * b, _combine(da, db, 1)
    if node.op == "/":
        if b == 0:
            raise CalculationError(f"division by zero: {unparse(node.right)} is 0")
        return a / b, _combine(da, db, -1)
    # "**": the parser allows only constant exponents.
    if db or abs(b) > MAX_EXPONENT:
        raise FormulaError(f"exponent must be a plain number of at most {MAX_EXPONENT:g}")
    if da and not float(b).is_integer():
        raise CalculationError("a fractional power of a figure with a unit")
    if a < 0 and not float(b).is_integer():
        raise CalculationError(f"fractional power of a negative number in {unparse(node)}")
    if a == 0 and b < 0:
        raise CalculationError(f"division by zero in {unparse(node)}")
    return a**b, tuple((k, int(e * b)) for k, e in da)


def _combine(a: Dims, b: Dims, sign: int) -> Dims:
    exponents = dict(a)
    for key, exp in b:
        exponents[key] = exponents.get(key, 0) + sign * exp
    return tuple(sorted((k, e) for k, e in exponents.items() if e))


def _unit_text(dims: Dims) -> str:
    for name, d in _UNIT_DIMS.items():
        if d == dims and name != "%":
            return name
    if not dims:
        return "ratio"
    up = [k if e == 1 else f"{k}^{e}" for k, e in dims if e > 0]
    down = [k if e == -1 else f"{k}^{-e}" for k, e in dims if e < 0]
    return "·".join(up or ["1"]) + ("/" + "·".join(down) if down else "")


def _default_display(dims: Dims) -> str:
    if not dims:
        return "ratio"
    return "per_share" if dims == _UNIT_DIMS["USD/share"] else "amount"
