"""Answer correctness against a gold answer, FinanceBench style, with general rules only.

* Refusals ("I'm sorry, the provided context does not include…", "As an AI, I don't have
  access…", "insufficient evidence") are never correct, whatever numbers they mention.
* Numeric gold (``1577``, ``$1577.00``, ``24.26%``, ``0.66``): correct when the answer states
  the same quantity under some reading of scale (millions vs billions), percent vs ratio,
  within 1% relative or the precision either side rounded to. The answer's conclusion (its
  last numbers) weighs more than intermediate numbers.
* Textual gold: key-fact overlap (content words, stemming-lite, gold numbers found) plus
  yes/no polarity when the gold starts with Yes/No.

``judge_answer`` returns a small result object (label, score, reason); ``answer_correctness``
is the DSPy metric returning its score.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel

from metrics._inputs import field, report_text
from metrics.numbers import NumberIndex, NumberToken, extract_numbers, readings
from signatures.citations import parse_cited_answer

Label = Literal["correct", "incorrect", "refusal"]
# Long gold answers list more detail than a correct answer needs: recall of this many key
# facts is enough.
KEY_FACTS = 8
MISSING_NUMBER_FACTOR = 0.5
# A hedging opening is outweighed when the answer still states the key facts.
REFUSAL_OVERRIDE = 0.9

_REFUSAL_RE = re.compile(
    r"""
    \b(?:i\s*(?:'m|am)\s+sorry|i\s+apologi[sz]e|unfortunately)\b
    | \bas\s+an\s+ai\b | \bai\s+(?:language\s+)?model\b | \bmy\s+(?:last\s+)?(?:knowledge|training)
    | \b(?:i|we)\s+(?:do\s+not|don't|cannot|can't|can\s*not|am\s+unable\s+to|was\s+unable\s+to
        |am\s+not\s+able\s+to)\s+(?:have\s+)?(?:access|provide|determine|calculate|find|answer
        |compute|give|say|confirm|assess|locate|identify|browse|pull|retrieve)
    | \b(?:does|do|did)\s+not\s+(?:contain|include|provide|mention|specify|state|disclose|give
        |offer|have|appear\s+to\s+(?:contain|include|provide))\b
    | \b(?:is|are|was|were)\s+not\s+(?:provided|included|available|mentioned|specified|given
        |disclosed|present|explicitly)\b
    | \bno\s+(?:specific\s+|explicit\s+|direct\s+|relevant\s+)?
        (?:information|data|details|mention)\b
    | \binsufficient\s+(?:evidence|information|data)\b | \bnot\s+enough\s+(?:information|data)\b
    | \bwould\s+need\s+(?:to|access|the|more)\b | \bnot\s+possible\s+to\s+(?:determine|calculate)\b
    | \bunable\s+to\s+(?:determine|calculate|provide|find|answer)\b
    | \bimpossible\s+to\b | \bi\s+(?:do\s+not|don't)\s+know\b | \bplease\s+provide\b
    | \b(?:don't|do\s+not)\s+have\s+(?:enough|sufficient|the\s+(?:specific|necessary|required))\b
    | \bcannot\s+be\s+(?:directly\s+)?(?:determined|calculated|answered|computed|found)\b
    | \bnot\s+(?:directly|explicitly)\s+(?:stated|provided|mentioned|given|available)\b
    | \bwithout\s+(?:the\s+)?(?:specific|necessary|additional|access|more)\b
    | \b(?:does|do)\s+not\s+(?:explicitly|directly|specifically)\s+(?:state|provide|mention)
    """,
    re.IGNORECASE | re.VERBOSE,
)
_STOPWORDS = set(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "from",
        "by",
        "with",
        "and",
        "or",
        "but",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "which",
        "who",
        "whom",
        "what",
        "when",
        "where",
        "how",
        "than",
        "then",
        "there",
        "their",
        "they",
        "them",
        "has",
        "have",
        "had",
        "do",
        "does",
        "did",
        "not",
        "no",
        "yes",
        "so",
        "such",
        "also",
        "into",
        "over",
        "under",
        "about",
        "per",
        "fy",
        "fiscal",
        "year",
        "years",
        "company",
        "company's",
        "s",
        "inc",
        "corp",
        "based",
        "data",
        "as",
        "of",
        "can",
        "could",
        "would",
        "should",
        "will",
        "may",
        "might",
        "very",
        "more",
        "most",
        "less",
        "least",
        "other",
        "any",
        "all",
        "each",
        "both",
        "only",
        "just",
        "same",
        "own",
    ]
)
_NEGATION_RE = re.compile(
    r"\b(?:no|not|never|none|neither|nor|doesn't|don't|didn't|isn't|aren't|wasn't|weren't|"
    r"hasn't|haven't|cannot|can't|without|negative|decline|declined|decrease|decreased)\b",
    re.IGNORECASE,
)


class AnswerJudgement(BaseModel):
    label: Label
    score: float
    reason: str


def _gold_text(gold: Any) -> str:
    if isinstance(gold, float) and gold.is_integer():
        return str(int(gold))
    return str(gold).strip()


_SUFFIXES = (
    "ational", "ations", "ation", "ating", "ated", "ates", "ments", "ment", "ings", "ing",
    "ities", "ity", "ies", "ied", "ed", "es", "ly", "al", "s", "e",
)  # fmt: skip


def _stem(word: str) -> str:
    """Stemming-lite: ``operating``, ``operations``, ``operational`` -> ``oper``."""
    word = word.lower().strip("'’").removesuffix("'s").removesuffix("’s")
    for _ in range(2):
        for suffix in _SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                word = word[: -len(suffix)]
                break
    return word


def content_words(text: str) -> set[str]:
    """Stemmed content words, without stopwords and numbers."""
    words = re.findall(r"[A-Za-z][A-Za-z&'’-]*", text)
    return {_stem(w) for w in words if w.lower() not in _STOPWORDS and len(w) > 1}


def is_refusal(answer: str) -> bool:
    """An answer that declines, or says the evidence is missing, rather than answering.

    Only the opening counts: a long answer that hedges late has already answered.
    """
    return bool(_REFUSAL_RE.search(answer.strip()[:400]))


def is_numeric_gold(gold: Any) -> bool:
    """Gold answers that are just a number (possibly with $, %, commas, a scale word)."""
    if isinstance(gold, int | float):
        return True
    text = _gold_text(gold)
    return bool(re.fullmatch(r"[-−(]?\$?\s?[\d,]*\.?\d+\)?\s?(%|[A-Za-z]{0,8})?\.?", text))


def _gold_tokens(gold: Any) -> list[NumberToken]:
    text = _gold_text(gold)
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
    (gold ``0.4`` billion accepts ``$389 million``), and the answer's precision widens it
    around the answer's value as written (capped at 5%), as ``metrics.numbers`` does.
    """
    g = abs(gold_token.value)
    rel = rel_tol
    if gold_token.decimals and g:
        rel = max(rel, 0.5 * 10 ** (-gold_token.decimals) / g)
    index = NumberIndex(_gold_candidates(gold_token))
    for tok in tokens:
        if index.matches(tok, rel_tol=rel_tol, rounding=True):
            return True
        for cand in index.values:
            if any(abs(r - cand) <= rel * cand + 1e-12 for r in readings(tok)):
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
    hit = sum(v for w, v in weight.items() if w in found)
    return min(1.0, hit / min(total, KEY_FACTS))


def _implied_polarity(text: str) -> bool:
    """Yes unless the first sentence negates (``… has not reported any …``)."""
    first = re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0]
    return not _NEGATION_RE.search(first)


def _polarity(text: str) -> bool | None:
    m = re.match(r"\W*(yes|no)\b", text, re.IGNORECASE)
    return None if m is None else m.group(1).lower() == "yes"


def judge_answer(
    answer: str,
    gold: Any,
    question: str | None = None,
    *,
    rel_tol: float = 0.01,
    threshold: float = 0.35,
) -> AnswerJudgement:
    """Judge ``answer`` against ``gold``: label, score in [0, 1], and the reason.

    ``question`` is optional: gold words that merely repeat the question are not key facts.
    """
    text = parse_cited_answer(answer).body if answer else ""
    if not text.strip():
        return AnswerJudgement(label="refusal", score=0.0, reason="empty answer")
    gold_tokens = _gold_tokens(gold)
    tokens = extract_numbers(text)
    found = [g for g in gold_tokens if number_found(g, tokens, rel_tol)]
    refusal = is_refusal(text)
    if is_numeric_gold(gold) and gold_tokens:
        if found and not refusal:
            return AnswerJudgement(label="correct", score=1.0, reason="gold number stated")
        if refusal:
            return AnswerJudgement(label="refusal", score=0.0, reason="answer declines")
        return AnswerJudgement(label="incorrect", score=0.0, reason="gold number not stated")
    overlap = key_fact_overlap(text, _gold_text(gold), question)
    num_share = len(found) / len(gold_tokens) if gold_tokens else None
    score = overlap if num_share is None else max(overlap, 0.35 * overlap + 0.65 * num_share)
    if num_share == 0:
        score *= MISSING_NUMBER_FACTOR  # the gold's figure is the fact; a different one is wrong
    gold_pol = _polarity(_gold_text(gold))
    if gold_pol is not None:
        ans_pol = _polarity(text)
        if ans_pol is not None and ans_pol != gold_pol:
            score *= 0.3
        elif ans_pol == gold_pol:
            score = max(score, 0.6)
        elif _implied_polarity(text) != gold_pol:
            score *= 0.6
    if refusal and score < REFUSAL_OVERRIDE:
        return AnswerJudgement(label="refusal", score=0.0, reason="answer declines")
    label: Label = "correct" if score >= threshold else "incorrect"
    return AnswerJudgement(
        label=label, score=round(score, 4), reason=f"key-fact overlap {score:.2f}"
    )


def answer_correctness(gold: Any, pred: Any, trace: Any = None) -> float:
    """DSPy metric: ``judge_answer(pred.report/answer, gold.answer).score``."""
    gold_answer = field(gold, "answer", gold)
    return judge_answer(report_text(pred), gold_answer, field(gold, "question")).score
