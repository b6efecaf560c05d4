"""A sentence's own claim kept where only the comparison a model added to it is unsupported.

A small model states a figure from its page and runs on into its own arithmetic or another
year's number: "In 2022, the company declared and paid cash dividends of $1.28 per share,
which was a 37% increase over the previous year's $0.96 per share" (Oracle's FY2022 page
prints $1.28; the 37% is the model's, and $0.96 is FY2020's). No page holds the whole
sentence, so it went as an uncited number, the only figure of the draft with it, and the
next round read other pages and drafted nothing of use. The lead, up to where the
comparison begins, is a claim a page holds: it is kept, to be cited as any sentence is
(:func:`programs.attribution.attribute_uncited`), and the tail goes. A sentence a page
holds whole, its comparison too ("…, up from $0.32" where the page prints both), is left
as it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from citations.markup import CitedAnswer
from citations.sentences import split_sentences
from metrics.numbers import extract_numbers
from programs.attribution import supporting_page

#: Where a comparison the model added begins: ", which was …", ", compared with …",
#: ", a 37% increase …", ", up …" / ", down …".
_COMPARISON_TAIL = re.compile(
    r",\s+(?:which\b|compared\s+(?:with|to)\b|an?\s+(?:[\d.,]+\s*%\s+)?"
    r"(?:increase|decrease|rise|decline|drop|gain|growth|reduction)\b|up\b|down\b)",
    re.IGNORECASE,
)


def trim_unsupported_tails(
    answer: CitedAnswer, pages: Mapping[str, str], question: str = ""
) -> tuple[CitedAnswer, int]:
    """``answer`` with each uncited prose sentence that no page (uid -> text) supports cut
    to the lead before its comparison, where the lead states a number and a page supports
    it; and how many sentences were cut."""
    body, trimmed = answer.body, 0
    for sentence in reversed(split_sentences(answer.body)):
        if sentence.in_table or sentence.markers or not extract_numbers(sentence.text):
            continue
        tail = _COMPARISON_TAIL.search(sentence.text)
        if tail is None:
            continue
        lead = sentence.text[: tail.start()].rstrip() + "."
        if not extract_numbers(lead) or supporting_page(sentence.text, pages, question):
            continue
        if supporting_page(lead, pages, question) is None:
            continue
        body = body[: sentence.start] + lead + body[sentence.end :]
        trimmed += 1
    if not trimmed:
        return answer, 0
    return answer.model_copy(update={"body": body}), trimmed
