"""Showing a fact the way the filing prints it: ``-1,577 million USD``, ``FY2018``."""

from __future__ import annotations

from dataclasses import asdict

from retrieval.facts.model import Fact

_SCALES = ((1e9, "billion"), (1e6, "million"), (1e3, "thousand"))


def printed_value(fact: Fact) -> str:
    """The value in the largest scale that shows it exactly (to one decimal), with its unit.

    Facts are stored in base units; this recovers the statement's own scale for reading
    (``-1_577_000_000.0`` USD -> ``-1,577 million USD``).
    """
    value = fact.value
    if fact.unit in ("USD", "shares") and value:
        for factor, word in _SCALES[1:]:
            scaled = value / factor
            if abs(scaled) >= 1 and abs(round(scaled, 1) - scaled) < 1e-6:
                shown = f"{scaled:,.1f}".removesuffix(".0")
                return f"{shown} {word} {fact.unit}"
    if fact.unit == "USD/share":
        return f"{value:,.2f} {fact.unit}"
    shown = f"{value:,.2f}".removesuffix(".00")
    return f"{shown} {fact.unit}" if fact.unit != "%" else f"{shown}%"


def period_text(fact: Fact) -> str:
    """``FY2018``, ``FY2023 Q2``, ``FY2023 Q2 YTD``, ``FY2018 year-end``, ``FY2023 Q2 end``."""
    label = fact.period_label
    if fact.duration == "ytd":
        return f"{label} YTD"
    if fact.duration == "instant":
        return f"{label} year-end" if fact.fq is None else f"{label} end"
    return label


def fact_record(fact: Fact) -> dict:
    """Every field of a fact plus its period and printed value, for JSON output."""
    return {**asdict(fact), "period": period_text(fact), "printed": printed_value(fact)}
