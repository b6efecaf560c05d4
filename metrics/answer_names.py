"""Golds that name things, for ``judge_answer``: a list of items, or one name.

A list gold (``Trillium, Array, and Therachon``) is met by naming every item (a region
acronym by its spelled-out words: ``EMEA`` = Europe … Africa); a one-name gold (``Customer
deposits``) must be named as the answer, not in passing among other figures.
"""

from __future__ import annotations

import re

from metrics.answer_verdicts import restates_question, yes_no_polarity
from metrics.answer_words import content_words, opening_sentences
from metrics.claims import conclusion, sentence_spans

# Regions that filings name by acronym and answers spell out (or the reverse).
# The words that must be present: the defining ones (``Europe … Africa`` is EMEA).
REGION_ACRONYMS: dict[str, tuple[str, ...]] = {
    "emea": ("europ", "africa"),
    "apac": ("asia", "pacific"),
    "latam": ("latin", "america"),
    "lacc": ("latin", "america"),
}
_LIST_GOLD_RE = re.compile(r"[^,.;:]{1,40}(?:,\s*[^,.;:]{1,40}){0,5},?\s+and\s+[^,.;:]{1,40}\.?")


def gold_items(gold: str) -> list[str]:
    """The items of a gold that is a short list (``Trillium, Array, and Therachon``), else
    none. Each item is a name of at most four words."""
    text = gold.strip()
    if not _LIST_GOLD_RE.fullmatch(text) or yes_no_polarity(text) is not None:
        return []
    items = [
        i.strip() for i in re.split(r",\s*(?:and\s+)?|\s+and\s+", text.rstrip(".")) if i.strip()
    ]
    if len(items) < 2 or any(len(i.split()) > 4 for i in items):
        return []
    return items


def _item_named(item: str, answer_words: frozenset[str], asked: frozenset[str]) -> bool:
    """Is a list item in the answer: its own words, or for a region acronym its spelled-out
    words (``EMEA`` = Europe, Middle East and Africa)?"""
    words = content_words(item) - asked or content_words(item)
    if words <= answer_words:
        return True
    expansion = REGION_ACRONYMS.get(item.lower())
    parts = {p for w in answer_words for p in w.split("-")}  # Asia-Pacific
    return bool(expansion) and all(any(w.startswith(p) for w in parts) for p in expansion)


def list_recall(answer: str, items: list[str], question: str | None = None) -> float:
    """Share of a list gold's items the answer names, halved unless it names them all:
    people mark a list with an item missing or swapped wrong."""
    asked = content_words(question) if question else frozenset()
    words = content_words(answer)
    share = sum(_item_named(i, words, asked) for i in items) / len(items)
    return share if share == 1 else share / 2


# A gold this short is a name (``Data Center``, ``Customer deposits``), not an explanation.
ENTITY_WORDS = 4


def entity_in_focus(text: str, gold: str, question: str | None) -> bool:
    """A short gold names one thing (``Customer deposits``): the answer must name it as its
    answer (in its opening, its conclusion, or a sentence taking up the question), not list
    it in passing among other figures. True when the rule does not apply."""
    words = content_words(gold) - (content_words(question) if question else frozenset())
    if not words or len(gold.split()) > ENTITY_WORDS or yes_no_polarity(gold) is not None:
        return True
    if re.search(r",|\band\b|&", gold):
        return True  # a list: each item may sit in its own bullet
    if not words <= content_words(text):
        return True  # not named at all: key-fact overlap already says so
    focus = [opening_sentences(text), conclusion(text) or ""]
    focus += [text[a:b] for a, b in sentence_spans(text) if restates_question(text[a:b], question)]
    return any(words <= content_words(part) for part in focus)
