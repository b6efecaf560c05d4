"""FormulaChooser signature: a metric question -> the formula that answers it.

The model only *chooses* what to compute; the calculator (``calculator``) reads the facts
and does the arithmetic, so a figure is right or refused whatever the model. The formula is
checked by the calculator's parser before it is used.
"""

from __future__ import annotations

import dspy


class ChooseFormula(dspy.Signature):
    """Write the calculator formula that answers a financial-metric question.

    You are the desk's analyst. Do not compute anything and do not copy numbers from the
    question: write a formula over the listed concepts and metrics, and the calculator
    reads the figures from the filing.

    Syntax: concept or metric names; an optional period in brackets (revenue[FY2021];
    revenue[FY-1] is the year before the question's year; no bracket means the question's
    year); + - * / and parentheses; ** with a constant exponent; abs(x), avg(x, y, ...),
    min(...), max(...). Outflows (capex, dividends_paid, buybacks) are printed negative:
    take abs(...) of them when the question asks how much. When the question defines the
    metric ("X is defined as ..."), write that definition, not the named metric.

    Examples (a made-up company, Contoso):
    - "What is Contoso's FY2021 operating margin?" -> operating_margin[FY2021]
    - "How much did Contoso spend on capital expenditure in FY2020?" -> abs(capex[FY2020])
    - "Contoso's FY2019 to FY2021 revenue CAGR?"
      -> (revenue[FY2021] / revenue[FY2019]) ** (1 / 2) - 1
    - "Contoso's FY2022 quick ratio, defined as (cash + receivables) / current liabilities"
      -> (cash[FY2022] + receivables[FY2022]) / current_liabilities[FY2022]
    """

    question: str = dspy.InputField(desc="the user's metric question")
    concepts: str = dspy.InputField(desc="concept names facts exist for, one per line")
    metrics: str = dspy.InputField(desc="named metrics, one per line: name = formula")
    formula: str = dspy.OutputField(desc="one formula in the syntax above, nothing else")
