"""A statement line the question names by its printed label, for items no phrase covers.

The calculator's phrases name the lines analysts compute with (revenue, capex, inventory);
a statement prints many more ("Restructuring and other charges", "Stock-based
compensation", "Goodwill"), and a question may ask for one of them: "How much restructuring
charge did Intel record in FY2022?" went to the agents, who wrote about the annulled EC fine
and stated no figure, while the release's income statement prints the line ($2 million).

A line answers the question when their words agree both ways: every word of the label is
in the question, and every word the question asks about is in the label, beside the words
a question adds to a line's name ("expense", "charge"). Words that name nothing of the
line are left out of both first: the company (a word written with a capital, a
possessive), the period, the question's own verbs and fillers ("how much … did …
record"), and joining words ("and", "total", "and other"). Words are read in the
singular. Only lines of the three primary statements that no concept already names are
read, so this never overrides a figure the phrases would give; none matches, or several
labels do: no figure.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from calculator.choice import FormulaChoice, Presentation
from calculator.concepts import CONCEPTS, ConceptInfo
from calculator.resolution import FactResolver
from domain.periods import Period
from retrieval.facts.model import Fact

#: Where the question's ask starts: the amount it wants, or whether there was any ("Did
#: Boston Properties record any impairment loss in FY2015?": its line's figure answers).
_ASKED = re.compile(
    r"\b(?:how\s+much|what\s+(?:is|was|were|are)|what's)\b"
    r"|^\W*(?:did|does|do|has|have|had)\b(?=[^?]*\bany\b)",
    re.IGNORECASE,
)
#: Statements whose lines a question may name (a comprehensive-income or equity statement
#: repeats them by other names).
_PRIMARY = frozenset({"income", "balance", "cash_flow"})
_WORD = re.compile(r"[A-Za-z][A-Za-z&'’-]*")
#: Words that say nothing of which line: joining words, the question's verbs and fillers,
#: periods and scale.
_NEUTRAL = frozenset(
    """
    a an any and or of in on at for to from by with as its their our the total net
    amount value figure balance sum much many how what is was were are did does do has have
    had company record recorded report reported recognize recognized recognise recognised
    incur incurred book booked carry carried hold held pay paid spend spent end year
    fiscal quarter ended ending during usd million billion dollar approximately roughly
    about fy year-end
    """.split()
)
#: Words a question adds to a line's name: "restructuring charge" is the line
#: "Restructuring and other charges", "stock-based compensation expense" the line
#: "Stock-based compensation".
_ADDED = frozenset({"expense", "charge", "cost", "line", "item"})
_PERIOD_WORD = re.compile(r"^(?:fy\d{2,4}|q[1-4]|h[12]|\d+)$")


def _singular(word: str) -> str:
    if word.endswith("sses"):  # "losses", "businesses"
        return word[:-2]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def _words(text: str, drop_names: bool = False) -> frozenset[str]:
    """``text``'s words that may name a line, lower-cased and singular; with
    ``drop_names``, without words written with a capital (a company: "Intel", "eBay",
    "PG&E") and possessives. "And other" joins a line's name to what else it holds
    ("Restructuring and other charges"); "other" alone is a line of its own ("Other
    income")."""
    found = set()
    text = re.sub(r",?\s+and\s+other\b", " ", text, flags=re.IGNORECASE)
    for match in _WORD.finditer(text.replace("-", " ")):
        word = match.group()
        if drop_names and (not word.islower() or re.search(r"['’]s$", word)):
            continue
        lowered = word.lower().strip("'’")
        if lowered in _NEUTRAL or _PERIOD_WORD.match(lowered):
            continue
        found.add(_singular(lowered))
    return frozenset(found)


def asked_words(question: str) -> frozenset[str]:
    """The words of what ``question`` asks an amount of; empty when it asks no amount."""
    start = _ASKED.search(question)
    if start is None:
        return frozenset()
    clause = question[start.end() :].split("?")[0]
    clause = re.sub(r"\b(?:FY|fiscal\s+(?:year\s+)?)\s*'?\d{2,4}\b", " ", clause, flags=re.I)
    return _words(clause, drop_names=True)


def line_concept(label: str, statement: str) -> ConceptInfo:
    """The concept a labelled line is read as: a balance on the balance sheet, else a flow."""
    name = "_".join(re.findall(r"[a-z]+", label.lower())) or "line"
    kind = "balance" if statement == "balance" else "flow"
    return ConceptInfo(name, label.strip().lower(), statement, kind)


def read_line(question: str, facts: Sequence[Fact]) -> tuple[ConceptInfo, list[Fact]] | None:
    """The line ``question`` names by its label, and its facts read as that concept; None
    when no line, or lines of more than one label, match (see the module's docstring)."""
    asked = asked_words(question)
    if not asked:
        return None
    matching: dict[frozenset[str], list[Fact]] = {}
    for fact in facts:
        if fact.concept is not None or fact.statement not in _PRIMARY or fact.unit != "USD":
            continue
        words = _words(fact.label)
        if words and words <= asked and asked <= words | _ADDED:
            matching.setdefault(words, []).append(fact)
    if len(matching) != 1:
        return None
    ((_, found),) = matching.items()
    info = line_concept(found[0].label, found[0].statement)
    if info.name in CONCEPTS:
        return None
    return info, [dataclasses.replace(f, concept=info.name) for f in found]


def line_choice(
    question: str, facts: Sequence[Fact], period: Period
) -> tuple[FormulaChoice, FactResolver] | None:
    """The formula of the line ``question`` names by its label, at ``period``, and the
    resolver that reads it; None when no line answers (:func:`read_line`)."""
    line = read_line(question, facts)
    if line is None:
        return None
    info, read = line
    title = info.title[:1].upper() + info.title[1:]
    choice = FormulaChoice(info.name, period, title, Presentation("amount"), how="label")
    return choice, FactResolver(read, lines={info.name: info})
