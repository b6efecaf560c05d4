"""FormulaChooser: the DSPy module that picks the formula for a metric question.

One predictor (``choose``), so ``research optimise`` can compile it; its output is checked
here, so a formula naming an unknown concept, anything that is not arithmetic, a formula of
the model's own numbers, or one about none of the line items the question names (a current
ratio for a question about dividends) comes back as an error (a refusal), never a number.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

import dspy

from calculator.choice import normalise
from calculator.concepts import CONCEPTS, SUBSTITUTES
from calculator.definitions import METRICS_BY_NAME, catalogue, metric_formulas
from calculator.errors import FormulaError
from calculator.expressions import parse_formula, references
from calculator.wording import tokenize
from signatures.formula import ChooseFormula

logger = logging.getLogger(__name__)

_FENCE = re.compile(r"^`+(?:\w+\n)?|`+$")


class FormulaChooser(dspy.Module):
    """question + available concepts -> a checked formula (or the reason there is none)."""

    def __init__(self) -> None:
        super().__init__()
        self.choose = dspy.Predict(ChooseFormula)

    def forward(self, question: str, concepts: Sequence[str] | None = None) -> dspy.Prediction:
        shown = sorted(set(concepts or ()) or set(CONCEPTS))  # the slice's, when known
        names = sorted(set(shown) | set(CONCEPTS))
        try:
            raw = self.choose(
                question=question, concepts="\n".join(shown), metrics=catalogue()
            ).formula
        except Exception as exc:  # a model failure is a refusal, recorded with its type
            logger.warning("choose_formula failed: %s", exc)
            return dspy.Prediction(
                formula=None, raw=None, error=f"model failed ({type(exc).__name__})"
            )
        formula = clean_formula(str(raw or ""))
        try:
            tree = parse_formula(formula, metrics=metric_formulas(), concepts=set(names))
        except FormulaError as exc:
            return dspy.Prediction(formula=None, raw=raw, error=str(exc))
        used = {r.concept for r in references(tree)}
        if not used:
            # Figures come from facts: a formula of the model's own numbers cites nothing.
            return dspy.Prediction(formula=None, raw=raw, error="the formula names no fact")
        named = question_concepts(question)
        if named and not used & named:
            return dspy.Prediction(
                formula=None,
                raw=raw,
                error=f"the formula uses none of the line items the question names "
                f"({', '.join(sorted(named))})",
            )
        return dspy.Prediction(formula=formula, raw=raw, error=None)


def question_concepts(question: str) -> set[str]:
    """The concepts a question's words name, metrics expanded (a DPO question names
    payables, cost of revenue and inventory); with their documented substitutes."""
    names: set[str] = set()
    for token in tokenize(normalise(question)):
        if token.kind != "term":
            continue
        if token.text in METRICS_BY_NAME:
            names |= {r.concept for r in references(parse_formula(token.text))}
        else:
            names.add(token.text)
    for _ in SUBSTITUTES:  # a stand-in may have its own (cost of revenue in gross profit)
        for concept, stand_in in SUBSTITUTES.items():
            if concept in names:
                names |= set(re.findall(r"[a-z_]+", stand_in)) & set(CONCEPTS)
    return names


def clean_formula(text: str) -> str:
    """Strip what models wrap a formula in: code fences, ``formula =``, a final period."""
    text = _FENCE.sub("", text.strip()).strip()
    text = re.sub(r"^(?:formula|answer)\s*[:=]\s*", "", text, flags=re.IGNORECASE)
    if "=" in text and "==" not in text:
        text = text.split("=", 1)[1] if re.match(r"^\s*[a-z_]+\s*=", text) else text
    return text.strip().rstrip(".").strip()
