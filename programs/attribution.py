"""Citations by code for the sentences a model wrote without one.

A small model often writes a sound sentence from a passage and leaves its citation out (or
copies a Sources line with no mark in the prose); the protocol then drops the sentence as
uncited, and a right answer ends as "insufficient evidence". Which page holds a sentence is
a question code can answer: the retrieved page on which every number of the sentence
appears (as the numeric-grounding metric reads numbers: format and scale normalised) and
most of its content words do. A sentence no retrieved page supports that well stays
uncited; if it states a number, it goes (:func:`drop_uncited_numbers`): a number in a
report is cited or absent, and one that no retrieved page prints is most often the small
model's own arithmetic or a figure of another period.

A short amount ("$6.7 million") needs the page to print it as an amount: with a currency
sign or a scale word, or under a table heading that gives the scale ("in millions"). A
bare "(6.7)" on a page that names no scale is a percentage point or a per-share figure as
often as money, and citing it would lend a wrong sentence a page.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache

from citations.markup import Citation, CitedAnswer, Footnote, ReferenceList, render_marker
from citations.sentences import (
    cited_pages,
    split_sentences,
    uncited_prose,
    without_marks,
    without_uncited,
    without_units,
)
from metrics.answer_verdicts import yes_no_polarity
from metrics.numbers import NumberIndex, NumberToken, extract_numbers, readings, token_matches
from textnorm.stemming import stem
from textnorm.stopwords import ANSWER_STOPWORDS

#: Share of a sentence's content words a page must hold to be cited for it. A sentence
#: without numbers must be near-verbatim and long enough to tell pages apart (a bag of
#: three common words, "management guided growth", is on many pages and proves nothing);
#: one with numbers, all of them on the page, needs fewer words, and none when one of its
#: numbers has three digits or more ("4,817.3" on a page is rarely a coincidence, "5%" is).
WORDS_WITHOUT_NUMBERS = 0.8
MIN_WORDS_WITHOUT_NUMBERS = 6
WORDS_WITH_NUMBERS = 0.4
DISTINCT_DIGITS = 3
#: A sentence without numbers that restates its question is cited where every word it adds
#: (at least two: one name alone, "Pharmaceutical", is a guess among a page's several) and
#: at least half of the words it restates (two or more) are on the page.
MIN_ADDED_WORDS = 2
RESTATED_WORDS = 0.5
#: How far a sentence's figure may sit from the page's to be cited to it, beyond the
#: rounding its own digits allow ("$1.5 billion" for 1,486 million): none. The metric's 1%
#: grounding tolerance let a made-up "$1,478.5 million" of revenue per employee be cited
#: to a segment table printing 1,486, a number it is not.
_EXACT = 0.0
_UNIT_WORDS = frozenset("million millions billion billions thousand thousands percent".split())
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’&-]{2,}")
#: A page's statement of the scale its bare figures are in: "(in millions)", "$ in
#: thousands", "(Millions, except per share amounts)", "in billions of dollars".
_SCALE_HEADING = re.compile(
    r"\bin\s+(?:u\.?s\.?\s+)?(?:dollars\s+)?(?:thousands|millions|billions)\b|"
    r"\(\s*(?:\$|usd|dollars)?\s*(?:in\s+)?(?:thousands|millions|billions)\b",
    re.IGNORECASE,
)


def content_words(text: str) -> frozenset[str]:
    """The stems of ``text``'s words of three letters or more, stopwords left out."""
    return frozenset(
        stem(w)
        for w in _WORD_RE.findall(text)
        if w.lower() not in ANSWER_STOPWORDS and w.lower() not in _UNIT_WORDS
    )


@lru_cache(maxsize=256)
def _page_index(text: str) -> tuple[frozenset[str], NumberIndex]:
    return content_words(text), NumberIndex.from_text(text)


def page_words(text: str) -> frozenset[str]:
    """The content words (:func:`content_words`) of a page's ``text``, cached."""
    return _page_index(text)[0]


def _is_distinct(number: NumberToken) -> bool:
    """Written with three digits or more: on a page, rarely there by coincidence."""
    return sum(c.isdigit() for c in number.raw) >= DISTINCT_DIGITS


def _is_short_amount(number: NumberToken) -> bool:
    """Money or a scaled quantity written with fewer than three digits ("$6.7 million")."""
    amount = (number.currency or number.scale != 1.0) and not number.percent
    return amount and not _is_distinct(number)


def printed_as_amount(number: NumberToken, text: str) -> bool:
    """Whether ``text`` prints ``number`` as an amount: a matching figure of its own with a
    currency sign or scale word, or any matching figure on a page that states its scale."""
    if _SCALE_HEADING.search(text):
        return NumberIndex.from_text(text).matches(number, rel_tol=_EXACT)
    return any(
        (found.currency or found.scale != 1.0)
        and token_matches(number, readings(found), rel_tol=_EXACT)
        for found in extract_numbers(text)
    )


def share_of(words: frozenset[str], page_words: frozenset[str]) -> float:
    """The share of ``words`` that ``page_words`` holds (1.0 of none)."""
    return len(words & page_words) / len(words) if words else 1.0


def _answers_on_page(
    words: frozenset[str], asked: frozenset[str], page_words: frozenset[str]
) -> bool:
    """Whether a sentence without numbers that restates its question holds on the page:
    every word it adds to the question's (its answer: "the Consumer Health segment") is
    there, as are at least half of the words it takes from the question, two or more. The
    restated words are the model's paraphrase of the question ("will be treated …
    onward"), which a page words its own way; the added words are the claim. A sentence
    that restates nothing of the question is no answer to it, and is held to the
    near-verbatim rule."""
    added, restated = words - asked, words & asked
    found = len(restated & page_words)
    return (
        len(added) >= MIN_ADDED_WORDS
        and share_of(added, page_words) >= WORDS_WITHOUT_NUMBERS
        and found >= MIN_ADDED_WORDS
        and found >= RESTATED_WORDS * len(restated)
    )


def supporting_page(sentence: str, pages: Mapping[str, str], question: str = "") -> str | None:
    """The uid of the page (uid -> text) that best supports ``sentence``, or None.

    ``question`` (the probe's) lets a sentence without numbers that restates it be cited to
    the page that holds what it adds (:func:`_answers_on_page`)."""
    words, numbers = content_words(sentence), extract_numbers(sentence)
    asked = content_words(question) if question and not numbers else frozenset()
    if not numbers and len(words) < MIN_WORDS_WITHOUT_NUMBERS and not asked:
        return None
    distinct = any(_is_distinct(n) for n in numbers)
    need = 0.0 if distinct else WORDS_WITH_NUMBERS if numbers else WORDS_WITHOUT_NUMBERS
    if numbers and not distinct:
        # A short number is on many pages; the words must say what it is, and a word every
        # candidate page holds (the company's name, "ended") says nothing: Apple's made-up
        # "$1.0 billion in goodwill" had been cited to a page printing "1,003", on the words
        # "Apple" and "end" alone.
        words -= _on_every_page(pages)
        if not words:
            return None
    best: tuple[float, str] | None = None
    for uid, text in pages.items():
        on_page, page_numbers = _page_index(text)
        if not all(page_numbers.matches(n, rel_tol=_EXACT) for n in numbers):
            continue
        if not all(printed_as_amount(n, text) for n in numbers if _is_short_amount(n)):
            continue
        share = share_of(words, on_page)
        near_verbatim = share >= need and len(words) >= (
            0 if numbers else MIN_WORDS_WITHOUT_NUMBERS
        )
        if not near_verbatim and not (asked and _answers_on_page(words, asked, on_page)):
            continue
        if best is None or share > best[0]:
            best = (share, uid)
    return best[1] if best else None


def _on_every_page(pages: Mapping[str, str]) -> frozenset[str]:
    """The content words every one of two or more ``pages`` holds; none for one page."""
    if len(pages) < 2:
        return frozenset()
    return frozenset.intersection(*(_page_index(text)[0] for text in pages.values()))


def _cite_uncited(body: str, markers_for: Callable[[str], list[int]]) -> tuple[str, int]:
    """``body`` with a marker after each uncited sentence that ``markers_for`` (sentence
    text -> citation numbers, empty for none) cites, and how many got one."""
    out, added, shift = body, 0, 0
    for sentence in split_sentences(body):
        numbers = [] if sentence.markers else markers_for(sentence.text)
        if not numbers:
            continue
        marker = render_marker(numbers)
        at = sentence.end + shift
        out = out[:at] + marker + out[at:]
        shift += len(marker)
        added += 1
    return out, added


def _cite_pages(
    answer: CitedAnswer,
    pages_for: Callable[[str], list[str]],
    citations: Mapping[str, Citation],
) -> tuple[CitedAnswer, int]:
    """``answer`` with a marker after each uncited sentence for the pages ``pages_for``
    (sentence text -> page uids, empty for none) gives it, each page numbered once among
    the answer's footnotes (a new one after the last), and how many sentences got one."""
    number_of = {f.citation.uid: f.number for f in answer.references.footnotes}
    footnotes = list(answer.references.footnotes)

    def numbered(sentence: str) -> list[int]:
        uids = [uid for uid in pages_for(sentence) if uid in citations]
        for uid in uids:
            if uid not in number_of:
                number_of[uid] = max(number_of.values(), default=0) + 1
                footnotes.append(Footnote(number=number_of[uid], citation=citations[uid]))
        return [number_of[uid] for uid in uids]

    body, added = _cite_uncited(answer.body, numbered)
    if not added:
        return answer, 0
    update = {"body": body, "references": ReferenceList(footnotes=footnotes)}
    return answer.model_copy(update=update), added


def attribute_uncited(
    answer: CitedAnswer,
    pages: Mapping[str, str],
    citations: Mapping[str, Citation],
    question: str = "",
) -> tuple[CitedAnswer, int]:
    """``answer`` with a citation after each uncited sentence that a page supports
    (``pages``: uid -> text; ``citations``: uid -> how to cite it; ``question``: what the
    answer answers, see :func:`supporting_page`), and how many got one."""

    def page_of(sentence: str) -> list[str]:
        uid = supporting_page(sentence, pages, question)
        return [] if uid is None else [uid]

    return _cite_pages(answer, page_of, citations)


def uncite_unprinted(answer: CitedAnswer, pages: Mapping[str, str]) -> tuple[CitedAnswer, int]:
    """``answer`` with the citation marks removed from each sentence that states an amount
    (three digits or more, not a percentage) none of its cited pages prints, under any
    scale reading and within rounding; and how many lost their marks. Such a sentence is
    cited afresh to the retrieved page that prints its numbers, if one does
    (:func:`attribute_uncited`), and otherwise goes as an uncited number does. Asked Boston
    Properties' FY2015 funds from operations, the draft cited "$139,569 thousand" to the
    auditor's report, a page that prints no such figure; the FFO table that does was
    among the retrieved pages."""
    miscited = []
    for sentence in split_sentences(answer.body):
        if sentence.in_table or not sentence.markers:
            continue
        amounts = [n for n in extract_numbers(sentence.text) if _is_distinct(n) and not n.percent]
        texts = [t for t in cited_pages(answer, sentence, pages, None) if t is not None]
        if not amounts or len(texts) < len(sentence.markers):
            continue  # a page this check cannot read (code's own, a finding): left alone
        indexes = [_page_index(text)[1] for text in texts]
        if any(not any(index.matches(n) for index in indexes) for n in amounts):
            miscited.append(sentence)
    if not miscited:
        return answer, 0
    body = without_marks(answer.body, miscited)
    return answer.model_copy(update={"body": body}).cited_only(), len(miscited)


def attribute_to_findings(answer: CitedAnswer, findings: CitedAnswer) -> tuple[CitedAnswer, int]:
    """``answer``, written from ``findings`` in their numbering, with each uncited sentence
    given the markers of the cited finding sentence that says the same (its numbers and
    most of its words, as :func:`supporting_page` asks of a page), and how many got them.

    A composer that restates a finding and forgets its mark then keeps the sentence, cited
    as the finding is, instead of losing it as uncited."""
    listed = set(findings.references.by_number())
    cited = [s for s in split_sentences(findings.body) if set(s.markers) & listed]
    texts = {str(i): s.text for i, s in enumerate(cited)}

    def finding_cited(sentence: str) -> list[int]:
        key = supporting_page(sentence, texts)
        return [] if key is None else [m for m in cited[int(key)].markers if m in listed]

    body, added = _cite_uncited(answer.body, finding_cited)
    if not added:
        return answer, 0
    return answer.model_copy(update={"body": body}), added


def attribute_to_figure(
    answer: CitedAnswer,
    value: str,
    pages: Mapping[str, str],
    citations: Mapping[str, Citation],
) -> tuple[CitedAnswer, int]:
    """``answer`` with the pages of code's figure cited after each uncited sentence that
    states it, and how many got them. The figure (``value``, as code states it: "44.2%")
    was computed from statement facts on ``pages`` (uid -> text) and shown to the model as
    a calculation; a sentence that repeats it ("capital expenditure was 44.2% of revenue")
    is printed on no page, so :func:`attribute_uncited` cannot cite it, and the sentence
    that answers the question went as an uncited number. A sentence qualifies when it
    states the figure and every other number it states is printed on those pages (the
    inputs: "$9.6 billion" of capex)."""
    cited = [uid for uid in pages if uid in citations]
    figure = NumberIndex.from_text(value)
    if not cited or not extract_numbers(value):
        return answer, 0

    def figure_pages(sentence: str) -> list[str]:
        numbers = extract_numbers(sentence)
        if not any(figure.matches(n, rel_tol=_EXACT) for n in numbers):
            return []
        for number in numbers:
            if figure.matches(number, rel_tol=_EXACT):
                continue
            if not any(_page_index(pages[uid])[1].matches(number, rel_tol=_EXACT) for uid in cited):
                return []
        return cited

    return _cite_pages(answer, figure_pages, citations)


def drop_uncited_numbers(answer: CitedAnswer) -> tuple[CitedAnswer, int]:
    """``answer`` less the prose sentences that state a number and cite no page (table rows
    and headings stay), and how many went."""

    def states_a_number(text: str) -> bool:
        return bool(extract_numbers(text))

    dropped = len(uncited_prose(answer.body, states_a_number))
    if not dropped:
        return answer, 0
    body = without_uncited(answer.body, states_a_number)
    return answer.model_copy(update={"body": body}), dropped


def drop_uncited_after_opening(answer: CitedAnswer) -> tuple[CitedAnswer, int]:
    """``answer`` less its uncited prose after the first sentence, and how many went. The
    opening may be the direct answer ("Yes, …"), which the cited sentences after it support,
    and so may a later "Yes"/"No" (a draft saying both is sent back for it,
    ``programs.draft_checks``); anything else left uncited (no retrieved page holds it) is the
    model's own ("One possible reason could be …"): in a report whose every claim points at
    a page it is no finding."""
    prose = [s for s in split_sentences(answer.body) if not s.in_table and s.text.strip()]
    opening = prose[0].start if prose else -1
    dropped = [
        s
        for s in uncited_prose(answer.body)
        if s.start != opening and yes_no_polarity(s.text) is None
    ]
    if not dropped:
        return answer, 0
    body = without_units(answer.body, dropped).strip()
    return answer.model_copy(update={"body": body}), len(dropped)
