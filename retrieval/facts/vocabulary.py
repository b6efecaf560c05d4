"""The concept vocabulary: which printed row labels mean which canonical concept.

The labels live in ``concepts.toml`` beside this module (data, not code): for each
concept its statements, its unit, exact labels and regular-expression patterns, matched
against a normalised label (lower case, ``&`` as ``and``, footnote marks and trailing
colons dropped). Exact labels win over patterns; a concept only applies on its own
statements and in its own unit, so "Net income" at the top of a cash-flow statement is
not the income statement's net income.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from retrieval.facts.model import STATEMENTS, UNITS

VOCABULARY_FILE = Path(__file__).with_name("concepts.toml")

_LOSS = re.compile(r"\s*/?\s*\((?:loss|losses|deficit)\)\s*/?\s*")
_FOOTNOTES = re.compile(r"\((?:[a-z]|\d{1,2}|notes? [^)]*)\)|\*+|\u2020|\u2021")


@dataclass(frozen=True)
class Concept:
    name: str
    description: str
    statements: tuple[str, ...]
    unit: str
    labels: frozenset[str]
    asked_as: frozenset[str]  # how people name it ("operating cash flow"), not how filings print it
    patterns: tuple[re.Pattern[str], ...]
    exclude: tuple[re.Pattern[str], ...]


def normalise_label(label: str) -> str:
    """``Selling, general & administrative expenses (a):`` -> ``selling, general and
    administrative expenses``; ``Net (loss)/earnings`` -> ``net earnings`` (the sign is in
    the value, not the label)."""
    text = _FOOTNOTES.sub(" ", label.lower().replace("’", "'").replace("&", " and "))
    text = _LOSS.sub(" ", text)  # "Net (loss)/earnings" and "Income/(loss)" read as gains
    text = re.sub(r"\s+", " ", text).strip(" :;,.")
    return text


@cache
def vocabulary(path: Path = VOCABULARY_FILE) -> tuple[Concept, ...]:
    """The concepts of a vocabulary file, in file order; ValueError if it is malformed."""
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    concepts = []
    for name, entry in data.items():
        statements = tuple(entry.get("statements", ()))
        unit = entry.get("unit", "USD")
        bad = [s for s in statements if s not in STATEMENTS]
        if not statements or bad or unit not in UNITS:
            raise ValueError(f"{path}: concept {name!r} has bad statements {bad} or unit {unit!r}")
        concepts.append(
            Concept(
                name=name,
                description=entry.get("description", ""),
                statements=statements,
                unit=unit,
                labels=frozenset(normalise_label(x) for x in entry.get("labels", ())),
                asked_as=frozenset(normalise_label(x) for x in entry.get("asked_as", ())),
                patterns=tuple(re.compile(p) for p in entry.get("patterns", ())),
                exclude=tuple(re.compile(p) for p in entry.get("exclude", ())),
            )
        )
    return tuple(concepts)


def concept_names() -> tuple[str, ...]:
    return tuple(c.name for c in vocabulary())


def concept_named(words: str) -> str | None:
    """The concept ``words`` name: its own name (``operating_income``), a name people use
    for it (``operating cash flow`` is ``cfo``), or a label filings print for it."""
    text = normalise_label(words.replace("_", " "))
    for concept in vocabulary():
        if text in (concept.name.replace("_", " "), concept.name) or text in concept.asked_as:
            return concept.name
    return next((c.name for c in vocabulary() if text in c.labels), None)


def concept_for(label: str, statement: str, unit: str) -> str | None:
    """The concept a normalised row label means on ``statement`` in ``unit``, if any."""
    fitting = [c for c in vocabulary() if statement in c.statements and c.unit == unit]
    for concept in fitting:
        if label in concept.labels:
            return concept.name
    for concept in fitting:
        if any(p.search(label) for p in concept.patterns) and not any(
            x.search(label) for x in concept.exclude
        ):
            return concept.name
    return None


#: Debt rows a balance sheet names by their place alone: Apple prints "Term debt" among its
#: current liabilities and again among its non-current ones, Adobe "Debt and capital lease
#: obligations", AES "Recourse debt" and "Non-recourse debt, including $163 … related to
#: variable interest entities".
_SECTION_DEBT = re.compile(
    r"^(?:term\s+debt|debt|borrowings|debt\s+and\s+(?:capital|finance)\s+lease\s+obligations"
    r"|(?:non-?)?recourse\s+debt)(?:,\s+including\b.*|\s*\([^)]*\))?$"
)
#: Borrowings a balance sheet lists by instrument, with no debt line of its own: Boston
#: Properties' "Mortgage notes payable", "Unsecured senior notes (net of discount …)",
#: "Unsecured line of credit", "Mezzanine notes payable". A balance sheet that does not
#: class its liabilities as current or not (a REIT's) lists them after total assets, and
#: they are its long-term debt there.
_INSTRUMENT_DEBT = re.compile(
    r"^(?:(?:mortgage|mezzanine|unsecured|secured|senior|convertible|subordinated"
    r"|outside\s+members')\s+(?:[\w']+\s+){0,2}?(?:notes|loans?|debentures|bonds)\b(?!\s+receivable)"
    r"|unsecured\s+(?:revolving\s+)?(?:line\s+of\s+credit|credit\s+facilit(?:y|ies)|term\s+loans?))"
)
#: Securities a balance sheet holds for sale within the year under a name of their own:
#: Intel's "Trading assets" beside its "Short-term investments". Among current items they
#: are short-term investments (quick assets); on a bank's unclassified sheet they are its
#: trading book, no concept here.
_CURRENT_SECURITIES = re.compile(r"^trading\s+(?:assets|securities)\b")
#: Concepts that are current by definition: a row of that name under a non-current heading
#: (Apple's non-current "Marketable securities") is not one.
_CURRENT_ONLY = frozenset({"short_term_debt", "short_term_investments"})


def concept_in_section(
    concept: str | None,
    label: str,
    section: str,
    non_current_heading: bool,
    after_assets: bool = False,
) -> str | None:
    """``concept`` (the label's) as the row's place on a balance sheet reads it: a bare debt
    label is short-term debt among current items and long-term debt among non-current ones
    (``section``: ``current``, ``non_current`` or empty where unknown); a borrowing named by
    its instrument among the liabilities (``after_assets``: the row stands after total
    assets) is read so too, and as long-term debt where they are not classed; trading
    securities among current items are short-term investments; and a current-only
    concept under a heading that says non-current (``non_current_heading``) is none."""
    name = normalise_label(label)
    if _SECTION_DEBT.match(name) and section:
        return "long_term_debt" if section == "non_current" else "short_term_debt"
    if concept is None and section == "current" and _CURRENT_SECURITIES.match(name):
        return "short_term_investments"
    if concept is None and after_assets and _INSTRUMENT_DEBT.match(name):
        return "short_term_debt" if section == "current" else "long_term_debt"
    return None if non_current_heading and concept in _CURRENT_ONLY else concept
