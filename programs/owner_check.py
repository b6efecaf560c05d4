"""A number stays with the figure its page gives it to.

Asked "Did PG&E's net income increase in FY2022 compared with FY2021, and why?", the draft
wrote "The increase was $1.4 billion", cited to the 10-K page whose only "$1.4 billion" is
in "net cash provided by operating activities increased by $1.4 billion"; net income rose
$1,902 million. Digit grounding passes it, and the figure check leaves changes alone. So a
draft sentence that states a number and speaks of a statement measure (its own words, or
the probe question's when it names none: "The increase was …") is removed when every
sentence and table row of a cited page that prints the number gives it to other measures
only, as :mod:`programs.cause_check` does for a cause. Asked how much cash McDonald's
returned to shareholders through dividends and buybacks in Q2 2023, the draft gave
"$2,310.4 million", the release's NET INCOME row. A number the pages print beside the
measure the draft names, in a row that names no measure, or in a sentence that speaks of
the draft's measure even loosely ("returned $1.3 billion, including repurchases"), stays;
a sentence that speaks of nothing of the kind gives it to something else: asked McDonald's
Q1 2023 share repurchases, the draft gave "$127 million", the release's "Pre-tax expenses
of $127 million … to support the Company's business in Russia".
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from citations.markup import MARKER_RE, CitedAnswer
from citations.sentences import cited_pages, split_sentences, without_sentences
from metrics.numbers import NumberIndex, NumberToken, extract_numbers
from programs.cause_check import measures_named, mentions_measure, page_sentences
from retrieval.search.rows import Row, page_rows

#: A page sentence longer than this is a table run together, not a sentence about one figure.
MAX_SENTENCE = 400


def places_printing(number: NumberToken, page: str) -> tuple[list[Row], list[str]]:
    """The table rows (their labels read by :func:`retrieval.search.rows.page_rows`) and the
    sentences of ``page`` that print ``number`` exactly, each in page order."""
    rows = [
        row
        for row in page_rows(page)
        if row.values and NumberIndex.from_text(" ".join(row.values)).matches(number, rel_tol=0.0)
    ]
    sentences = [
        sentence
        for sentence in page_sentences(page)
        if NumberIndex.from_text(sentence).matches(number, rel_tol=0.0)
    ]
    return rows, sentences


_WORDS = re.compile(r"[A-Za-z]{2,}")
#: What a prose sentence that names no measure, and speaks of none the draft names even
#: loosely, gives its number to: something else ("Pre-tax expenses of $127 million …").
_SOMETHING_ELSE = "something else"


def _is_prose(sentence: str) -> bool:
    """A sentence of words, ended by a stop: not a table line such as "Other items 127 88"."""
    return sentence.rstrip().endswith((".", ";", "!", "?")) and len(_WORDS.findall(sentence)) >= 6


def _owners(number: NumberToken, page: str, named: set[str]) -> set[str] | None:
    """The measures the page gives ``number`` to: the labels of the table rows and the page
    sentences that print it (None when a row names no measure, a sentence names none but
    speaks of one of ``named`` loosely, a sentence is a table run together, or the page does
    not print it)."""
    owners: set[str] = set()
    rows, sentences = places_printing(number, page)
    for row in rows:
        if not (named := measures_named(row.label)):
            return None
        owners |= named
    found = bool(rows)
    for sentence in sentences:
        if len(sentence) > MAX_SENTENCE:
            if found:
                continue  # table text run together, whose rows were read above
            return None
        if given := measures_named(sentence):
            owners |= given
        elif not _is_prose(sentence) or any(mentions_measure(m, sentence) for m in named):
            return None
        else:
            owners.add(_SOMETHING_ELSE)
        found = True
    return owners if found else None


def given_to_another(text: str, pages: list[str], question: str = "") -> bool:
    """Whether a draft sentence's number is one ``pages`` give only to other measures than
    the one the sentence (or, naming none, ``question``) speaks of."""
    numbers = [n for n in extract_numbers(text) if n.currency or n.scale != 1.0 or n.percent]
    asked = measures_named(question)
    named = measures_named(text) or (asked if len(asked) == 1 else set())
    if not numbers or not named or not pages:
        return False
    for number in numbers:
        owners = [_owners(number, page, named) for page in pages]
        if any(o is None for o in owners):
            return False
        if named.isdisjoint(set().union(*owners)):
            return True
    return False


def drop_numbers_of_other_figures(
    answer: CitedAnswer, pages: Mapping[str, str], question: str = ""
) -> tuple[CitedAnswer, int]:
    """``answer`` less its prose sentences whose number their cited pages (uid -> text in
    ``pages``) give to another measure only, with the footnotes only they marked; and how
    many went."""
    wrong = []
    for sentence in split_sentences(answer.body):
        if sentence.in_table or not sentence.markers:
            continue
        texts = cited_pages(answer, sentence, pages, "")
        if given_to_another(MARKER_RE.sub(" ", sentence.text), texts, question):
            wrong.append(sentence)
    return without_sentences(answer, wrong)
