"""A computed figure and everything needed to cite and explain it.

``inputs`` are the exact facts the value was computed from; their pages' uids are its
citations. ``render`` prints the formula once, Notes style, with each input's citation
marker: ``Operating margin = operating income¹ ÷ revenue²``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from calculator.concepts import concept_info
from calculator.expressions import Binary, Expression, Number, Reference, Unary, level
from citations.markup import Citation, render_marker
from domain.periods import Period
from retrieval.facts.model import Fact
from textnorm.casing import lower_first

_SYMBOLS = {"+": "+", "-": "−", "*": "×", "/": "÷", "**": "^"}


def fact_citation(fact: Fact) -> Citation:
    """A statement fact is cited by the page it was printed on."""
    return Citation(
        uid=fact.uid, doc_label=fact.doc_label, page_index=fact.page_index, page_id=fact.page_id
    )


_WORDS = re.compile(r"[a-z&]+")
#: A row label's aside in parentheses, one level nested: "(includes $10.31 billion … related
#: to VIEs at respective dates)", "(loss)", "(Note 7)". It qualifies the row; it is not its name.
_ASIDE = re.compile(r"\s*\((?:[^()]|\([^()]*\))*\)")


#: How a note says an input the statements do not print was read as 0.
NONE_PRINTED = "none printed, read as 0"


@dataclass(frozen=True)
class Calculation:
    title: str  # "Operating margin"
    formula: str  # the formula as chosen: "operating_margin" or "capex[FY2018] / revenue"
    expanded: str  # every metric expanded, every period absolute
    period: Period
    value: float
    unit: str  # "ratio" (dimensionless), "USD", "USD/share", "shares", "days", ...
    display: str  # "percent" | "ratio" | "amount" | "days" | "per_share"
    inputs: tuple[Fact, ...]
    bound: Mapping[Reference, Fact] = field(repr=False, compare=False)
    expression: Expression = field(repr=False, compare=False)
    notes: tuple[str, ...] = ()

    @property
    def citations(self) -> tuple[str, ...]:
        """The page uids the figure cites: its inputs' pages, in order of first use."""
        return tuple(dict.fromkeys(f.uid for f in self.inputs))

    def render(self, numbers: Mapping[str, int] | None = None) -> str:
        """``Operating margin = operating income¹ ÷ revenue²``.

        ``numbers`` maps a page uid to its citation number in the report; by default the
        inputs' pages are numbered 1, 2, ... in order of first use.
        """
        numbering = numbers or {uid: n for n, uid in enumerate(self.citations, 1)}

        def leaf(ref: Reference) -> str:
            fact = self.bound[ref]
            name = concept_info(ref.concept).title
            period = ref.period.resolve(self.period)
            when = "" if period == self.period else f" {period.label}"
            number = numbering.get(fact.uid)
            return f"{name}{when}{render_marker([number]) if number else ''}"

        return f"{self.title} = {render_expression(self.expression, leaf)}"

    def formula_line(self) -> str:
        """The report's Formulas line: :meth:`render`, then the inputs read as 0 ("Quick
        ratio = (cash¹ + 0 + 0) ÷ current liabilities¹; receivables FY2021: none printed,
        read as 0"), since a bare 0 does not say which input is not printed. Another
        stand-in needs no note here: its own inputs are rendered by name."""
        zeros = [note for note in self.notes if note.endswith(NONE_PRINTED)]
        return "; ".join([self.render(), *zeros])

    def printed_as(self) -> str:
        """`` (purchases of property, plant and equipment)``: the row label a single input
        was printed under, so a reader sees which line the figure is, without its asides
        in parentheses (PG&E's "Long-term debt (includes $10.31 billion and $1.82 billion
        related to VIEs at respective dates)" is its long-term debt); nothing where the
        label only rewords the title ("Cash and cash equivalents" for "Cash and
        equivalents", "Capital expenditures" for "Capital expenditure") or there are several
        inputs."""
        if len(self.inputs) != 1:
            return ""
        label = _ASIDE.sub("", self.inputs[0].label).strip().rstrip(":").strip()
        words = [
            {w.rstrip("s") for w in _WORDS.findall(text.lower())} for text in (label, self.title)
        ]
        if not label or words[0] == words[1]:
            return ""
        return f" ({lower_first(label)})"

    def input_lines(self) -> list[str]:
        """One line per input: what was read, where, as printed and in base units."""
        return [
            f"{f.concept} {f.period_label}: {f.value:,.0f} {f.unit} "
            f"({f.label!r}, {f.doc_label} p.{f.page_index + 1}, uid {f.uid})"
            if f.unit == "USD"
            else f"{f.concept} {f.period_label}: {f.value:g} {f.unit} "
            f"({f.label!r}, {f.doc_label} p.{f.page_index + 1}, uid {f.uid})"
            for f in self.inputs
        ]


def render_expression(expression: Expression, leaf: Callable[[Reference], str]) -> str:
    """The expression in reading notation (``÷``, ``×``, ``−``, ``|x|``, ``average(...)``)."""

    def wrap(node: Expression, needed: int) -> str:
        text = render(node)
        return f"({text})" if level(node) < needed else text

    def render(node: Expression) -> str:
        if isinstance(node, Number):
            return f"{node.value:g}"
        if isinstance(node, Reference):
            return leaf(node)
        if isinstance(node, Unary):
            return ("−" if node.op == "-" else "+") + wrap(node.operand, 3)
        if isinstance(node, Binary):
            lvl = level(node)
            left = wrap(node.left, lvl + (1 if node.op == "**" else 0))
            right = wrap(node.right, lvl + (0 if node.op == "**" else 1))
            return f"{left} {_SYMBOLS[node.op]} {right}"
        if node.function == "abs":
            return f"|{render(node.args[0])}|"
        name = "average" if node.function == "avg" else node.function
        return f"{name}({', '.join(render(a) for a in node.args)})"

    return render(expression)
