"""Companies' same figure side by side, by code: two companies' gap, three or more ranked.

Two companies' gap is computed (``PEP capital expenditure in FY2022 ($5,207 million) was
$3,458 million higher than MMM's ($1,749 million)``), never written by the model. Asked
"Rank Apple, eBay and Intel by FY2020 revenue.", the composer wrote "Apple had the highest
revenue in FY2020, with $274,515 million. eBay had a moderate revenue of $10,271 million,
while Intel had a lower revenue of $77,867 million": every figure right and cited, the
order wrong. With three or more, "higher" does not say than whom, so code states the order
(``Revenue in FY2020, highest first: AAPL $274,515 million¹, INTC $77,867 million³, EBAY
$10,271 million²``) and the model's sentences that rank those companies go.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citations.markup import render_marker
from citations.sentences import split_sentences, without_units
from programs.figure_table import amount_like, figure_markers, percent_points, slice_figures
from retrieval.companies import Company
from retrieval.mentions import company_mentions
from signatures.synthesiser import Figure, SliceReport
from textnorm.casing import lower_first

#: Words that rank companies against each other, or place one among them.
_RANKING = re.compile(
    r"\b(?:highest|lowest|largest|smallest|biggest|greatest|most|least|top|bottom|moderate"
    r"|higher|lower|larger|smaller|greater|bigger|more|less|rank\w*|second|third|middle"
    r"|followed\s+by|behind|ahead\s+of|leads?|led|trail\w*)\b",
    re.IGNORECASE,
)


def _groups(
    slices: Sequence[SliceReport], numbers: dict[str, int], least: int
) -> list[dict[str, Figure]]:
    """Each cited figure's companies by title, unit and period, where ``least`` companies or
    more report it."""
    by_period: dict[tuple[str, str, str], dict[str, Figure]] = {}
    for report in slices:
        for figure in slice_figures(report):
            if figure_markers(figure, numbers):
                key = (figure.title, figure.unit, figure.period)
                by_period.setdefault(key, {}).setdefault(report.slice.ticker, figure)
    return [companies for companies in by_period.values() if len(companies) >= least]


def comparison_sentence(first: tuple[str, Figure], second: tuple[str, Figure], markers: str) -> str:
    """``PEP capital expenditure in FY2022 ($5,207 million) was $3,458 million higher than
    MMM's ($1,749 million)¹˒²``: two companies' same figure for one period, by code."""
    (high_ticker, high), (low_ticker, low) = sorted(
        [first, second], key=lambda pair: pair[1].value, reverse=True
    )
    title = lower_first(high.title)
    head = f"{high_ticker} {title} in {high.period} ({high.text})"
    if high.value == low.value:
        return f"{head} was the same as {low_ticker}'s{markers}."
    if "%" in high.text:
        gap = f"{percent_points(high) - percent_points(low):.1f} percentage points"
    else:
        gap = amount_like(high.value - low.value, high)
    return f"{head} was {gap} higher than {low_ticker}'s ({low.text}){markers}."


def figure_comparisons(slices: Sequence[SliceReport], numbers: dict[str, int]) -> list[str]:
    """One sentence per figure and period that exactly two companies report: the gap
    between them computed, both figures cited (a comparison's difference is code's)."""
    sentences = []
    for companies in _groups(slices, numbers, 2):
        if len(companies) != 2:
            continue
        (a, fa), (b, fb) = companies.items()
        marks = sorted({numbers[u] for u in [*fa.uids, *fb.uids] if u in numbers})
        sentences.append(comparison_sentence((a, fa), (b, fb), render_marker(marks)))
    return sentences


def ranking_lines(slices: Sequence[SliceReport], numbers: dict[str, int]) -> list[str]:
    """One sentence per figure and period that three companies or more report: each
    company's figure, cited, highest first."""
    lines = []
    for companies in _groups(slices, numbers, 3):
        ranked = sorted(companies.items(), key=lambda pair: pair[1].value, reverse=True)
        listed = ", ".join(f"{t} {f.text}{figure_markers(f, numbers)}" for t, f in ranked)
        first = ranked[0][1]
        lines.append(f"{first.title} in {first.period}, highest first: {listed}.")
    return lines


def without_model_rankings(
    body: str,
    slices: Sequence[SliceReport],
    numbers: dict[str, int],
    companies: Sequence[Company],
) -> str:
    """``body`` less its prose sentences that rank companies code ranks (:func:`ranking_lines`)."""
    ranked = {ticker for group in _groups(slices, numbers, 3) for ticker in group}
    if not ranked:
        return body
    dropped = [
        sentence
        for sentence in split_sentences(body)
        if not sentence.in_table
        and _RANKING.search(sentence.text)
        and {t for _, t in company_mentions(sentence.text, companies)} & ranked
    ]
    return without_units(body, dropped) if dropped else body
