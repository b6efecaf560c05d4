"""Reading an answer and a gold answer as words, for ``judge_answer``.

A textual gold is matched by its content words rather than its wording: stemmed words
without stopwords (``U.S.`` = ``US``, ``flat`` = ``unchanged``), variants of one word
(``inventor``/``inventory``), recall of the gold's key facts or of its headline claim, and
the opening or first sentence where an answer states what it is about. The other
``metrics.answer_*`` modules build on these readings.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from textnorm import ANSWER_STOPWORDS, stem

# Long gold answers list more detail than a correct answer needs: recall of this many key
# facts is enough.
KEY_FACTS = 8


def gold_text(gold: Any) -> str:
    if isinstance(gold, float) and gold.is_integer():
        return str(int(gold))
    return str(gold).strip()


_ACRONYM_RE = re.compile(r"\b(?:[A-Za-z]\.){2,}")


def _undot_acronyms(text: str) -> str:
    """``U.S.`` -> ``US``: gold and answers spell abbreviations both ways."""
    return _ACRONYM_RE.sub(lambda m: m.group().replace(".", ""), text)


# ``Flat`` growth said another way: unchanged, no real change, in line with the prior year, 0%.
_FLAT_RE = re.compile(
    r"\b(?:flat|unchanged|no\s+(?:real\s+|significant\s+|material\s+|meaningful\s+)?change"
    r"|in\s+line\s+with\s+(?:the\s+)?(?:prior|previous|last)|remained\s+(?:stable|steady"
    r"|constant|level))\b|(?<![\d.])0(?:\.0+)?\s?%",
    re.IGNORECASE,
)


@lru_cache(maxsize=1024)
def content_words(text: str) -> frozenset[str]:
    """Stemmed content words, without stopwords and numbers (cached: one answer is read for
    its key facts, headline and opening)."""
    words = re.findall(r"[A-Za-z][A-Za-z&'’-]*", _undot_acronyms(text))
    # a compound's parts are words too: "capital-intensive" says "intensive"
    words += [part for w in words if "-" in w for part in w.split("-") if part]
    found = {stem(w) for w in words if w.lower() not in ANSWER_STOPWORDS and len(w) > 1}
    if _FLAT_RE.search(text):
        found.add("flat")
    return frozenset(found)


def opening_sentences(text: str, n: int = 2) -> str:
    """The first ``n`` real sentences (``Sure!`` and other short openers skipped)."""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+|\n+", text.strip()) if len(s.split()) >= 4]
    return " ".join(sentences[:n])


# Words a gold uses to frame a fact rather than state one (``a global leader in packaging
# production for various use cases``): an answer need not repeat them.
FILLER = frozenset(
    stem(w)
    for w in (
        "global", "leader", "leading", "various", "variety", "use", "uses", "case", "cases",
        "wide", "range", "several", "multiple", "many", "number", "numerous", "diverse",
    )
)  # fmt: skip


# Two stems name one word when they share a prefix this long and covering this share of the
# shorter (``inventor``/``inventory``, ``produc``/``production``; not ``compan``/``compar``).
SHARED_PREFIX = 6
SHARED_SHARE = 0.8


@lru_cache(maxsize=1024)
def _by_prefix(words: frozenset[str]) -> dict[str, tuple[str, ...]]:
    index: dict[str, list[str]] = {}
    for w in words:
        if len(w) >= SHARED_PREFIX:
            index.setdefault(w[:SHARED_PREFIX], []).append(w)
    return {k: tuple(v) for k, v in index.items()}


def word_found(word: str, words: frozenset[str]) -> bool:
    """Is ``word`` in ``words``, allowing for the light stemmer's variants of one word?"""
    if word in words:
        return True
    if len(word) < SHARED_PREFIX:
        return False
    for other in _by_prefix(words).get(word[:SHARED_PREFIX], ()):
        shorter = min(len(word), len(other))
        shared = next((i for i in range(shorter) if word[i] != other[i]), shorter)
        if shared >= SHARED_SHARE * shorter:
            return True
    return False


def key_fact_overlap(answer: str, gold: str, question: str | None = None) -> float:
    """Weighted recall of the gold's content words in the answer, saturating at KEY_FACTS.

    Gold words that repeat the question count half: they are rarely the fact asked for, but
    sometimes they are (the question lists options and the gold picks one).
    """
    gold_words = content_words(gold)
    if not gold_words:
        return 0.0
    asked = content_words(question) if question else set()
    found = content_words(answer)
    weight = {w: (0.5 if w in asked else 1.0) for w in gold_words}
    total = sum(weight.values())
    hit = sum(v for w, v in weight.items() if word_found(w, found))
    return min(1.0, hit / min(total, KEY_FACTS))


def headline(gold: str) -> str:
    """The gold's main claim: its first sentence of substance (a bare ``Yes.`` is skipped).

    Later sentences add detail (``The US government accounted for 40% of revenues``) that a
    correct answer need not repeat.
    """
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", gold.strip()) if s]
    for sentence in sentences:
        if len(sentence.split()) >= 4:
            return sentence
    return gold.strip()


def headline_recall(answer: str, gold: str, question: str | None = None) -> float:
    """Recall of the headline's new words (those the question does not already contain).

    An answer that states the main claim is right even when it skips the gold's detail; words
    echoing the question prove nothing, so they do not count, and at least two must remain.
    """
    asked = content_words(question) if question else set()
    new = content_words(headline(gold)) - asked - FILLER
    if len(new) < 2:
        return 0.0
    found = content_words(answer)
    return sum(word_found(w, found) for w in new) / len(new)


def first_sentence(text: str) -> str:
    """The answer's first real sentence: ``Sure!`` and similar openers are skipped."""
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", text.strip()):
        if len(sentence.split()) >= 4:
            return sentence
    return text.strip()
