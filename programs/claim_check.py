"""A statement figure a draft states of its own company is checked against the facts.

The figure check (:mod:`programs.figure_check`) holds a draft to the figure code computed
for the *question*. A draft also states figures nobody asked code for, and a small model
takes them from the nearest number on the page: "Walmart's net sales growth rate for fiscal
2023 was 14.6%" where 14.6% is one segment's comparable sales, and the consolidated net
sales grew 6.7%. Digit grounding passes it (14.6 is on the cited page), and the report
leads with it.

So each prose sentence that names the slice's company (or no company: a probe researches
one company, and "The corporation's total current assets … were $66,136 million" was PG&E's
PP&E), names no part of it (a segment, a geography) and no other period than the slice's,
and names a measure the calculator computes from the slice's statement facts, must state
that measure's value if it states a value of its kind (a percentage for a growth rate or
margin, an amount for a line item).
A sentence stating none of the right value goes. Annual slices only: a quarter's filing
prints year-to-date columns beside the quarter's, and a sentence rarely says which it means.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citations.markup import CitedAnswer
from citations.sentences import split_sentences, without_units_and_followers
from domain.cells import SliceRef
from domain.periods import mentioned_years
from programs.figure_check import drop_contradicting_in_slice, stated_values, states_figure
from programs.figure_questions import outside_the_statements
from programs.figures import Figures
from retrieval.companies import Company, load_companies
from retrieval.mentions import company_mentions
from signatures.synthesiser import Figure

#: Words that put a figure in another period than the slice's fiscal year.
_OTHER_PERIOD = re.compile(
    r"\b(?:prior|previous|preceding|last|next|following|same|comparable)\s+"
    r"(?:fiscal\s+)?(?:year|quarter|period)s?\b|\bquarters?\b|\bQ[1-4]\b|\bhalf\b|\bmonths?\b|"
    r"\b(?:a|one|two|three)\s+years?\s+(?:ago|earlier)\b|\bsince\b|\bCAGR\b|\baverage\b",
    re.IGNORECASE,
)
#: The base a change is measured from ("grew 7% compared with the prior year"): not a
#: figure of another period.
_CHANGE_BASE = re.compile(
    r"\b(?:compared\s+(?:to|with)|over|from|versus|vs\.?|against)\s+(?:the\s+)?"
    r"(?:prior|previous|preceding|last)\s+(?:fiscal\s+)?year\b",
    re.IGNORECASE,
)


def _in_the_slice_year(text: str, ref: SliceRef) -> bool:
    """Whether the sentence speaks of the slice's fiscal year and no other period."""
    if _OTHER_PERIOD.search(_CHANGE_BASE.sub(" ", text)):
        return False
    return set(mentioned_years(text)) <= {ref.fy}


def misstated_figures(
    answer: CitedAnswer, ref: SliceRef, figures: Figures, companies: Sequence[Company]
) -> list[tuple[str, Figure]]:
    """The prose sentences of ``answer`` that state a statement figure of ``ref``'s company
    with a value the facts do not give, each with the figure the facts give."""
    if ref.fq not in (None, 4):
        return []
    wrong = []
    for sentence in split_sentences(answer.body):
        text = sentence.text
        named = {t for _, t in company_mentions(text, companies)}
        if sentence.in_table or (named and ref.ticker not in named):
            continue  # another company's (a sentence naming none is its slice's own)
        if outside_the_statements(text) or not _in_the_slice_year(text, ref):
            continue
        computed = figures.answer(text, ref, parts=False)
        if computed is None:
            continue
        figure = computed[1]
        stated = stated_values(text, [figure])
        if stated and not any(states_figure(t, figure) for t in stated):
            wrong.append((text, figure))
    return wrong


def drop_misstated_figures(
    answer: CitedAnswer, ref: SliceRef, figures: Figures, companies: Sequence[Company]
) -> tuple[CitedAnswer, int]:
    """``answer`` less the sentences :func:`misstated_figures` finds (and the uncited ones
    after them that point back at them: "This shows …" of a figure that went); and how many
    misstated sentences went."""
    wrong = {text for text, _ in misstated_figures(answer, ref, figures, companies)}
    if not wrong:
        return answer, 0
    dropped = [s for s in split_sentences(answer.body) if s.text in wrong]
    body = without_units_and_followers(answer.body, dropped)
    return answer.model_copy(update={"body": body}), len(dropped)


def check_figures(
    answer: CitedAnswer, ref: SliceRef, figure: Figure | None, figures: Figures | None
) -> tuple[CitedAnswer, int]:
    """A researched probe's draft held to its slice's statements: less the sentences that
    contradict the question's computed ``figure`` (:mod:`programs.figure_check`) and those
    that misstate another statement figure of the company, with the footnotes only they
    marked; and how many went."""
    dropped = 0
    if figure is not None:
        answer, dropped = drop_contradicting_in_slice(answer, [figure])
    if figures is not None:
        answer, misstated = drop_misstated_figures(answer, ref, figures, load_companies())
        dropped += misstated
    return (answer.cited_only() if dropped else answer), dropped
