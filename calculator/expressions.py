"""The formula language, parsed with :mod:`ast` and checked node by node; nothing is executed.

Syntax (a subset of Python expression syntax, so ``ast`` parses it, but evaluated by
:mod:`calculator.evaluation`, never by Python):

* numbers: ``365``, ``0.5``;
* ``+ - * /``, unary minus, parentheses, and ``**`` with a constant exponent (for CAGR:
  ``(revenue[FY] / revenue[FY-2]) ** (1 / 2) - 1``);
* functions ``abs(x)``, ``avg(x, y, ...)``, ``min(...)``, ``max(...)``;
* a **reference** to a fact: a concept name (``revenue``, ``capex``: the names statement
  facts carry) optionally followed by a period in brackets:
  ``revenue`` or ``revenue[FY]`` (the calculation's period), ``revenue[FY-1]`` (one fiscal
  year earlier; ``FY+1`` later), ``revenue[FY2018]`` (fiscal 2018), ``revenue[FY2023Q2]``
  (that fiscal quarter);
* a **metric** name (``operating_margin``, see :mod:`calculator.definitions`, or one the
  question defines) with an optional period, which expands to its formula with every
  relative period moved with it (``operating_margin[FY-1]``).

Anything else (attribute access, calls of other names, strings, comparisons, subscripts that
are not periods, lambdas, comprehensions) is a :class:`FormulaError` naming what was found.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from calculator.concepts import CONCEPTS
from calculator.errors import FormulaError
from calculator.periods import CURRENT, Period, PeriodRef

MAX_FORMULA_CHARS = 600
MAX_EXPANSION_DEPTH = 6
MAX_EXPONENT = 12.0
FUNCTIONS = ("abs", "avg", "min", "max")

_PERIOD_NAME = re.compile(r"^FY(?:(?P<fy>\d{4})(?:Q(?P<fq>[1-4]))?)?$", re.IGNORECASE)


@dataclass(frozen=True)
class Number:
    value: float


@dataclass(frozen=True)
class Reference:
    """One fact to look up: a concept at a period."""

    concept: str
    period: PeriodRef = CURRENT


@dataclass(frozen=True)
class Unary:
    op: str  # "-" or "+"
    operand: Expression


@dataclass(frozen=True)
class Binary:
    op: str  # "+", "-", "*", "/", "**"
    left: Expression
    right: Expression


@dataclass(frozen=True)
class Call:
    function: str  # one of FUNCTIONS
    args: tuple[Expression, ...]


Expression = Number | Reference | Unary | Binary | Call

_BINARY = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**"}
_UNARY = {ast.USub: "-", ast.UAdd: "+"}


def parse_formula(
    text: str,
    *,
    metrics: Mapping[str, str] | None = None,
    concepts: frozenset[str] | set[str] | None = None,
) -> Expression:
    """Parse ``text`` into an expression tree, metrics expanded.

    ``metrics`` maps metric names to formulas (default: the named definitions); a question's
    own definitions are passed in here and win over built-in ones of the same name.
    ``concepts`` is the set of concept names a reference may use (default: the calculator's
    table). Raises :class:`FormulaError` with a one-line reason.
    """
    if metrics is None:
        from calculator.definitions import metric_formulas

        metrics = metric_formulas()
    known = frozenset(concepts) if concepts is not None else frozenset(CONCEPTS)
    return _Parser(metrics, known).parse(text, CURRENT, depth=0)


class _Parser:
    def __init__(self, metrics: Mapping[str, str], concepts: frozenset[str]) -> None:
        self.metrics = metrics
        self.concepts = concepts

    def parse(self, text: str, at: PeriodRef, depth: int) -> Expression:
        if not isinstance(text, str) or not text.strip():
            raise FormulaError("empty formula")
        if len(text) > MAX_FORMULA_CHARS:
            raise FormulaError(f"formula longer than {MAX_FORMULA_CHARS} characters")
        if depth > MAX_EXPANSION_DEPTH:
            raise FormulaError("metric definitions nest too deeply (a metric defined by itself?)")
        try:
            with warnings.catch_warnings():  # "1e" and the like: the SyntaxError is enough
                warnings.simplefilter("ignore", SyntaxWarning)
                tree = ast.parse(text.strip(), mode="eval")
        except SyntaxError as exc:
            raise FormulaError(f"not a formula: {exc.msg} in {text.strip()!r}") from None
        return self.node(tree.body, at, depth)

    def node(self, node: ast.AST, at: PeriodRef, depth: int) -> Expression:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, int | float):
                raise FormulaError(f"only numbers may appear as constants, not {node.value!r}")
            return Number(float(node.value))
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            op = _BINARY[type(node.op)]
            left, right = self.node(node.left, at, depth), self.node(node.right, at, depth)
            if op == "**" and any(True for _ in references(right)):
                raise FormulaError("an exponent must be a constant, not a fact")
            return Binary(op, left, right)
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            return Unary(_UNARY[type(node.op)], self.node(node.operand, at, depth))
        if isinstance(node, ast.Call):
            return self.call(node, at, depth)
        if isinstance(node, ast.Name):
            return self.name(node.id, CURRENT.within(at), depth)
        if isinstance(node, ast.Subscript):
            if not isinstance(node.value, ast.Name):
                raise FormulaError("only a concept or metric name can take a [period]")
            return self.name(node.value.id, period_ref(node.slice).within(at), depth)
        raise FormulaError(f"not allowed in a formula: {describe(node)}")

    def call(self, node: ast.Call, at: PeriodRef, depth: int) -> Expression:
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
            raise FormulaError(
                f"unknown function {describe(node.func)}; allowed: {', '.join(FUNCTIONS)}"
            )
        if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            raise FormulaError(f"{node.func.id}() takes plain arguments only")
        args = tuple(self.node(a, at, depth) for a in node.args)
        if not args or (node.func.id == "abs" and len(args) != 1):
            raise FormulaError(
                f"{node.func.id}() needs "
                f"{'one argument' if node.func.id == 'abs' else 'at least one argument'}"
            )
        return Call(node.func.id, args)

    def name(self, name: str, period: PeriodRef, depth: int) -> Expression:
        if name in self.metrics:
            return self.parse(self.metrics[name], period, depth + 1)
        if name in self.concepts:
            return Reference(name, period)
        if _PERIOD_NAME.match(name):
            raise FormulaError(
                f"{name} is a period: write it in brackets after a concept, e.g. revenue[{name}]"
            )
        raise FormulaError(
            f"unknown name {name!r}; concepts: {', '.join(sorted(self.concepts))}; "
            f"metrics: {', '.join(sorted(self.metrics))}"
        )


def period_ref(node: ast.AST) -> PeriodRef:
    """The bracket of a reference: ``FY``, ``FY-1``, ``FY+1``, ``FY2018``, ``FY2023Q2``."""
    if isinstance(node, ast.Name):
        match = _PERIOD_NAME.match(node.id)
        if match:
            if match["fy"] is None:
                return CURRENT
            fq = int(match["fq"]) if match["fq"] else None
            return PeriodRef(absolute=Period(int(match["fy"]), fq))
    if (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Add | ast.Sub)
        and isinstance(node.left, ast.Name)
        and node.left.id.upper() == "FY"
        and isinstance(node.right, ast.Constant)
        and type(node.right.value) is int
        and 0 <= node.right.value <= 50
    ):
        offset = node.right.value if isinstance(node.op, ast.Add) else -node.right.value
        return PeriodRef(offset=offset)
    raise FormulaError(
        f"not a period: [{ast.unparse(node)}]; write [FY], [FY-1], [FY2018] or [FY2023Q2]"
    )


def describe(node: ast.AST) -> str:
    """A short description of a node for an error message."""
    try:
        text = ast.unparse(node)
    except Exception:  # pragma: no cover - unparse handles every node ast.parse makes
        text = type(node).__name__
    return f"{type(node).__name__.lower()} {text[:60]!r}"


def children(expression: Expression) -> tuple[Expression, ...]:
    """The operands of ``expression``, left to right (none for a number or a reference)."""
    if isinstance(expression, Unary):
        return (expression.operand,)
    if isinstance(expression, Binary):
        return (expression.left, expression.right)
    if isinstance(expression, Call):
        return expression.args
    return ()


def with_children(expression: Expression, operands: Sequence[Expression]) -> Expression:
    """``expression`` with ``operands`` in place of its own (as :func:`children` lists them)."""
    if isinstance(expression, Unary):
        return Unary(expression.op, operands[0])
    if isinstance(expression, Binary):
        return Binary(expression.op, operands[0], operands[1])
    if isinstance(expression, Call):
        return Call(expression.function, tuple(operands))
    return expression


def map_references(
    expression: Expression, replace: Callable[[Reference], Expression]
) -> Expression:
    """The tree with each reference replaced by ``replace(reference)``, left to right: the
    one walk that binding facts and splicing in stand-ins share."""
    if isinstance(expression, Reference):
        return replace(expression)
    return with_children(expression, [map_references(c, replace) for c in children(expression)])


def references(expression: Expression) -> Iterator[Reference]:
    """Every reference in the expression, left to right (repeats included)."""
    if isinstance(expression, Reference):
        yield expression
    for operand in children(expression):
        yield from references(operand)


def unparse(expression: Expression) -> str:
    """The canonical formula text of an expression (parsing it gives the same tree)."""
    if isinstance(expression, Number):
        value = expression.value
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    if isinstance(expression, Reference):
        if expression.period == CURRENT:
            return expression.concept
        return f"{expression.concept}[{expression.period.text}]"
    if isinstance(expression, Unary):
        return f"{expression.op}{_wrap(expression.operand, 3)}"
    if isinstance(expression, Binary):
        level = _LEVEL[expression.op]
        left = _wrap(expression.left, level + (1 if expression.op == "**" else 0))
        right = _wrap(expression.right, level + (0 if expression.op == "**" else 1))
        return f"{left} {expression.op} {right}"
    return f"{expression.function}({', '.join(unparse(a) for a in expression.args)})"


_LEVEL = {"+": 1, "-": 1, "*": 2, "/": 2, "**": 4}


def level(expression: Expression) -> int:
    """Binding strength: 1 for + -, 2 for * /, 3 for unary minus, 4 for **, 5 for atoms."""
    if isinstance(expression, Binary):
        return _LEVEL[expression.op]
    if isinstance(expression, Unary):
        return 3
    return 5


def _wrap(expression: Expression, needed: int) -> str:
    text = unparse(expression)
    return f"({text})" if level(expression) < needed else text
