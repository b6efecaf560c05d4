"""Code's checks on the composer's prose, in the order they run.

The composer's model writes the report's opening from the slices' findings, and a small
model re-telling them swaps companies, copies a neighbouring number, does its own sums and
turns a fall into a rise. Its sentences reach the report only through these checks, each
reading what code knows (the findings, the statement facts, the company map):

1. :func:`programs.attribution.attribute_to_findings`: a sentence that restates a cited
   finding without its mark gets the finding's;
2. :func:`programs.company_check.drop_misattributed`: a sentence naming companies whose
   pages it does not cite goes;
3. :func:`programs.figure_check.drop_contradicting`: one that gives a company's figure a
   value its facts do not hold goes;
4. :func:`programs.figure_check.drop_unfounded`: one with a number no finding states goes;
5. :func:`programs.direction_check.drop_misdirected`: one that says its figure rose where
   its own two numbers fell (or the reverse) goes;
6. :func:`programs.company_check.drop_unfigured_rankings`: one that ranks companies while
   naming one whose slices hold no figure goes;
7. :func:`programs.draft_checks.drop_dangling_lead_in`: a last sentence that leads in to a
   list nothing follows ("… driven by the following factors:¹") goes, as in a draft;
8. what is left uncited goes.

The composer writes; this module decides what of it stands, in one place, as
:mod:`programs.round_checks` does for a researcher's draft.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citations.markup import CitedAnswer
from citations.sentences import Sentence, split_sentences, without_uncited, without_units
from metrics.answer_verdicts import yes_no_polarity
from metrics.answer_words import content_words
from metrics.numbers import NumberToken, close, extract_numbers
from programs.attribution import attribute_to_findings
from programs.company_check import drop_misattributed, drop_unfigured_rankings
from programs.direction_check import drop_misdirected
from programs.draft_checks import drop_dangling_lead_in
from programs.figure_check import drop_contradicting, drop_unfounded
from retrieval.companies import Company
from signatures.synthesiser import SliceReport


def check_composed(
    prose: CitedAnswer,
    findings: CitedAnswer,
    slices: Sequence[SliceReport],
    companies: Sequence[Company],
) -> CitedAnswer:
    """``prose`` (written from ``findings``, in their numbering) after every check."""
    prose, _ = attribute_to_findings(prose, findings)
    prose, _ = drop_misattributed(prose, companies)
    prose, _ = drop_contradicting(prose, slices, companies)
    prose, _ = drop_unfounded(prose, findings.body)
    prose, _ = drop_misdirected(prose)
    prose, _ = drop_unfigured_rankings(prose, slices, companies)
    prose, _ = drop_dangling_lead_in(prose)
    return prose.model_copy(update={"body": without_uncited(prose.body)})


def without_restated_verdict(body: str) -> str:
    """``body`` less each uncited sentence, with no number, that opens with the same yes or
    no as a cited sentence before it. A draft's uncited direct answer ("Yes, Intel
    reported a net loss in Q1 2023.") may open its own cited support; once that support is
    withheld under a dagger and code's "Yes: net income … was -$2,758 million¹" opens the
    answer, it is a bare repeat that cites nothing."""
    said: set[bool] = set()
    repeats = []
    for sentence in split_sentences(body):
        polarity = None if sentence.in_table else yes_no_polarity(sentence.text)
        if polarity is None:
            continue
        if sentence.markers:
            said.add(polarity)
        elif polarity in said and not extract_numbers(sentence.text):
            repeats.append(sentence)
    return _without(body, repeats)


#: Words that only set two stated figures side by side, say that a figure was reported, or
#: name a move the figures themselves show (PG&E's "In FY2016, the company reported an
#: operating income of $2,177 million¹, while in FY2017 it increased to $2,956 million²."
#: after code's "Yes: the operating income rose from $2,177 million …").
_LINKING = content_words(
    "while whereas respectively compared against versus reported recorded posted "
    "increased decreased rose fell grew declined"
)


def without_restated_figures(body: str, opening: str) -> str:
    """``body`` less each sentence that only restates code's ``opening``: every number it
    states is one the opening states, and it has no word the opening lacks but one that
    sets figures side by side. Oracle's "In FY2022, total debt was $75,859 million¹, while
    in FY2023 it was $90,481 million²." followed code's "Yes: the total debt rose from
    $75,859 million in FY2022 to $90,481 million in FY2023, …¹˒²" and said it again."""
    stated = extract_numbers(opening)
    words = content_words(opening) | _LINKING
    repeats = [
        sentence
        for sentence in split_sentences(body)
        if not sentence.in_table
        and (numbers := extract_numbers(sentence.text))
        and all(any(_same(n, given) for given in stated) for n in numbers)
        and content_words(sentence.text) <= words
    ]
    return _without(body, repeats)


def _same(a: NumberToken, b: NumberToken) -> bool:
    """The same quantity as written, its scale applied: stricter than
    :class:`metrics.numbers.NumberIndex`, which takes any scale reading of either side."""
    return a.percent == b.percent and close(a.value * a.scale, b.value * b.scale)


def _without(body: str, sentences: list[Sentence]) -> str:
    """``body`` less ``sentences``, with no run of blank lines where they stood."""
    return re.sub(r"\n{3,}", "\n\n", without_units(body, sentences)) if sentences else body
