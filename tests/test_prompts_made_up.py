"""No hand-written prompt carries a real figure: a model that copies an example must not copy
a real answer (a researcher once searched for its own instructions' capex example)."""

from __future__ import annotations

import re

from programs.baseline import SingleCallBaseline
from programs.formula import FormulaChooser
from programs.research_program import ResearchProgram
from retrieval.store import GridFilter

# A figure in an example: a dollar amount, an amount in millions/billions, or a cited number.
_NUMBER = re.compile(
    r"\$\s?(\d[\d,]*(?:\.\d+)?)|(\d[\d,]*(?:\.\d+)?)(?=\s?(?:million|billion|[¹²³⁴⁵⁶⁷⁸⁹]))"
)


def _prompt_texts(module) -> list[str]:
    texts = []
    for _, predictor in module.named_predictors():
        signature = predictor.signature
        texts.append(signature.instructions)
        for field in signature.fields.values():
            extra = field.json_schema_extra or {}
            texts.append(str(extra.get("desc", "")))
            texts.append(str(field.description or ""))
    return texts


def _printed(value: float) -> set[float]:
    """A fact's value as a filing could print it: in units, thousands or millions."""
    return {round(abs(value) / scale, 2) for scale in (1, 1e3, 1e6)}


def test_no_instruction_or_example_carries_a_real_figure(searcher, sample_store) -> None:
    texts = _prompt_texts(ResearchProgram(searcher))
    texts += _prompt_texts(SingleCallBaseline()) + _prompt_texts(FormulaChooser())
    numbers = {
        float((dollars or amount).replace(",", ""))
        for text in texts
        for dollars, amount in _NUMBER.findall(text)
    }
    assert numbers  # the prompts do carry example figures, and each is checked
    real: set[float] = set()
    for cell in sample_store.cells():
        for fact in sample_store.facts(GridFilter(cell.ticker, cell.fy, cell.fq)):
            if fact.unit == "USD" and abs(fact.value) >= 1e5:
                real |= _printed(fact.value)
    clashes = sorted(n for n in numbers if n in real)
    assert not clashes, f"prompt numbers printed in the sample filings: {clashes}"
    assert len(real) > 1000  # the check has something to check against
