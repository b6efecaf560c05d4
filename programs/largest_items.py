"""The largest (or smallest) liability on a balance sheet, chosen by code from its rows.

Asked "What was the largest liability on PG&E's balance sheet at the end of FY2022?", the
1.5B model answered "regulatory liabilities, $17.63 billion", the second-largest row; long-term
debt, $47,742 million, printed under a long label with a parenthesis, is larger. Which row
is largest is arithmetic on rows the statement facts already hold in printed order, so code
chooses: the liabilities are the rows after the total assets row and before the first
equity row, each as printed, none of them a total ("Total current liabilities" is a sum of
rows, not a liability). The answer names the row, its amount and the runner-up, cited to
the balance sheet's page.

Asked for the largest components of current liabilities ("What were the three largest
components of Apple's current liabilities at the end of FY2022?"), code had given their
total alone; the rows are those before the "Total current liabilities" row, and the answer
names as many as asked, largest first, beside the total.

Only liabilities are chosen here: an asset section prints gross amounts beside their
accumulated depreciation (PG&E's "Electric" plant, $74,772 million gross, is no asset a
reader would name), which a row's value alone cannot tell apart.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from calculator.result import fact_citation
from citations.markup import CitedAnswer, Footnote, ReferenceList, render_marker
from domain.cells import SliceRef
from domain.periods import slice_period
from programs.comparisons import millions
from retrieval.facts.model import Fact
from signatures.probes import Probe
from signatures.synthesiser import Figure
from textnorm.casing import lower_first

#: "the largest liability", "biggest liabilities", "smallest single liability".
_ASKED = re.compile(
    r"\b(?P<rank>largest|biggest|greatest|smallest)\s+(?:single\s+)?liabilit(?:y|ies)\b"
    r"|\bwhich\s+liabilit(?:y|ies)\b[^?]*\b(?P<rank2>largest|biggest|greatest|smallest)\b",
    re.IGNORECASE,
)
#: A row that opens the equity section: its stock, paid-in capital, earnings or interests
#: ("Capital lease obligations" is a liability: capital alone opens nothing).
_EQUITY = re.compile(
    r"\b(?:stock|equity|earnings|comprehensive|shares|deficit|non-?controlling|redeemable|"
    r"(?:paid-in|contributed|share|additional)\s+capital|capital\s+(?:in\s+excess|surplus))\b",
    re.IGNORECASE,
)
_TOTAL = re.compile(r"^\s*total\b", re.IGNORECASE)
_ENDS_ASSETS = frozenset({"total_assets"})
_ENDS_LIABILITIES = frozenset({"equity", "total_equity", "total_liabilities_and_equity"})
_ENDS_CURRENT = frozenset({"current_liabilities"})


#: "the three largest components of current liabilities", "largest current liabilities",
#: "main items of its current liabilities".
_CURRENT_ASKED = re.compile(
    r"\b(?:(?P<count>two|three|four|five|[2-5])\s+)?(?P<rank>largest|biggest|main|major|top)\s+"
    r"(?:(?:components|items|line\s+items|parts|elements)\s+of\s+(?:\S+\s+){0,2}?)?"
    r"current\s+liabilities\b",
    re.IGNORECASE,
)
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5}
_COUNT_WORDS = {n: word for word, n in _COUNTS.items()}


@dataclass(frozen=True)
class LargestAsk:
    """A question asking for the largest (``largest=True``) or smallest liability, or for
    the ``count`` largest rows of current liabilities (``current``)."""

    largest: bool
    current: bool = False
    count: int = 1


def read_largest_ask(question: str) -> LargestAsk | None:
    """The ask in ``question``, or None when it asks for no largest or smallest liability."""
    if (current := _CURRENT_ASKED.search(question)) is not None:
        count = current["count"] or "3"
        return LargestAsk(
            largest=True, current=True, count=_COUNTS.get(count.lower()) or int(count)
        )
    found = _ASKED.search(question)
    if found is None:
        return None
    rank = (found.group("rank") or found.group("rank2")).lower()
    return LargestAsk(largest=rank != "smallest")


def liability_rows(facts: Iterable[Fact], ref: SliceRef, current: bool = False) -> list[Fact]:
    """The slice's liabilities as its balance sheet prints them for its own date: the
    rows after a total assets row and before the first equity row (``current``: before the
    total current liabilities row, which it ends with), on its page or the next, other
    totals left out; the first sheet that closes so (a holding company's sheet before its
    subsidiary's; a summary page's lone total assets row opens nothing)."""
    fq = slice_period(ref).fq
    rows = [f for f in facts if f.statement == "balance" and f.fy == ref.fy and f.fq == fq]
    rows.sort(key=lambda f: f.page_id)  # stable: each page's rows stay in printed order
    start: int | None = None  # the latest total assets row, where liabilities begin
    for i, fact in enumerate(rows):
        if fact.concept in _ENDS_ASSETS:
            start = i
        elif start is not None and not _near(rows[start], fact):
            start = None  # a summary's total assets, far from the sheet's liabilities
        elif start is not None and (
            (current and fact.concept in _ENDS_CURRENT)
            or fact.concept in _ENDS_LIABILITIES
            or _EQUITY.search(fact.label)
        ):
            if current and fact.concept not in _ENDS_CURRENT:
                return []  # equity reached with no total current liabilities row
            parts = [f for f in rows[start + 1 : i] if not _TOTAL.match(f.label) and f.value > 0]
            return [*parts, fact] if current else parts
    return []


def _near(total_assets: Fact, row: Fact) -> bool:
    """Whether ``row`` is on the total assets row's page or the next one of its filing."""
    same = row.doc_name == total_assets.doc_name
    return same and total_assets.page_index <= row.page_index <= total_assets.page_index + 1


def largest_probe(question: str, facts: Sequence[Fact], ref: SliceRef) -> Probe | None:
    """The figure probe for a question asking the largest or smallest liability, when the
    slice's balance sheet gives the choice."""
    if largest_answer(question, facts, ref) is None:
        return None
    period = slice_period(ref).label
    ask = read_largest_ask(question)
    rank = "largest" if ask.largest else "smallest"
    asked = (
        f"What were the {ask.count} largest current liabilities"
        if ask.current
        else f"Which liability was the {rank}"
    )
    return Probe(
        probe_title="Liabilities (from the balance sheet)",
        probe_question=f"{asked} at the end of {period}?",
    )


def largest_answer(
    question: str, facts: Sequence[Fact], ref: SliceRef
) -> tuple[CitedAnswer, Figure] | None:
    """Code's answer to such a question from the slice's facts; None when it asks none or
    fewer than two liabilities were read."""
    ask = read_largest_ask(question)
    if ask is None:
        return None
    period = slice_period(ref).label
    if ask.current:
        return largest_current(ask, liability_rows(facts, ref, current=True), period)
    return largest_liability(ask, liability_rows(facts, ref), period)


def largest_liability(
    ask: LargestAsk, rows: Sequence[Fact], period: str
) -> tuple[CitedAnswer, Figure] | None:
    """Code's answer: the row chosen, its amount and the next one, cited to its page; None
    with fewer than two liabilities read (no choice was made)."""
    if len(rows) < 2:
        return None
    ranked = sorted(rows, key=lambda f: f.value, reverse=ask.largest)
    chosen, next_one = ranked[0], ranked[1]
    word = "largest" if ask.largest else "smallest"
    numbers, footnotes = footnotes_of(rows)
    mark, other = (render_marker([numbers[f.uid]]) for f in (chosen, next_one))
    body = (
        f"{row_name(chosen)} was the {word} liability on the balance sheet at the end of "
        f"{period}: {millions(chosen.value)}{mark}. Next was {mid_sentence(row_name(next_one))}, "
        f"{millions(next_one.value)}{other}."
    )
    figure = Figure(
        title=f"{word.capitalize()} liability",
        period=period,
        value=chosen.value,
        unit="USD",
        text=millions(chosen.value),
        uids=[chosen.uid],
        inputs=[row_input(f) for f in (chosen, next_one)],
    )
    return CitedAnswer(body=body, references=ReferenceList(footnotes=footnotes)), figure


def largest_current(
    ask: LargestAsk, rows: Sequence[Fact], period: str
) -> tuple[CitedAnswer, Figure] | None:
    """The ``ask.count`` largest rows of current liabilities, largest first, beside their
    total (``rows``' last), cited to the balance sheet; None with fewer than two rows read
    before the total."""
    *parts, total = rows or [None]
    if len(parts) < 2:
        return None
    chosen = sorted(parts, key=lambda f: f.value, reverse=True)[: ask.count]
    numbers, footnotes = footnotes_of(rows)
    listed = "; ".join(
        f"{mid_sentence(row_name(f))}, {millions(f.value)}{render_marker([numbers[f.uid]])}"
        for f in chosen
    )
    many = _COUNT_WORDS.get(len(chosen), str(len(chosen)))
    mark = render_marker([numbers[total.uid]])
    body = (
        f"The {many} largest current liabilities at the end of {period}: {listed}; of total "
        f"current liabilities of {millions(total.value)}{mark}."
    )
    figure = Figure(
        title="Largest current liabilities",
        period=period,
        value=chosen[0].value,
        unit="USD",
        text=millions(chosen[0].value),
        uids=list(dict.fromkeys(f.uid for f in (*chosen, total))),
        inputs=[row_input(f) for f in (*chosen, total)],
    )
    return CitedAnswer(body=body, references=ReferenceList(footnotes=footnotes)), figure


def footnotes_of(rows: Sequence[Fact]) -> tuple[dict[str, int], list[Footnote]]:
    """Each page of ``rows`` numbered once, in printed order, and its footnote."""
    first_row: dict[str, Fact] = {}
    for fact in rows:
        first_row.setdefault(fact.uid, fact)
    numbers = {uid: n for n, uid in enumerate(first_row, start=1)}
    footnotes = [
        Footnote(number=numbers[uid], citation=fact_citation(fact))
        for uid, fact in first_row.items()
    ]
    return numbers, footnotes


def row_input(fact: Fact, dated: bool = False) -> str:
    """A row as a figure's input: its label (and period, ``dated``), amount and page."""
    label = f"{fact.label} {fact.period_label}" if dated else fact.label
    return f"{label}: {fact.value:,.0f} USD ({fact.doc_label} p.{fact.page_index + 1})"


def row_name(fact: Fact) -> str:
    """The row's label as a name: without what it includes ("Long-term debt (includes
    $10.31 billion …)", "Non-recourse debt, including $760 …" are "Long-term debt" and
    "Non-recourse debt"), in sentence case where printed in capitals."""
    name = re.sub(r"\s*(?:\(|,\s*includ(?:ing|es)\b).*$", "", fact.label).strip(" ,:")
    name = name or fact.label
    return name.capitalize() if name.isupper() else name


def mid_sentence(name: str) -> str:
    """``Regulatory liabilities`` -> ``regulatory liabilities``; a name printed in title
    case or with an acronym ("Long-Term Debt", "Accrued VAT") stays as printed."""
    return lower_first(name) if not re.search(r"[A-Z]", name[1:]) else name
