"""A sentence that calls a figure sequential where its pages do not is removed.

Asked "What was PepsiCo's revenue growth quarter over quarter in Q2 2023?", with the quarter
before not researched (its release prints no statement figure), the draft read the
release's "Net revenue growth 10.4%" and wrote "PepsiCo reported a 10.4% net revenue growth
quarter over quarter in Q2 2023". The figure is real and cited, so the citation and number
checks keep it; its comparison basis is the question's words, not the page's. A growth
rate, change or comparison a filing prints is year over year unless the filing says it
compares with the quarter before, so a sentence that states a figure as quarter over quarter
("sequential", "from the previous quarter") stands only on a cited page that speaks of
such a comparison itself. One that does not is removed and counted, as
:mod:`programs.direction_check` removes a sentence whose direction its numbers contradict.
A sequential change code computed from two quarters' own figures comes from the calculator
in the synthesis, never from one probe's draft, so this check cannot remove one.
"""

from __future__ import annotations

from collections.abc import Mapping

from citations.markup import MARKER_RE, CitedAnswer
from citations.sentences import cited_pages, split_sentences, without_sentences
from domain.period_patterns import SEQUENTIAL_RE
from metrics.numbers import extract_numbers


def drop_unsupported_sequential(
    answer: CitedAnswer, page_texts: Mapping[str, str]
) -> tuple[CitedAnswer, int]:
    """``answer`` without the sentences that state a figure as a sequential comparison where
    none of their cited pages (``page_texts``: text by page uid) speaks of one, and how many
    were removed."""
    wrong = []
    for sentence in split_sentences(answer.body):
        words = MARKER_RE.sub(" ", sentence.text)  # "QoQ¹": a superscript is a word character
        if not (SEQUENTIAL_RE.search(words) and extract_numbers(words)):
            continue
        cited = cited_pages(answer, sentence, page_texts, "")
        if not any(SEQUENTIAL_RE.search(text) for text in cited):
            wrong.append(sentence)
    return without_sentences(answer, wrong)
