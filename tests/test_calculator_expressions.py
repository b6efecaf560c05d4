"""The formula language: what parses, what is refused, and that nothing is ever executed."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calculator.errors import FormulaError
from calculator.expressions import (
    Binary,
    Call,
    Number,
    Reference,
    Unary,
    parse_formula,
    references,
    unparse,
)
from calculator.periods import PeriodRef
from domain.periods import Period


def test_references_and_periods():
    tree = parse_formula("(revenue[FY] - revenue[FY-1]) / revenue[FY-1]")
    assert [r.period for r in references(tree)] == [
        PeriodRef(),
        PeriodRef(offset=-1),
        PeriodRef(offset=-1),
    ]
    ref = parse_formula("capex[FY2018]")
    assert ref == Reference("capex", PeriodRef(absolute=Period(2018)))
    assert parse_formula("revenue[FY2023Q2]") == Reference(
        "revenue", PeriodRef(absolute=Period(2023, 2))
    )


def test_metric_expands_with_its_periods_moved():
    tree = parse_formula("operating_margin[FY-1]")
    assert unparse(tree) == "operating_income[FY-1] / revenue[FY-1]"
    tree = parse_formula("asset_turnover[FY2019]")
    assert unparse(tree) == "revenue[FY2019] / avg(total_assets[FY2019], total_assets[FY2018])"


def test_question_definition_wins_over_named_metric():
    tree = parse_formula("dpo", metrics={"dpo": "365 * payables / cost_of_revenue"})
    assert unparse(tree) == "365 * payables / cost_of_revenue"


@pytest.mark.parametrize(
    ("formula", "message"),
    [
        ("__import__('os').system('true')", "unknown function"),
        ("revenue.real", "not allowed"),
        ("'revenue'", "only numbers"),
        ("revenue > 1", "not allowed"),
        ("lambda: 1", "not allowed"),
        ("[revenue for revenue in x]", "not allowed"),
        ("revenue[1]", "not a period"),
        ("revenue[FY2018:FY2019]", "not a period"),
        ("profit", "unknown name 'profit'"),
        ("FY2018", "is a period"),
        ("avg()", "at least one"),
        ("abs(revenue, capex)", "needs one"),
        ("max(x=revenue)", "plain arguments"),
        ("revenue ** capex", "exponent must be a constant"),
        ("revenue +", "not a formula"),
        ("", "empty formula"),
        ("revenue + " * 200 + "1", "longer than"),
        ("loop", "unknown name"),
    ],
)
def test_refused_with_a_clear_message(formula, message):
    with pytest.raises(FormulaError, match=message):
        parse_formula(formula, metrics={"loop": "loop + 1"} if formula != "loop" else {})


def test_self_referencing_metric_is_refused():
    with pytest.raises(FormulaError, match="nest too deeply"):
        parse_formula("loop", metrics={"loop": "loop + 1"})


def test_nothing_is_executed(tmp_path: Path):
    target = tmp_path / "touched"
    for formula in (
        f"open({str(target)!r}, 'w')",
        f"__import__('pathlib').Path({str(target)!r}).touch()",
        f"(lambda: open({str(target)!r}, 'w'))()",
    ):
        with pytest.raises(FormulaError):
            parse_formula(formula)
    assert not target.exists()


_ALLOWED = (Number, Reference, Unary, Binary, Call)


def _nodes(tree):
    yield tree
    if isinstance(tree, Unary):
        yield from _nodes(tree.operand)
    elif isinstance(tree, Binary):
        yield from _nodes(tree.left)
        yield from _nodes(tree.right)
    elif isinstance(tree, Call):
        for arg in tree.args:
            yield from _nodes(arg)


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(list("revnuapxcit_[]()FY-+*/.,'\"0123456789 abslmgopqdwz:=<>")),
        max_size=60,
    )
)
def test_any_text_is_arithmetic_or_refused(text):
    """Whatever the text, the result is a tree of arithmetic nodes or a FormulaError."""
    try:
        tree = parse_formula(text)
    except FormulaError:
        return
    assert all(isinstance(node, _ALLOWED) for node in _nodes(tree))
    for node in _nodes(tree):
        if isinstance(node, Call):
            assert node.function in ("abs", "avg", "min", "max")


_CONCEPTS = ["revenue", "capex", "cfo", "total_assets"]
_PERIODS = st.one_of(
    st.just(PeriodRef()),
    st.integers(-3, 3).map(lambda n: PeriodRef(offset=n)),
    st.integers(2015, 2024).map(lambda y: PeriodRef(absolute=Period(y))),
)
_LEAVES = st.one_of(
    st.integers(0, 400).map(lambda n: Number(float(n))),
    st.builds(Reference, st.sampled_from(_CONCEPTS), _PERIODS),
)
_TREES = st.recursive(
    _LEAVES,
    lambda inner: st.one_of(
        st.builds(Binary, st.sampled_from(["+", "-", "*", "/"]), inner, inner),
        st.builds(Unary, st.just("-"), inner),
        st.builds(Call, st.sampled_from(["avg", "min", "max"]), st.tuples(inner, inner)),
        st.builds(lambda x: Call("abs", (x,)), inner),
    ),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(_TREES)
def test_unparse_round_trips(tree):
    assert parse_formula(unparse(tree)) == tree
