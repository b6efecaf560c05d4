"""Which operating expense line grew the most, or is the largest, chosen by code from the
income statement's rows.

Asked "Which of eBay's operating expense lines grew the most in FY2022?", the 1.5B model
named sales and marketing, "9%", and the reviewer closed the probe as insufficient; the
statement prints every line beside the year before's, so which grew most is arithmetic.
The lines are the rows after revenue (or gross profit, where printed) and before total
operating expenses (or operating income, where no total is printed), each as printed and
none of them a total, on the slice's own statement page; each year-ago figure is the row
of the same label at the same place in the year before's column (Oracle prints "Services"
among its revenues and again among its expenses). The answer names the line, its amounts
and growth, and every other line's growth, cited to the statement page.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from citations.markup import CitedAnswer, ReferenceList, render_marker
from domain.cells import SliceRef
from domain.periods import Period, slice_period
from programs.comparisons import millions
from programs.largest_items import footnotes_of, mid_sentence, row_input, row_name
from retrieval.facts.model import Fact
from signatures.probes import FROM_THE_STATEMENTS, Probe
from signatures.synthesiser import Figure

#: An operating expense line as a question names it: "operating expense lines", "expense
#: items", "expense categories", "operating expenses".
_EXPENSE = r"(?:operating\s+)?expense(?:s|\s+lines?|\s+items?|\s+categor(?:y|ies))?"
#: "Which … expense … grew the most", "… expense with the largest increase".
_GROWTH_ASKED = re.compile(
    rf"\bwhich\b[^?]*\b{_EXPENSE}\b[^?]*\b(?:grew|grown|increased|rose|risen)\s+(?:the\s+)?"
    rf"(?:most|fastest)\b|\b{_EXPENSE}\b[^?]*\b(?:largest|biggest|greatest|fastest)\s+"
    r"(?:increase|growth|rise)\b",
    re.IGNORECASE,
)
#: "the largest operating expense", "which expense line was the biggest".
_SIZE_ASKED = re.compile(
    rf"\b(?:largest|biggest|greatest)\s+(?:single\s+)?{_EXPENSE}\b"
    rf"|\bwhich\b[^?]*\b{_EXPENSE}\b[^?]*\b(?:largest|biggest|greatest)\b",
    re.IGNORECASE,
)
_STARTS = frozenset({"revenue", "gross_profit"})
_ENDS = frozenset({"operating_expenses", "operating_income"})
_TOTAL = re.compile(r"^\s*total\b", re.IGNORECASE)
_DURATION = {True: "year", False: "quarter"}


@dataclass(frozen=True)
class ExpenseLine:
    """One operating expense line: its row in the period asked and the year before."""

    now: Fact
    before: Fact

    @property
    def growth(self) -> float:
        return self.now.value / self.before.value - 1


def asks_expense_lines(question: str) -> bool:
    """Whether ``question`` asks which operating expense line grew most or is largest."""
    return bool(_GROWTH_ASKED.search(question) or _SIZE_ASKED.search(question))


def compares_years(question: str) -> bool:
    """Whether ``question`` asks which line grew most: the answer reads the year before
    from the same statement, so a prior-year slice a trend word adds has nothing to add."""
    return _GROWTH_ASKED.search(question) is not None


def expense_lines(facts: Sequence[Fact], period: Period) -> list[ExpenseLine]:
    """The statement's operating expense lines for ``period`` with their year-ago rows, in
    printed order; empty where the statement's rows do not close as described above."""
    duration = _DURATION[period.fq is None]
    rows = [f for f in facts if f.statement == "income" and f.duration == duration]
    rows.sort(key=lambda f: f.page_id)  # stable: each page's rows stay in printed order
    now = [f for f in rows if f.fy == period.fy and f.fq == period.fq]
    end = next((i for i, f in enumerate(now) if f.concept in _ENDS), None)
    if end is None:
        return []
    page = (now[end].doc_name, now[end].page_index)
    start = max((i for i, f in enumerate(now[:end]) if f.concept in _STARTS), default=None)
    if start is None or (now[start].doc_name, now[start].page_index) != page:
        return []
    before = [
        f
        for f in rows
        if f.fy == period.fy - 1 and f.fq == period.fq and (f.doc_name, f.page_index) == page
    ]
    lines = []
    for fact in now[start + 1 : end]:
        if _TOTAL.match(fact.label) or fact.value <= 0:
            continue
        place = _occurrence(now, fact)
        match = [f for f in before if f.label == fact.label]
        if place < len(match) and match[place].value > 0:
            lines.append(ExpenseLine(fact, match[place]))
    return lines


def _occurrence(rows: Sequence[Fact], fact: Fact) -> int:
    """How many rows of ``fact``'s label on its page come before it."""
    place = (fact.doc_name, fact.page_index)
    same = [f for f in rows if f.label == fact.label and (f.doc_name, f.page_index) == place]
    return next(i for i, f in enumerate(same) if f is fact)


def expense_probe(question: str, facts: Sequence[Fact], ref: SliceRef) -> Probe | None:
    """The figure probe for such a question, when the slice's statement gives the choice."""
    if expense_answer(question, facts, ref) is None:
        return None
    period = slice_period(ref).label
    asked = "grew the most" if compares_years(question) else "was the largest"
    return Probe(
        probe_title=f"Operating expenses{FROM_THE_STATEMENTS}",
        probe_question=f"Which operating expense line {asked} in {period}?",
    )


def expense_answer(
    question: str, facts: Sequence[Fact], ref: SliceRef
) -> tuple[CitedAnswer, Figure] | None:
    """Code's answer from the slice's facts; None when the question asks no such choice or
    fewer than two lines were read."""
    if not asks_expense_lines(question):
        return None
    period = slice_period(ref)
    lines = expense_lines(facts, period)
    if len(lines) < 2:
        return None
    growth = compares_years(question)
    ranked = sorted(lines, key=(lambda x: x.growth) if growth else (lambda x: x.now.value))
    chosen = ranked[-1]
    numbers, footnotes = footnotes_of([chosen.now, chosen.before])
    mark = render_marker([numbers[chosen.now.uid]])
    name = row_name(chosen.now)
    if growth:
        lead = (
            f"{name} grew the most of the operating expense lines in {period.name}: "
            f"{millions(chosen.now.value)}, up {chosen.growth:.1%} from "
            f"{millions(chosen.before.value)} in {chosen.before.period_label}{mark}."
        )
        others = [f"{row_name(x.now)} {x.growth:+.1%}" for x in reversed(ranked[:-1])]
        rest = f" The other lines: {'; '.join(others)}{mark}."
        most = max(lines, key=lambda x: x.now.value - x.before.value)
        if most is not chosen and most.now.value > most.before.value:
            # a small line's growth rate is not the largest increase: say both
            rest += (
                f" The largest increase in dollars: {mid_sentence(row_name(most.now))}, up "
                f"{millions(most.now.value - most.before.value)}{mark}."
            )
    else:
        lead = (
            f"{name} was the largest operating expense line in {period.name}: "
            f"{millions(chosen.now.value)}{mark}."
        )
        others = [f"{row_name(x.now)} {millions(x.now.value)}" for x in reversed(ranked[:-1])]
        rest = f" The other lines: {'; '.join(others)}{mark}."
    value = chosen.growth if growth else chosen.now.value
    figure = Figure(
        title="Fastest-growing operating expense" if growth else "Largest operating expense",
        period=period.label,
        value=value,
        unit="percent" if growth else "USD",
        text=f"{value:.1%}" if growth else millions(value),
        uids=[chosen.now.uid],
        inputs=[row_input(f, dated=True) for f in (chosen.now, chosen.before)],
    )
    answer = CitedAnswer(body=lead + rest, references=ReferenceList(footnotes=footnotes))
    return answer, figure
