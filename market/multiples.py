"""Valuation multiples: a price from a series divided by (or into) statement facts.

Each multiple keeps both kinds of input and where each came from (the price: provider and
date; a fact: its filing page and period), so it can be cited like any computed figure.
Facts are chosen by the calculator's :class:`~calculator.resolution.FactResolver` (home
statement first, the fiscal year's own 10-K first, earliest page), the same choice
``research ask`` makes. A multiple whose fact is missing, or whose denominator is not
positive, is absent with a one-line reason: never estimated.

Definitions (FY is the latest fiscal year with statement facts before the price's calendar
year, so the statements were public, or nearly, at the price date):

* P/E = price / diluted EPS (FY);
* P/B = price x diluted weighted-average shares (FY) / shareholders' equity (FY year-end);
* EV/EBITDA = (price x diluted shares + short-term debt + long-term debt - cash) /
  (operating income + depreciation and amortisation), balances at FY year-end, flows for FY.

Diluted weighted-average shares stand in for shares outstanding, which the statement facts
do not carry; the docs say so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from calculator.resolution import FactResolver
from domain.periods import Period
from market.sources import FactSource, PriceSource
from retrieval.facts.display import period_text
from retrieval.facts.model import Fact

#: The facts each multiple needs, by concept name (``retrieval/facts/concepts.toml``).
NEEDS = {
    "pe": ("diluted_eps",),
    "pb": ("diluted_shares", "equity"),
    "ev_ebitda": (
        "diluted_shares",
        "short_term_debt",
        "long_term_debt",
        "cash",
        "operating_income",
        "dna",
    ),
}
LABELS = {"pe": "P/E", "pb": "P/B", "ev_ebitda": "EV/EBITDA"}
FORMULAS = {
    "pe": "price / diluted EPS",
    "pb": "price x diluted shares / equity",
    "ev_ebitda": "(price x diluted shares + short-term debt + long-term debt - cash) "
    "/ (operating income + D&A)",
}


@dataclass(frozen=True)
class MultipleInput:
    """One input of a multiple: its value and unit, and what it cites."""

    name: str  # "price", "diluted_eps", ...
    value: float
    unit: str  # "USD", "USD/share", "shares"
    source: PriceSource | FactSource


@dataclass(frozen=True)
class Multiple:
    """A valuation multiple, or its absence: ``value`` is ``None`` and ``reason`` says why."""

    key: str  # "pe" | "pb" | "ev_ebitda"
    label: str
    formula: str
    value: float | None
    inputs: tuple[MultipleInput, ...]
    fiscal_year: int | None
    reason: str | None = None


def statement_year(facts: Sequence[Fact], before_year: int) -> int | None:
    """The latest fiscal year before ``before_year`` with full-year or year-end facts of a
    concept some multiple needs."""
    wanted = {c for names in NEEDS.values() for c in names}
    years = [f.fy for f in facts if f.concept in wanted and f.fq is None and f.fy < before_year]
    return max(years) if years else None


def valuation_multiples(
    price: float, price_source: PriceSource, facts: Sequence[Fact], ticker: str
) -> list[Multiple]:
    """P/E, P/B and EV/EBITDA of ``ticker`` at ``price``, from ``facts`` (the ticker's
    statement facts, any documents); each absent with a reason where it cannot be had."""
    facts = [f for f in facts if f.ticker == ticker]
    year = statement_year(facts, price_source.as_of.year)
    if year is None:
        why = (
            f"the grid has no statement facts for {ticker}"
            if not facts
            else f"the grid has no {ticker} full-year facts before {price_source.as_of.year}"
        )
        return [Multiple(k, LABELS[k], FORMULAS[k], None, (), None, why) for k in NEEDS]
    own = next((f.doc_name for f in facts if f.doc_label == f"{ticker} 10-K FY{year}"), None)
    resolver = FactResolver(facts, own)
    period = Period(year)
    price_input = MultipleInput("price", price, "USD/share", price_source)
    return [
        _multiple(key, resolver, period, price_input)
        for key in ("pe", "pb", "ev_ebitda")  # the order a table shows them
    ]


def _multiple(key: str, resolver: FactResolver, period: Period, price: MultipleInput) -> Multiple:
    picked: dict[str, Fact] = {}
    missing: list[str] = []
    for concept in NEEDS[key]:
        fact = resolver.pick(concept, period)
        if fact is None:
            missing.append(resolver.missing_reason(concept, period))
        else:
            picked[concept] = fact
    inputs = (price, *(_fact_input(f) for f in picked.values()))
    absent = Multiple(key, LABELS[key], FORMULAS[key], None, inputs, period.fy)
    if missing:
        return _with_reason(absent, "missing " + "; ".join(missing))
    v = {concept: fact.value for concept, fact in picked.items()}
    p = price.value
    if key == "pe":
        numerator, denominator, what = p, v["diluted_eps"], "diluted EPS"
    elif key == "pb":
        numerator, denominator, what = p * v["diluted_shares"], v["equity"], "equity"
    else:
        numerator = p * v["diluted_shares"] + v["short_term_debt"] + v["long_term_debt"] - v["cash"]
        denominator, what = v["operating_income"] + v["dna"], "EBITDA"
    if denominator <= 0:
        return _with_reason(absent, f"not meaningful: {what} FY{period.fy} is not positive")
    return Multiple(key, LABELS[key], FORMULAS[key], numerator / denominator, inputs, period.fy)


def _with_reason(multiple: Multiple, reason: str) -> Multiple:
    return Multiple(
        multiple.key,
        multiple.label,
        multiple.formula,
        None,
        multiple.inputs,
        multiple.fiscal_year,
        reason,
    )


def _fact_input(fact: Fact) -> MultipleInput:
    source = FactSource(fact.uid, fact.doc_label, fact.page_index, period_text(fact))
    return MultipleInput(fact.concept or fact.label, fact.value, fact.unit, source)
