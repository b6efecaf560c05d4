"""A ratio a draft states is one its cited pages print, or one code computed.

Asked Boston Properties' FY2015 debt-to-equity ratio, the draft wrote "3.47, as shown on
page [6]": the page, a reconciliation of net operating income, prints no 3.47 and no debt.
Code computes the ratios it knows from statement facts (:mod:`programs.figures`, and the
``wissen_calculate`` tool the researcher may call); a ratio a small model works out in its
head, or makes up, is neither, and its citation makes it look read. So a prose sentence
stating a bare decimal (no currency, no percent sign, no scale word: a ratio, a multiple, a
per-share figure written without "$") that none of its cited pages prints, and that is no
value code computed for the probe, is removed. Amounts, percentages and counts are left to
the other checks: a change in percent is the arithmetic the brief allows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from citations.markup import MARKER_RE, CitedAnswer
from citations.sentences import cited_pages, split_sentences, without_sentences
from metrics.numbers import NumberToken, extract_numbers, written_among


def _bare_decimals(text: str) -> list[NumberToken]:
    return [
        t
        for t in extract_numbers(text)
        if t.decimals and not (t.currency or t.percent or t.scale != 1.0)
    ]


def drop_unprinted_ratios(
    answer: CitedAnswer, pages: Mapping[str, str], computed: Iterable[float] = ()
) -> tuple[CitedAnswer, int]:
    """``answer`` less its prose sentences stating a bare decimal that neither their cited
    pages (uid -> text in ``pages``) print nor ``computed`` (code's values for the probe)
    holds, with the footnotes only they marked; and how many went."""
    known = list(computed)
    wrong = []
    for sentence in split_sentences(answer.body):
        if sentence.in_table or not sentence.markers:
            continue
        numbers = _bare_decimals(MARKER_RE.sub(" ", sentence.text))
        if not numbers:
            continue
        texts = cited_pages(answer, sentence, pages, "")
        printed = [t.value for text in texts for t in extract_numbers(text)] + known
        if any(not written_among(t, printed) for t in numbers):
            wrong.append(sentence)
    return without_sentences(answer, wrong)
