"""An amount a draft copies from a table keeps the table's scale.

Asked whether Salesforce has outstanding debt, the draft wrote "The total principal
outstanding is $10,682.", copied from a table "in millions": $10.7 billion read as ten
thousand dollars. Oracle's FY2023 restructuring came back as "490" of a table in millions
the same way. The grounding metric reads a number without its unit, so nothing flagged it.
A dollar amount with no scale word, of 100 or more, that every page its sentence cites
prints and states "in millions" (or "in thousands", "in billions") for, is given that
scale: "$10,682 million". A per-share amount, one with a scale word, or one on a page of
several scales is left as written.

A number keeps its unit too. Asked how much PG&E paid in interest in FY2022, the draft wrote
"PG&E paid $1.69 million in interest", cited to a debt table whose only 1.69 is a bond's
1.69% rate. A sentence stating a dollar amount whose digits every page it cites prints
only as a percentage goes (:func:`drop_unit_swaps`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from citations.markup import CitedAnswer
from citations.sentences import cited_pages, split_sentences, without_units_and_followers
from metrics.numbers import extract_numbers, written_among

#: A page's statement of the unit its tables are in: "(in millions, except per share …)".
_IN_SCALE = re.compile(r"\bin\s+(thousands|millions|billions)\b", re.IGNORECASE)
#: What follows an amount that is not a table's total: a per-unit figure.
_PER = re.compile(r"\s*(?:per\b|a\s+share\b|/\s*share\b)", re.IGNORECASE)


#: An exception to a table's scale ("in millions, except remaining performance obligation,
#: which is presented in billions"): the rows it names, not the table's unit.
_EXCEPT = re.compile(r"\bexcept\b[^)]*", re.IGNORECASE)


def _page_scale(page: str) -> str | None:
    """The one scale a page states its amounts in ("million"), or None: none or several."""
    stated = _EXCEPT.sub("", page)
    scales = {m.group(1).lower().removesuffix("s") for m in _IN_SCALE.finditer(stated)}
    return scales.pop() if len(scales) == 1 else None


def with_page_scale(answer: CitedAnswer, pages: Mapping[str, str]) -> tuple[CitedAnswer, int]:
    """``answer`` with each unscaled dollar amount given its cited pages' scale (uid -> text
    in ``pages``), and how many amounts were."""
    body, edits = answer.body, 0
    for sentence in reversed(split_sentences(answer.body)):
        if sentence.in_table or not sentence.markers:
            continue
        texts = cited_pages(answer, sentence, pages, "")
        scales = {_page_scale(text) for text in texts}
        if len(scales) != 1 or (scale := scales.pop()) is None:
            continue
        text = sentence.text
        page_values = [[n.value for n in extract_numbers(t)] for t in texts]
        for token in reversed(extract_numbers(text)):
            unscaled = token.currency and token.scale == 1.0 and not token.percent
            if not unscaled or abs(token.value) < 100 or token.decimals:
                continue
            printed = all(written_among(token, values) for values in page_values)
            if _PER.match(text, token.end) or not printed:
                continue
            text = f"{text[: token.end]} {scale}{text[token.end :]}"
            edits += 1
        if text != sentence.text:
            body = body[: sentence.start] + text + body[sentence.end :]
    return answer.model_copy(update={"body": body}), edits


def drop_unit_swaps(answer: CitedAnswer, pages: Mapping[str, str]) -> tuple[CitedAnswer, int]:
    """``answer`` less its sentences that state a dollar amount the pages they cite print
    only as a percentage (uid -> text in ``pages``), with the uncited sentences after them
    that point back at them; and how many went."""
    swapped = []
    for sentence in split_sentences(answer.body):
        if sentence.in_table or not sentence.markers:
            continue
        texts = cited_pages(answer, sentence, pages, "")
        printed = [n for text in texts for n in extract_numbers(text)]
        for token in extract_numbers(sentence.text):
            if not token.currency or token.percent:
                continue
            same = [n for n in printed if written_among(token, [n.value])]
            if same and all(n.percent for n in same):
                swapped.append(sentence)
                break
    if not swapped:
        return answer, 0
    body = without_units_and_followers(answer.body, swapped)
    return answer.model_copy(update={"body": body}).cited_only(), len(swapped)
