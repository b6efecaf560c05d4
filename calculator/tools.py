"""The agents' number tools, locked to one slice: statement facts and a calculator that cites.

``wissen_statement_facts`` lists the facts the slice's filings print for a concept or a row
label; ``wissen_calculate`` computes a formula over them. Both answer from the slice's facts
only (the lock is the fact list itself), and every page a fact comes from is recorded as
retrieved, so a draft citing it passes citation verification like a searched page.
The model chooses what to compute; it never copies a digit or does a sum.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from calculator.answers import format_value
from calculator.choice import presentation_for
from calculator.errors import CalculationError
from calculator.evaluation import calculate
from domain.periods import Period
from retrieval.facts.display import printed_value
from retrieval.facts.model import Fact
from retrieval.facts.vocabulary import concept_named

MAX_FACTS = 12

PageRecorder = Callable[[Sequence[str]], None]


def _fact_row(fact: Fact) -> dict[str, Any]:
    return {
        "concept": fact.concept,
        "label": fact.label,
        "period": fact.period_label,
        "value": fact.value,
        "unit": fact.unit,
        "printed": printed_value(fact),
        "uid": fact.uid,
        "doc_label": fact.doc_label,
        "page": fact.page_index + 1,
    }


class FactTools:
    """One slice's statement facts as two tools; ``record`` marks their pages as retrieved."""

    def __init__(
        self,
        facts: Sequence[Fact] = (),
        period: Period | None = None,
        record: PageRecorder | None = None,
    ) -> None:
        self.facts = list(facts)
        self.period = period
        self.record = record or (lambda uids: None)
        #: Every value :meth:`calculate` returned: a draft may state them, though no page does.
        self.computed: list[float] = []

    def statement_facts(self, concept_or_label: str, periods: str = "") -> list[dict] | str:
        """Facts whose concept is ``concept_or_label`` or whose row label contains it."""
        wanted = str(concept_or_label or "").strip().lower()
        if not wanted:
            return "Name a concept (e.g. capex, revenue, net_income) or a row label."
        period_words = {p.strip().upper() for p in str(periods or "").split(",") if p.strip()}
        in_period = [
            f
            for f in self.facts
            if not period_words or f.period_label.replace(" ", "") in period_words
        ]
        # Words that name a concept mean that concept ("operating cash flow" is cfo, not a
        # lease table's "operating cash flows from operating leases"); other words are
        # looked for in row labels.
        concept = concept_named(wanted)
        words = wanted.replace("_", " ")
        found = [f for f in in_period if concept and f.concept == concept] or [
            f for f in in_period if words in f.label.lower()
        ]
        found = found[:MAX_FACTS]
        if not found:
            concepts = sorted({f.concept for f in self.facts if f.concept})
            return (
                f"No statement fact matches {concept_or_label!r} in this slice. Concepts it "
                f"holds: {', '.join(concepts) or 'none'}."
            )
        self.record([f.uid for f in found])
        return [_fact_row(f) for f in found]

    def calculate(self, formula: str) -> dict | str:
        """``formula`` over the slice's facts: the value, how it was computed, what to cite."""
        if self.period is None:
            return "No period to compute for."
        try:
            result = calculate(str(formula), self.facts, self.period)
        except CalculationError as exc:
            return f"Cannot compute {formula!r}: {exc}"
        self.record(list(result.citations))
        self.computed.append(result.value)
        return {
            "value": format_value(result, presentation_for("", str(formula))),
            "formula": result.render(),
            "cite_uids": list(result.citations),
            "inputs": result.input_lines(),
        }

    def as_functions(self) -> list[Callable[..., Any]]:
        """Plain functions with the tools' public names, for DSPy's tool calling."""

        def wissen_statement_facts(concept_or_label: str, periods: str = "") -> list[dict] | str:
            """Numbers from the slice's financial statements, read by code at ingest.

            `concept_or_label`: a concept such as capex, revenue, operating_income,
            net_income, cfo, total_assets, diluted_eps, a common name for one ("operating
            cash flow"), or words of a row label. `periods`:
            optional, e.g. "FY2031" or "FY2031,FY2030". Each fact shows its period, its
            value as the statement prints it, and the hit number of its page to cite.
            """
            return self.statement_facts(concept_or_label, periods)

        def wissen_calculate(formula: str) -> dict | str:
            """Compute a formula over the slice's statement facts; never do sums yourself.

            Examples: "operating_margin", "capex / revenue", "revenue / revenue[FY-1] - 1",
            "avg(total_assets, total_assets[FY-1])". Returns the value as stated, the
            formula, and the hit numbers of its inputs' pages to cite.
            """
            return self.calculate(formula)

        return [wissen_statement_facts, wissen_calculate]
