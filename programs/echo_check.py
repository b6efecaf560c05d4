"""A sentence that only restates its question cites nothing, unless a page says it.

Asked "Is PG&E's gross margin a useful metric for a utility?", the 1.5B model wrote "PG&E
Corporation's gross margin is a useful metric for a utility. [2]" and cited a page on
ratemaking that never mentions a gross margin; the reviewer sent it back once and
accepted it in the next round, and the report's whole answer was the question turned into
a statement, under a footnote. Asked "Does FedEx depend on a few major customers in
FY2023?", the draft opened "FedEx depends on a few major customers in FY2023." under five
citations: the period the question names is no number the sentence adds. A citation
stands for what its page says, and such a sentence claims just what the question asked:
it adds fewer than two words to the question's and states no number but a period. It
keeps its citation only where a page it cites holds it near-verbatim (the share of
content words :mod:`programs.attribution` asks of any sentence without numbers: "Yes,
Ulta Beauty's wages expense as a percent of net sales increased" stands on the page that
says so). Elsewhere its marks go: it may still open the answer as its uncited direct
answer, before the cited sentences that support it; alone, it leaves a draft that cites
nothing, which the round's floor sends back (:mod:`programs.draft_checks`).
"""

from __future__ import annotations

from collections.abc import Mapping

from citations.markup import MARKER_RE, CitedAnswer
from citations.sentences import cited_pages, split_sentences, without_marks
from domain.period_patterns import without_periods
from metrics.numbers import extract_numbers
from programs.attribution import (
    MIN_ADDED_WORDS,
    WORDS_WITHOUT_NUMBERS,
    content_words,
    drop_uncited_after_opening,
    page_words,
    share_of,
)
from retrieval.mentions import LEGAL_SUFFIXES
from textnorm.stemming import stem

#: Words a sentence may add to the question's and still only restate it: the company's
#: legal form ("PG&E Corporation" for "PG&E's"), as company names are read elsewhere.
_FORM_WORDS = frozenset(stem(w) for w in LEGAL_SUFFIXES)


def _restates(text: str, asked: frozenset[str]) -> bool:
    """Whether a sentence (its markers stripped) states no number and adds fewer than
    :data:`MIN_ADDED_WORDS` content words to the question's ``asked``."""
    if extract_numbers(without_periods(text)):  # "in FY2023" restates the question's period
        return False
    return len(content_words(text) - asked - _FORM_WORDS) < MIN_ADDED_WORDS


def uncite_echoes(
    answer: CitedAnswer, pages: Mapping[str, str], question: str
) -> tuple[CitedAnswer, int]:
    """``answer`` with the citation marks of its sentences that restate ``question`` removed
    where no page they cite (``pages``: uid -> text) holds them near-verbatim, without the
    footnotes no sentence marks any more; and how many sentences lost their marks. One
    that is not the answer's opening (nor a "Yes"/"No") goes, as other uncited prose does."""
    asked = content_words(question)
    echoes = []
    for sentence in split_sentences(answer.body):
        if sentence.in_table or not sentence.markers:
            continue
        text = MARKER_RE.sub(" ", sentence.text)
        if not _restates(text, asked):
            continue
        words = content_words(text)
        texts = cited_pages(answer, sentence, pages, "")
        if any(share_of(words, page_words(t)) >= WORDS_WITHOUT_NUMBERS for t in texts):
            continue
        echoes.append(sentence)
    if not echoes:
        return answer, 0
    body = without_marks(answer.body, echoes)
    uncited, _ = drop_uncited_after_opening(answer.model_copy(update={"body": body}))
    return uncited.cited_only(), len(echoes)
