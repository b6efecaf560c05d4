"""An amount a page gives only to what is yet to be paid is no figure of the year.

Asked "What was Apple's interest expense in FY2021?", the draft wrote "Apple's interest
expense in FY2021 was $39.5 billion", cited to the 10-K page whose only "$39.5 billion" is
in "Future interest payments associated with the Notes total $39.5 billion, with $2.9
billion payable within 12 months"; the year's interest expense was $2.6 billion. Digit
grounding passes it, and the measure is the same words. A page's obligations (future
interest, lease and purchase payments, debt due within a year or after it) are what the
company will pay, not what a year cost. So a draft sentence that states an amount as a
figure of its period (it says nothing of what is to come, of obligations or of maturities)
is removed and counted when every sentence of its cited pages that prints the amount
speaks of future payments, and no table row prints it (a table's column may be a year's
actual figure beside the schedule).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from citations.markup import MARKER_RE, CitedAnswer
from citations.sentences import cited_pages, split_sentences, without_sentences
from metrics.numbers import NumberIndex, extract_numbers
from programs.owner_check import MAX_SENTENCE, places_printing

#: A page sentence about what is yet to be paid.
_FUTURE = re.compile(
    r"\bfuture\b|\b(?:payable|due)\s+(?:within|after|in|over|beyond)\b|\bremaining\s+"
    r"(?:payments?|obligations?|commitments?)\b|\bwill\s+(?:be\s+)?(?:pay|paid|due|owed)\b"
    r"|\b(?:contractual|purchase|lease)\s+(?:obligations?|commitments?)\b",
    re.IGNORECASE,
)
#: A draft sentence that itself speaks of what is to come: it does not state the year's figure.
_SPEAKS_AHEAD = re.compile(
    r"\bfuture\b|\b(?:payable|due|owed|outstanding|remaining|scheduled|committed)\b|\bwill\b"
    r"|\bexpect\w*|\bobligations?\b|\bcommitments?\b|\bmatur\w*|\bprincipal\b",
    re.IGNORECASE,
)
#: Where a sentence's clauses part: a comma or a semicolon.
_CLAUSE = re.compile(r"[,;]\s+")


def _only_ahead(text: str, page: str) -> bool | None:
    """Whether every place ``page`` prints ``text``'s amounts is a sentence about future
    payments: True; False where one is a table row or another sentence; None where the page
    prints none of them."""
    numbers = [n for n in extract_numbers(text) if n.currency or n.scale != 1.0]
    found = False
    for number in numbers:
        rows, sentences = places_printing(number, page)
        if rows:
            return False
        for sentence in sentences:
            if len(sentence) > MAX_SENTENCE:
                return False
            # the clause that prints it: "notes of $118.1 billion, with $9.6 billion payable
            # within 12 months" gives the future to the $9.6 billion only
            for clause in _CLAUSE.split(sentence):
                if NumberIndex.from_text(clause).matches(number, rel_tol=0.0):
                    if not _FUTURE.search(clause):
                        return False
                    found = True
    return True if found else None


def drop_future_as_actual(answer: CitedAnswer, pages: Mapping[str, str]) -> tuple[CitedAnswer, int]:
    """``answer`` less its prose sentences that state as a figure of their period an
    amount their cited pages (uid -> text in ``pages``) give only to future payments, with
    the footnotes only they marked; and how many went."""
    wrong = []
    for sentence in split_sentences(answer.body):
        if sentence.in_table or not sentence.markers:
            continue
        text = MARKER_RE.sub(" ", sentence.text)
        if _SPEAKS_AHEAD.search(text):
            continue
        read = [_only_ahead(text, page) for page in cited_pages(answer, sentence, pages, "")]
        if True in read and False not in read:
            wrong.append(sentence)
    return without_sentences(answer, wrong)
