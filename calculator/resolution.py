"""Which fact a reference means: deterministic, explainable choice among a slice's facts.

A slice's documents print the same number in several places (the statement, a note, the
comparative column of a later filing, an earnings release). For ``concept`` at ``period``
the candidates are the facts of that concept whose column is that period, whose unit fits
and whose duration fits: a full year for a flow in a fiscal-year calculation (never a
nine-month column), the quarter for a quarter, the balance-sheet date for a balance. Among
them, in this order of preference:

1. the concept's home statement (capex from the cash-flow statement, inventory from the
   balance sheet);
2. the slice's own document (the filing the calculation is for), then any 10-K or 10-Q,
   then other documents;
3. an exact duration (``instant`` for a balance, not an equity-statement column);
4. the earliest page, then the first row on it (primary statements precede the notes).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence

from calculator.concepts import ConceptInfo, concept_info
from domain.periods import Period
from retrieval.facts.model import Fact

_FLOW_DURATION = {True: "year", False: "quarter"}


def _year_end_for_q4(fact: Fact, kind: str, period: Period) -> bool:
    """Whether ``fact``, a fiscal year's balance, stands for the balance at the end of its
    fourth quarter (``period``): the same date. A flow's year is never its fourth quarter."""
    return kind == "balance" and period.fq == 4 and fact.fq is None


class FactResolver:
    """Picks facts for references; built once per slice from its facts."""

    def __init__(
        self,
        facts: Sequence[Fact],
        doc_name: str | None = None,
        lines: Mapping[str, ConceptInfo] | None = None,
    ) -> None:
        self.doc_name = doc_name
        # Lines read by their label (:mod:`calculator.labelled_lines`): concepts of this
        # question's own, with their statement and kind.
        self.lines = dict(lines or {})
        self.by_concept: dict[str, list[tuple[int, Fact]]] = {}
        self._facts = tuple(facts)  # every row, named or not: what :meth:`prints` reads
        for order, fact in enumerate(self._facts):
            if fact.concept:
                self.by_concept.setdefault(fact.concept, []).append((order, fact))

    @property
    def concepts(self) -> list[str]:
        return sorted(self.by_concept)

    def candidates(self, concept: str, period: Period) -> list[Fact]:
        """Facts that could stand for ``concept`` at ``period``, best first."""
        info = self.info(concept)
        ranked = []
        for order, fact in self.by_concept.get(concept, []):
            if fact.fy != period.fy or not _unit_fits(fact, info.unit):
                continue
            if fact.fq != period.fq and not _year_end_for_q4(fact, info.kind, period):
                continue
            exact = _duration_rank(fact, info.kind, period)
            if exact is None:
                continue
            ranked.append(
                (
                    0 if fact.fq == period.fq else 1,
                    0 if not info.statement or fact.statement == info.statement else 1,
                    self._document_rank(fact),
                    exact,
                    fact.page_index,
                    _gross_rank(fact, info.kind),
                    order,
                    fact,
                )
            )
        ranked.sort(key=lambda r: r[:7])
        return [r[-1] for r in ranked]

    def pick(self, concept: str, period: Period) -> Fact | None:
        """The best candidate, as the calculator reads it (:func:`as_read`); for a concept
        a balance sheet may print on several rows, their sum (:func:`_with_rows_beside`)."""
        found = self.candidates(concept, period)
        if not found:
            return None
        return as_read(_with_rows_beside(found) if concept in ADDITIVE else found[0])

    def prints(self, statement: str, pattern: re.Pattern[str], period: Period) -> bool:
        """Whether a row ``statement`` prints for ``period`` (its year's column for a
        fourth quarter) has a label that ``pattern`` finds."""
        quarters = {None, 4} if period.fq in (None, 4) else {period.fq}
        return any(
            f.statement == statement
            and f.fy == period.fy
            and f.fq in quarters
            and pattern.search(f.label)
            for f in self._facts
        )

    def missing_reason(self, concept: str, period: Period) -> str:
        """One phrase: what is missing and what the slice does have for that concept."""
        facts = [f for _, f in self.by_concept.get(concept, [])]
        have = sorted({f.period_label for f in facts})
        if not have:
            return f"{concept} {period.label} (the slice has no {concept} facts)"
        if any(f.fy == period.fy and f.fq == period.fq for f in facts):
            info = self.info(concept)
            wanted = (
                "balance-sheet" if info.kind == "balance" else _FLOW_DURATION[period.fq is None]
            )
            return f"{concept} {period.label} (no {wanted} figure in {info.unit or 'any unit'})"
        return f"{concept} {period.label} (the slice has {concept} for {', '.join(have)})"

    def info(self, concept: str) -> ConceptInfo:
        """What is known of ``concept``: a labelled line's own info, else the table's."""
        return self.lines.get(concept) or concept_info(concept)

    def _document_rank(self, fact: Fact) -> int:
        if self.doc_name and fact.doc_name == self.doc_name:
            return 0
        return 1 if any(t in fact.doc_label for t in ("10-K", "10-Q")) else 2


#: Concepts a balance sheet prints on several rows, each a part: short-term debt is
#: "Commercial paper" and "Term debt" (Apple), "Short-term debt" and "Current portion of
#: long-term debt" (Best Buy, American Water); long-term debt is "Recourse debt" and
#: "Non-recourse debt" (AES), or a REIT's mortgage notes, senior notes and line of credit;
#: short-term investments are "Short-term investments" and "Marketable securities"
#: (Coca-Cola) or "Trading assets" (Intel), each a quick asset.
ADDITIVE = frozenset({"short_term_debt", "long_term_debt", "short_term_investments"})


def _with_rows_beside(found: Sequence[Fact]) -> Fact:
    """The best candidate with every other row of its concept in the same column of the
    same page added to it, each label once (a row read twice is one row). Where one of
    them is the rows' own total (American Water's "Long-term debt" and "Total long-term
    debt"), the parts are already added: the best candidate stands alone."""
    best = found[0]
    rows = {best.label.lower(): best}
    for fact in found[1:]:
        same = (fact.doc_name, fact.page_index, fact.column, fact.statement)
        if same == (best.doc_name, best.page_index, best.column, best.statement):
            rows.setdefault(fact.label.lower(), fact)
    if len(rows) == 1 or any(label.startswith("total") for label in rows):
        return best
    label = " + ".join(f.label for f in rows.values())
    return dataclasses.replace(best, label=label, value=sum(f.value for f in rows.values()))


#: A tax line that names both words says by its parentheses which one its negative numbers
#: are: "Provision for (benefit from) income taxes | (1,084)" is a benefit (Adobe FY2020),
#: "Income tax benefit (expense) | (472)" an expense (AES), "Income tax benefit
#: (provision) | 3,634" a benefit (eBay FY2016).
_BENEFIT_IN_PARENS = re.compile(r"\(\s*benefit|benefit(?:\s+from)?\s*\)", re.IGNORECASE)
_EXPENSE_IN_PARENS = re.compile(
    r"\(\s*(?:provision|expense)|(?:provision|expense)(?:\s+for)?\s*\)", re.IGNORECASE
)


def as_read(fact: Fact) -> Fact:
    """``fact`` with the value the calculator computes with: an income tax line as an expense
    (a benefit negative). Where the label says which word is in parentheses, its sign says
    expense or benefit; a label with one word ("Provision for income taxes", "Income tax
    expense") is printed positive by some statements and as a deduction, negative, by
    others, so its size is the expense (a rare benefit on a profit under such a label reads
    as an expense)."""
    if fact.concept != "income_tax":
        return fact
    benefit_negative = bool(_BENEFIT_IN_PARENS.search(fact.label))
    expense_negative = bool(_EXPENSE_IN_PARENS.search(fact.label))
    if benefit_negative != expense_negative:
        value = fact.value if benefit_negative else -fact.value
    else:
        value = abs(fact.value)
    return fact if value == fact.value else dataclasses.replace(fact, value=value)


_NET_RE = re.compile(r"\bnet\b", re.IGNORECASE)


def _gross_rank(fact: Fact, kind: str) -> int:
    """A balance sheet that prints a line gross and then net of its allowance or
    depreciation ("Accounts receivable", "…, net") reports the net row; the gross row is
    its working. 0 for a net row, 1 otherwise (only between rows of one page)."""
    return 0 if kind != "balance" or _NET_RE.search(fact.label) else 1


def _unit_fits(fact: Fact, unit: str) -> bool:
    """A revenue row in a common-size (%) table is not revenue in dollars."""
    return not unit or fact.unit == unit


def _duration_rank(fact: Fact, kind: str, period: Period) -> int | None:
    """0 exact, 1 acceptable, None not this period's number at all."""
    if kind == "balance":
        return 0 if fact.duration == "instant" else 1
    wanted = _FLOW_DURATION[period.fq is None]
    if period.to_date and period.fq in (2, 3):
        wanted = "ytd"  # the six or nine months to the quarter's end, not the quarter
    if fact.duration == wanted:
        return 0
    # A first quarter's year-to-date column is that quarter.
    if period.fq == 1 and fact.duration == "ytd":
        return 1
    return None
