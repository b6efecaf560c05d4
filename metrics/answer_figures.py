"""The gold's figures in an answer, for ``judge_answer``.

A figure is stated when the answer gives the same quantity under some reading of scale
(millions vs billions), percent vs ratio, within a relative tolerance or the precision
either side rounded to. Also here: which gold figures an answer must state (the headline's,
outside parentheses), a figure contradicting the gold's for the same quantity, the change
between two gold figures, and how figures left out weigh on a textual gold's score.
"""

from __future__ import annotations

import re
from typing import Any

from metrics._inputs import report_text
from metrics.answer_words import gold_text, headline
from metrics.numbers import NumberIndex, NumberToken, extract_numbers, readings
from textnorm import ANSWER_STOPWORDS, stem

# A headline gold figure left out, when the question asks for a figure.
MISSING_NUMBER_FACTOR = 0.5
# Figure tolerance: 1% relative, or the precision either side rounded to. A question that asks
# to round to N decimals wants that figure: people mark 64.09 wrong for 63.86 and 65.2% for
# 65.4%, but not 65.3%, so such golds get 0.25% (the gold's own rounding still widens it).
ROUNDED_REL_TOL = 0.0025
TEXT_REL_TOL = 0.01
# A gold figure that is only detail (later sentence, parenthesis) and is left out.
MISSING_DETAIL_FACTOR = 0.75


def is_numeric_gold(gold: Any) -> bool:
    """Gold answers that are just a number (possibly with $, %, commas, a scale word)."""
    if isinstance(gold, int | float):
        return True
    text = gold_text(gold)
    return bool(re.fullmatch(r"[-−(]?\$?\s?[\d,]*\.?\d+\)?\s?(%|[A-Za-z]{0,8})?\.?", text))


def gold_numbers(gold: Any) -> list[NumberToken]:
    """The gold's figures: a numeric gold's one number, else every number it states."""
    text = gold_text(gold)
    if is_numeric_gold(gold):
        return extract_numbers(text, keep_identifiers=True)[:1]
    return extract_numbers(text)


def _gold_candidates(token: NumberToken) -> list[float]:
    """Values an answer may legitimately state for a gold number (scale, percent/ratio)."""
    vals = set(readings(token))
    base = abs(token.value)
    if not token.percent and base < 5:
        vals.add(base * 100)  # ratio gold 0.165 vs "16.5%"
    if token.percent:
        vals.add(base / 100)
    return sorted(vals)


def number_found(gold_token: NumberToken, tokens: list[NumberToken], rel_tol: float = 0.01) -> bool:
    """Does any answer number state the gold quantity?

    Either side may have rounded: the gold's own precision widens the window relatively
    (gold ``0.4`` billion accepts ``$389 million``; a whole number is rounded too, so gold
    ``20%`` accepts ``20.5%``), and the answer's precision widens it
    around the answer's value as written (capped at 5%), as ``metrics.numbers`` does.
    """
    g = abs(gold_token.value)
    rel = rel_tol
    if g:
        rel = max(rel, 0.5 * 10 ** (-gold_token.decimals) / g)
    index = NumberIndex(_gold_candidates(gold_token))
    for tok in tokens:
        if index.matches(tok, rel_tol=rel_tol, rounding=True):
            return True
        for cand in index.values:
            if any(abs(r - cand) <= rel * cand + 1e-12 for r in readings(tok)):
                return True
    return False


def key_numbers(gold: str, tokens: list[NumberToken]) -> list[NumberToken]:
    """Gold figures an answer must state: those in the headline, outside parentheses."""
    main = headline(gold)
    start = gold.find(main)
    end = start + len(main)
    return [
        t for t in tokens
        if start <= t.start < end and not _in_parentheses(gold, t.start)
    ]  # fmt: skip


def gold_figures(gold: Any) -> list[NumberToken]:
    """The figures a correct answer must state: a numeric gold's number, or the numbers in a
    textual gold's headline outside parentheses (empty when the gold states none)."""
    tokens = gold_numbers(gold)
    return tokens if is_numeric_gold(gold) else key_numbers(gold_text(gold), tokens)


def states_gold_figures(text: str, gold: Any) -> bool | None:
    """Whether ``text`` states every figure of the gold (None: the gold states none)."""
    figures = gold_figures(gold)
    if not figures:
        return None
    tokens = extract_numbers(report_text(text))
    return all(number_found(g, tokens) for g in figures)


def _in_parentheses(text: str, pos: int) -> bool:
    """``… operating activities ($1.8 bn)``: an aside, not the fact asked for."""
    return text.rfind("(", 0, pos) > text.rfind(")", 0, pos)


def number_adjusted(
    overlap: float,
    gold_tokens: list[NumberToken],
    found: list[NumberToken],
    headline_numbers: bool,
    yes_no: bool,
) -> float:
    """Blend key-fact overlap with the share of gold figures the answer states.

    A gold figure left out matters most when it is the headline fact of a question that asks
    for a figure; a figure in the gold's later detail, or one supporting the verdict of a
    yes/no question, matters less or not at all.
    """
    if not gold_tokens:
        return overlap
    share = len(found) / len(gold_tokens)
    score = max(overlap, 0.35 * overlap + 0.65 * share)
    if share == 0 and not yes_no:
        score *= MISSING_NUMBER_FACTOR if headline_numbers else MISSING_DETAIL_FACTOR
    return score


_HEDGES = {"approximately", "about", "around", "roughly", "nearly", "almost", "circa", "some"}


def _kind(token: NumberToken) -> str:
    """Percent, money (currency sign or scale word) or a plain number such as a ratio."""
    if token.percent:
        return "percent"
    return "money" if token.currency or token.scale > 1 else "plain"


def _quantity_words(text: str, start: int, n_words: int) -> set[str]:
    """Stemmed content words just before a number: what the number is a value of."""
    before = re.split(r"[.;!?\n](?:\s|$)", text[max(0, start - 120) : start])[-1]
    words = re.findall(r"[A-Za-z][A-Za-z&'’-]*", before)
    kept = [w for w in words if w.lower() not in ANSWER_STOPWORDS | _HEDGES and len(w) > 1]
    return {stem(w) for w in kept[-n_words:]}


_THRESHOLD_BEFORE_RE = re.compile(
    r"\b(?:above|below|over|under|exceeds?|exceeding|than|least|most|around|of\s+at)\s*[$]?$",
    re.IGNORECASE,
)


def conflicting_number(
    gold: str,
    gold_token: NumberToken,
    answer: str,
    tokens: list[NumberToken],
    question: str | None = None,
) -> bool:
    """Does the answer give another value for the quantity the gold number measures?

    ``positive working capital of $831 million`` vs ``working capital of $2,278 million``:
    both name the quantity (two shared words before the number) with a different value.
    Benchmarks (``a quick ratio above 1``) and numbers the question itself states are not
    claims about the quantity.
    """
    label = _quantity_words(gold, gold_token.start, 4)
    if len(label) < 2:
        return False
    asked = extract_numbers(question or "")
    for tok in tokens:
        if _kind(tok) != _kind(gold_token) or _THRESHOLD_BEFORE_RE.search(
            answer[max(0, tok.start - 30) : tok.start]
        ):
            continue
        if any(number_found(q, [tok]) for q in asked):
            continue
        if len(label & _quantity_words(answer, tok.start, 6)) >= 2:
            return True
    return False


_CHANGE_ASKED_RE = re.compile(r"\b(?:chang\w*|differ\w*|increas\w*|decreas\w*|mov\w*)\b", re.I)


def changed_figures(
    gold_tokens: list[NumberToken], tokens: list[NumberToken], question: str | None
) -> list[NumberToken]:
    """Asked how much a figure changed, the gold gives both ends (``from 20% to 23%``) and the
    answer may give the change (``increased by 3%``): both ends count as stated."""
    if not (question and _CHANGE_ASKED_RE.search(question)):
        return []
    out: list[NumberToken] = []
    for i, a in enumerate(gold_tokens):
        for b in gold_tokens[i + 1 :]:
            if a.percent != b.percent or a.value == b.value:
                continue
            delta = NumberToken(
                raw="", value=abs(b.value - a.value), start=0, end=0, percent=a.percent,
                decimals=max(a.decimals, b.decimals),
            )  # fmt: skip
            if any(t.percent == a.percent and number_found(delta, [t]) for t in tokens):
                out += [a, b]
    return out
