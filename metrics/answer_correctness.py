"""Answer correctness against a gold answer, FinanceBench style, with general rules only.

The answer's claims are matched against the gold's: figures (with their kind and the
answer's conclusion), yes/no verdicts, chosen options and named items, rather than words.

* Refusals ("I'm sorry, the provided context does not include…", "As an AI, I don't have
  access…", "insufficient evidence") are never correct, whatever numbers they mention; but an
  answer that hedges and then concludes anyway (``Therefore, … $4,607 million``) answered.
* Numeric gold (``1577``, ``$1577.00``, ``24.26%``, ``0.66``): correct when the answer states
  the same quantity under some reading of scale (millions vs billions), percent vs ratio,
  within 1% relative (0.25% when the question asks to round to N decimals) or the precision
  either side rounded to, and in the kind the question asks for (a ``40%`` is not ``$0.4
  billion``). A conclusion (``Therefore, …``) stating another figure outweighs the gold
  figure met in the working.
* Textual gold: key-fact overlap (content words, stemming-lite with variants, ``U.S.`` =
  ``US``, ``flat`` = ``unchanged``), or recall of the gold's headline claim; a list gold
  (``Trillium, Array, and Therachon``) by its items (``EMEA`` = Europe … Africa); a one-name
  gold must be named as the answer, not in passing; gold figures found (or their change, for
  ``from 20% to 23%``), with any figure contradicting one of the gold's for the same
  quantity counting against; yes/no polarity, stated, or implied by the last sentence that
  restates the question, else by the opening; rise/fall direction words; the option picked
  among those the question offers; whether the asked metric is called not meaningful.
* ``There are none`` gold: only an answer asserting that none exist is correct.
* Hedges: a model saying *it* cannot answer is a refusal; a document-lacks hedge in the
  opening (or a method/definition opening) is outweighed only by a near-complete answer, and
  a hedge after an opening that answers is a caveat.

``judge_answer`` returns a small result object (label, score, reason); ``answer_correctness``
is the DSPy metric returning its score. An optional second opinion (``lm_judge``, see
``metrics.lm_judge``) is off by default.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Literal, Protocol

from pydantic import BaseModel

from citations.markup import parse_cited_answer
from metrics._inputs import field, report_text
from metrics.claims import (
    asked_kind,
    asks_relevance,
    asks_rounding,
    chosen_options,
    compatible,
    conclusion,
    conclusion_span,
    dismisses_metric,
    question_options,
    sentence_spans,
    stated_results,
)
from metrics.numbers import NumberIndex, NumberToken, extract_numbers, readings
from textnorm import ANSWER_STOPWORDS, stem

Label = Literal["correct", "incorrect", "refusal"]
# Long gold answers list more detail than a correct answer needs: recall of this many key
# facts is enough.
KEY_FACTS = 8
MISSING_NUMBER_FACTOR = 0.5
# Figure tolerance: 1% relative, or the precision either side rounded to. A question that asks
# to round to N decimals wants that figure: people mark 64.09 wrong for 63.86 and 65.2% for
# 65.4%, but not 65.3%, so such golds get 0.25% (the gold's own rounding still widens it).
ROUNDED_REL_TOL = 0.0025
TEXT_REL_TOL = 0.01
# A gold figure that is only detail (later sentence, parenthesis) and is left out.
MISSING_DETAIL_FACTOR = 0.75
# A figure contradicting the gold's for the same quantity.
CONFLICT_FACTOR = 0.3
# A yes/no question answered with the gold's verdict in words (``Verizon is capital intensive``)
# and the penalty for the opposite verdict or direction in words (``did not pay dividends``).
IMPLIED_AGREEMENT = 0.45
IMPLIED_DISAGREEMENT = 0.3
# A later sentence states the verdict when it repeats this share of the question's words.
VERDICT_SHARE = 0.75
# How much of the answer's start is read for its verdict and topic.
OPENING_CHARS = 300
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
    | \bwould\s+need\s+(?:to|access|the|more)\b
    | \b(?:you|i|one)\s+would\s+typically\s+(?:look|refer|follow|need|check|consult|find)
    | \b(?:doesn't|does\s+not)\s+have\s+the\s+ability\b
    | \bnot\s+possible\s+to\s+(?:determine|calculate)\b
    | \bunable\s+to\s+(?:determine|calculate|provide|find|answer)\b
    | \bimpossible\s+to\b | \bi\s+(?:do\s+not|don't)\s+know\b | \bplease\s+provide\b
    | \b(?:don't|do\s+not)\s+have\s+(?:enough|sufficient|the\s+(?:specific|necessary|required))\b
    | \b(?:i|we)\s+(?:don't|do\s+not)\s+have\s+(?:the\s+|any\s+)?(?:information|data|details)\b
    | \bcannot\s+be\s+(?:directly\s+)?(?:determined|calculated|answered|computed|found)\b
    | \bnot\s+(?:directly|explicitly)\s+(?:stated|provided|mentioned|given|available)\b
    | \bwithout\s+(?:the\s+)?(?:specific|necessary|additional|access|more)\b
    | \b(?:does|do)\s+not\s+(?:explicitly|directly|specifically)\s+(?:state|provide|mention)
    """,
    re.IGNORECASE | re.VERBOSE,
)
_NEGATION_RE = re.compile(
    r"\b(?:no|not|never|none|neither|nor|doesn't|don't|didn't|isn't|aren't|wasn't|weren't|"
    r"hasn't|haven't|cannot|can't|without)\b",
    re.IGNORECASE,
)


class AnswerJudgement(BaseModel):
    label: Label
    score: float
    reason: str


class AnswerJudge(Protocol):
    """A second opinion on whether an answer states the gold answer (an LM, in practice).

    Returns True (it does), False (it does not) or None (no opinion: the rules stand). Off
    by default: ``judge_answer`` consults one only when given one.
    """

    def __call__(self, question: str | None, answer: str, gold: str) -> bool | None: ...


def _gold_text(gold: Any) -> str:
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
    found = {stem(w) for w in words if w.lower() not in ANSWER_STOPWORDS and len(w) > 1}
    if _FLAT_RE.search(text):
        found.add("flat")
    return frozenset(found)


_SELF_REFUSAL_RE = re.compile(
    r"""
    \bas\s+an\s+ai\b | \bai\s+(?:language\s+)?model\b
    | \bmy\s+(?:last\s+)?(?:knowledge|training|update)
    | \b(?:i|we)\s+(?:do\s+not|don't|cannot|can't|can\s*not|am\s+unable\s+to|am\s+not\s+able\s+to)
      \s+(?:have\s+)?(?:access|provide|the\s+(?:information|data|ability)|real-time|browse)
    """,
    re.IGNORECASE | re.VERBOSE,
)


def is_self_refusal(answer: str) -> bool:
    """The model says *it* cannot answer (no access, knowledge cut-off), in the opening.

    Whatever facts such an answer recites afterwards come from memory, and people label it a
    refusal; a document-lacks hedge, by contrast, can be outweighed by a full answer.
    """
    return bool(_SELF_REFUSAL_RE.search(answer.strip()[:400]))


# Openings that explain a method or define a term instead of answering.
_PROCEDURE_RE = re.compile(
    r"""\s*(?:to\s+(?:calculate|determine|assess|compute|find)\b
    | (?:the\s+)?[\w&()'’,\s-]{1,60}?\s(?:is|are)\s+(?:a|an)\s+(?:[\w-]+\s+){0,3}
      (?:measure|metric|ratio|indicator)\b)""",
    re.IGNORECASE | re.VERBOSE,
)


def _opening(text: str, n: int = 2) -> str:
    """The first ``n`` real sentences (``Sure!`` and other short openers skipped)."""
    sentences = [s for s in re.split(r"(?<=[.!?])\s+|\n+", text.strip()) if len(s.split()) >= 4]
    return " ".join(sentences[:n])


def _declines(text: str, score: float, threshold: float) -> bool:
    """Label a hedging answer a refusal unless it answers anyway.

    A hedge in the first two sentences, or an opening that explains a method or defines a
    term, is outweighed only by an answer with nearly every key fact; a hedge after an opening
    that answers (``… was operating activities. The evidence
    does not provide the financing figure``) is a caveat, and the answer is judged as usual.
    Saying *I* cannot answer (no access, knowledge cut-off) is always a refusal; an answer that
    hedges and then concludes anyway (``… not directly stated. … Therefore, inventories were
    $4,607 million``) has answered, rightly or wrongly.
    """
    if is_self_refusal(text):
        return True
    if commits(text):
        return False
    if is_refusal(_opening(text)) or _PROCEDURE_RE.match(text):
        return score < REFUSAL_OVERRIDE
    return score < threshold


def commits(text: str) -> bool:
    """Does the answer end on a conclusion (``Therefore, …``) that is not itself a hedge?"""
    final = conclusion(text)
    return bool(final) and not is_refusal(final) and not _UNSURE_RE.search(final)


_UNSURE_RE = re.compile(
    r"\b(?:cannot|can't|unable|not\s+possible|impossible|unclear|uncertain|insufficient"
    r"|(?:would|will)\s+need|without\s+(?:more|further|additional|the))\b",
    re.IGNORECASE,
)


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
    if not _LIST_GOLD_RE.fullmatch(text) or _polarity(text) is not None:
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


def _key_numbers(gold: str, tokens: list[NumberToken]) -> list[NumberToken]:
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
    tokens = _gold_tokens(gold)
    return tokens if is_numeric_gold(gold) else _key_numbers(_gold_text(gold), tokens)


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


_UP_RE = re.compile(
    r"\b(?:increas\w*|improv\w*|ris(?:e|es|en|ing)|rose|grow\w*|grew|higher|gain\w*|up|"
    r"accelerat\w*|expand\w*)\b",
    re.IGNORECASE,
)
_DOWN_RE = re.compile(
    r"\b(?:decreas\w*|declin\w*|drop\w*|fall\w*|fell|lower|reduc\w*|shrank|down|"
    r"deteriorat\w*|decelerat\w*|worsen\w*|contract(?:ed|ion))\b",
    re.IGNORECASE,
)


def direction(text: str) -> int:
    """+1 when the text speaks of a rise only, -1 of a fall only, else 0."""
    up, down = bool(_UP_RE.search(text)), bool(_DOWN_RE.search(text))
    return int(up) - int(down)


def opposite_direction(answer: str, gold: str) -> bool:
    """Gold ``… increased in FY2023`` against an answer opening ``… decreased in FY2023``."""
    wanted = direction(headline(gold))
    said = direction(_first_sentence(answer))
    return bool(wanted and said and wanted != said)


def _first_sentence(text: str) -> str:
    """The answer's first real sentence: ``Sure!`` and similar openers are skipped."""
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", text.strip()):
        if len(sentence.split()) >= 4:
            return sentence
    return text.strip()


def _negated_words(text: str) -> list[frozenset[str]]:
    """For each negation in ``text``, the stems of the next three content words."""
    out = []
    for m in _NEGATION_RE.finditer(text):
        words = re.findall(r"[A-Za-z][A-Za-z&'’-]*", text[m.end() : m.end() + 60])
        kept = [w for w in words if w.lower() not in ANSWER_STOPWORDS and len(w) > 1]
        out.append(frozenset(stem(w) for w in kept[:3]))
    return out


def _negates(sentence: str, question: str | None) -> bool:
    """Does ``sentence`` say no? A negation that echoes one in the question (``not part of
    Pfizer's standard operations`` to ``events not in Pfizer's standard operations``) does
    not."""
    echoed = _negated_words(question or "")
    return any(not any(words & q for q in echoed) for words in _negated_words(sentence))


def _implied_polarity(text: str, question: str | None = None) -> bool:
    """Yes unless the first sentence negates (``… has not reported any …``).

    Direction flips it: to ``Did X increase?`` the answer ``X decreased`` says no, and to
    ``Was there any drop?`` the answer ``there was a decline`` says yes.
    """
    first = _first_sentence(text)
    yes = not _negates(first, question)
    asked = direction(question or "")
    said = direction(first)
    if asked and said and asked != said:
        yes = not yes
    return yes


def _polarity(text: str) -> bool | None:
    m = re.match(r"\W*(yes|no)\b", text, re.IGNORECASE)
    return None if m is None else m.group(1).lower() == "yes"


_YES_NO_RE = re.compile(
    r"\s*(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should)\b", re.I
)


def is_yes_no_question(question: str | None) -> bool:
    """``Does Corning have positive working capital…?``: the verdict, not a figure, is asked."""
    return bool(question and _YES_NO_RE.match(question))


def _number_adjusted(
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


def _verdict_sentence(text: str, question: str | None) -> str | None:
    """The answer's last sentence that restates most of the question (``… is not expected
    to accelerate in FY2023``), when it is not the opening: where a long answer that opens
    with figures gives its verdict."""
    spans = sentence_spans(text)
    for start, end in reversed(spans[1:]):
        sentence = text[start:end]
        if restates_question(sentence, question, share=VERDICT_SHARE):
            return sentence
    return None


def _polarity_adjusted(score: float, text: str, gold: str, question: str | None) -> float:
    """Yes/no gold: an opposite verdict is wrong; the same verdict carries most of the answer.

    Without a leading Yes/No the verdict is implied: by a concluding sentence that restates
    the question (``Therefore, … is not expected to accelerate``), else by the opening.
    """
    gold_pol = _polarity(gold)
    if gold_pol is None:
        return score
    ans_pol = _polarity(text)
    if ans_pol is not None and ans_pol != gold_pol:
        return score * 0.3
    if ans_pol == gold_pol:
        return max(score, 0.6)
    final = _verdict_sentence(text, question)
    if final:
        text = final  # ``Therefore, growth is not expected to accelerate``: the verdict
    elif not restates_question(text, question):
        return score  # the opening is about something else: no verdict to read
    if _implied_polarity(text, question) != gold_pol:
        return score * IMPLIED_DISAGREEMENT
    if is_yes_no_question(question):
        return max(score, IMPLIED_AGREEMENT)
    return score


def restates_question(answer: str, question: str | None, share: float = 0.5) -> bool:
    """Does the answer's opening take up the question's terms (rather than another topic)?

    Only the question's first sentence counts: ``If X is not useful, explain why`` clauses
    are boilerplate. An implied verdict is only read from an opening about the question.
    """
    if not question:
        return False
    asked = content_words(re.split(r"(?<=[?.])\s", question.strip(), maxsplit=1)[0])
    if not asked:
        return False
    opening = content_words(answer.strip()[:OPENING_CHARS])
    return len(asked & opening) >= share * len(asked)


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


_NONE_GOLD_RE = re.compile(
    r"\s*(?:there\s+(?:are|is|were|was)\s+none|none|nothing|not\s+applicable)\b", re.I
)
_NONE_ANSWER_RE = re.compile(
    r"""
    \bthere\s+(?:are|is|were|was)\s+no\b(?!\s+(?:specific\s+|explicit\s+)?(?:information|data|mention))
    | \b(?:has|have|had|does|do|did)\s+not\s+(?:have\s+)?(?:any|issued)\b
    | \bno\s+(?:[\w-]+\s+){0,3}(?:are|is|were|was)\s+(?:registered|listed|outstanding|issued)\b
    | ^[\s*•-]*none\b
    """,
    re.IGNORECASE | re.MULTILINE | re.VERBOSE,
)


def states_none(answer: str) -> bool:
    """Does the answer assert that nothing of the asked kind exists (``there are no …``)?

    Saying the document lacks information is a refusal, not a claim that none exist.
    """
    return bool(_NONE_ANSWER_RE.search(answer))


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


def _judge_none_gold(text: str) -> AnswerJudgement:
    """Gold ``There are none``: only an answer that says so is right, whatever it lists."""
    if states_none(text):
        return AnswerJudgement(label="correct", score=1.0, reason="states that none exist")
    if is_refusal(text):
        return AnswerJudgement(label="refusal", score=0.0, reason="answer declines")
    return AnswerJudgement(label="incorrect", score=0.0, reason="lists what the gold says is none")


def _verdict_sentences(text: str) -> list[str]:
    """Where an answer states its verdict: its first real sentence and its conclusion."""
    found = [_first_sentence(text)]
    last = conclusion(text)
    if last:
        found.append(last)
    return found


def relevance_stance(text: str, gold: str, question: str | None) -> bool | None:
    """Asked ``… if X is not a useful metric for this company, say so``: do the answer and the
    gold agree on whether it is? None when the question does not ask, or neither says so.

    Where the gold dismisses the metric, the answer must say so somewhere; where it does not,
    only a dismissal where the answer states its verdict (opening, conclusion) contradicts it,
    not a caveat deep in an answer that computes the metric.
    """
    if not asks_relevance(question):
        return None
    gold_dismisses = dismisses_metric(headline(gold))
    if gold_dismisses:
        return dismisses_metric(text)
    if any(dismisses_metric(s) for s in _verdict_sentences(text)):
        return False
    return None


# A gold this short is a name (``Data Center``, ``Customer deposits``), not an explanation.
ENTITY_WORDS = 4


def entity_in_focus(text: str, gold: str, question: str | None) -> bool:
    """A short gold names one thing (``Customer deposits``): the answer must name it as its
    answer (in its opening, its conclusion, or a sentence taking up the question), not list
    it in passing among other figures. True when the rule does not apply."""
    words = content_words(gold) - (content_words(question) if question else frozenset())
    if not words or len(gold.split()) > ENTITY_WORDS or _polarity(gold) is not None:
        return True
    if re.search(r",|\band\b|&", gold):
        return True  # a list: each item may sit in its own bullet
    if not words <= content_words(text):
        return True  # not named at all: key-fact overlap already says so
    focus = [_opening(text), conclusion(text) or ""]
    focus += [text[a:b] for a, b in sentence_spans(text) if restates_question(text[a:b], question)]
    return any(words <= content_words(part) for part in focus)


def same_choice(text: str, gold: str, question: str | None) -> bool | None:
    """``Among operations, investing, and financing activities, which …``: does the answer's
    verdict pick the gold's option? None when there are no options, the gold picks none or
    several, or the answer's verdict names none."""
    options = question_options(question)
    if len(options) < 2:
        return None
    wanted = chosen_options(headline(gold), options)
    if len(wanted) != 1:
        return None
    for sentence in _verdict_sentences(text):
        said = chosen_options(sentence, options)
        if said == wanted:
            return True
        if said and not (said & wanted):
            return False
    return None


def _judge_text_gold(
    text: str,
    gold: str,
    question: str | None,
    gold_tokens: list[NumberToken],
    tokens: list[NumberToken],
    found: list[NumberToken],
    threshold: float,
) -> AnswerJudgement:
    """Textual gold: key facts, then the gold's figures, verdict and direction, then hedging."""
    items = gold_items(gold)
    if items:
        overlap = list_recall(text, items, question)
    else:
        overlap = max(key_fact_overlap(text, gold, question), headline_recall(text, gold, question))
    headline_numbers = bool(_key_numbers(gold, gold_tokens))
    yes_no = is_yes_no_question(question)
    score = _number_adjusted(overlap, gold_tokens, found, headline_numbers, yes_no)
    score = _polarity_adjusted(score, text, gold, question)
    reason = f"key-fact overlap {overlap:.2f}"
    if opposite_direction(text, gold):
        score *= IMPLIED_DISAGREEMENT
        reason += ", opposite direction"
    missing = [g for g in gold_tokens if g not in found]
    if any(conflicting_number(gold, g, text, tokens, question) for g in missing):
        score *= CONFLICT_FACTOR
        reason += ", conflicting figure"
    stance = relevance_stance(text, gold, question)
    if stance is not None:
        score = max(score, IMPLIED_AGREEMENT) if stance else score * IMPLIED_DISAGREEMENT
        reason += ", same stance on the metric" if stance else ", opposite stance on the metric"
    if not entity_in_focus(text, gold, question):
        score *= IMPLIED_DISAGREEMENT
        reason += ", gold named only in passing"
    if same_choice(text, gold, question) is False:
        score *= IMPLIED_DISAGREEMENT
        reason += ", picks another option"
    if is_refusal(text) and _declines(text, score, threshold):
        return AnswerJudgement(label="refusal", score=0.0, reason="answer declines")
    label: Label = "correct" if score >= threshold else "incorrect"
    return AnswerJudgement(label=label, score=round(score, 4), reason=reason)


def _judge_numeric_gold(
    text: str, gold_token: NumberToken, question: str | None, rel_tol: float
) -> AnswerJudgement:
    """A numeric gold: the answer must state it as its result.

    Only figures of the asked kind count (a percentage is not a dollar amount); an explicit
    conclusion (``Therefore, … $1,580.6 million``) that states another figure of that kind
    outweighs the gold figure met in the working (of a formula, only what follows its last
    ``=`` is the result).
    """
    kind = asked_kind(question)
    tokens = [t for t in extract_numbers(text) if compatible(t, kind)]
    if not any(number_found(gold_token, [t], rel_tol) for t in tokens):
        return AnswerJudgement(label="incorrect", score=0.0, reason="gold number not stated")
    results = stated_results(text, tokens)
    span = conclusion_span(text, results)
    if span is not None:
        start = text.rfind("=", span[0], span[1]) + 1 or span[0]  # ``A - B = C``: C
        final = [t for t in results if start <= t.start < span[1]]
        if not any(number_found(gold_token, [t], rel_tol) for t in final):
            return AnswerJudgement(
                label="incorrect", score=0.2, reason="conclusion states another figure"
            )
    return AnswerJudgement(label="correct", score=1.0, reason="gold number stated")


def judge_answer(
    answer: str,
    gold: Any,
    question: str | None = None,
    *,
    rel_tol: float | None = None,
    threshold: float = 0.35,
    lm_judge: AnswerJudge | None = None,
) -> AnswerJudgement:
    """Judge ``answer`` against ``gold``: label, score in [0, 1], and the reason.

    ``question`` is optional: gold words that merely repeat the question are not key facts.
    ``lm_judge`` (off by default) is asked about answers the rules call correct or incorrect;
    refusals stay the rules' call.
    """
    verdict = _judge_by_rules(answer, gold, question, rel_tol=rel_tol, threshold=threshold)
    if lm_judge is None or verdict.label == "refusal":
        return verdict
    return _with_lm_opinion(verdict, lm_judge, answer, gold, question, threshold)


def _with_lm_opinion(
    verdict: AnswerJudgement,
    lm_judge: AnswerJudge,
    answer: str,
    gold: Any,
    question: str | None,
    threshold: float,
) -> AnswerJudgement:
    """The LM's yes/no decides the label; the rules' score still orders answers within it."""
    text = parse_cited_answer(answer).body
    opinion = lm_judge(question, text, _gold_text(gold))
    if opinion is None:
        return verdict
    if opinion:
        score = 0.5 + 0.5 * verdict.score  # at least 0.5: above any threshold in use
        return AnswerJudgement(
            label="correct", score=round(score, 4), reason=verdict.reason + "; LM judge: matches"
        )
    score = threshold * verdict.score * 0.99  # below the threshold
    return AnswerJudgement(
        label="incorrect", score=round(score, 4), reason=verdict.reason + "; LM judge: differs"
    )


def _judge_by_rules(
    answer: str, gold: Any, question: str | None, *, rel_tol: float | None, threshold: float
) -> AnswerJudgement:
    """The deterministic verdict: refusal, numeric gold, ``none`` gold, or textual gold."""
    text = parse_cited_answer(answer).body if answer else ""
    if not text.strip():
        return AnswerJudgement(label="refusal", score=0.0, reason="empty answer")
    if _NONE_GOLD_RE.match(_gold_text(gold)):
        return _judge_none_gold(text)
    gold_tokens = _gold_tokens(gold)
    tokens = extract_numbers(text)
    found = [
        g
        for g in gold_tokens
        if number_found(g, tokens, TEXT_REL_TOL if rel_tol is None else rel_tol)
    ]
    found += [g for g in changed_figures(gold_tokens, tokens, question) if g not in found]
    refusal = is_refusal(text)
    if is_numeric_gold(gold) and gold_tokens:
        if refusal and (is_self_refusal(text) or not commits(text)):
            return AnswerJudgement(label="refusal", score=0.0, reason="answer declines")
        if rel_tol is None:
            rel_tol = ROUNDED_REL_TOL if asks_rounding(question) else TEXT_REL_TOL
        return _judge_numeric_gold(text, gold_tokens[0], question, rel_tol)
    return _judge_text_gold(text, _gold_text(gold), question, gold_tokens, tokens, found, threshold)


def answer_correctness(gold: Any, pred: Any, trace: Any = None) -> float:
    """DSPy metric: ``judge_answer(pred.report/answer, gold.answer).score``."""
    gold_answer = field(gold, "answer", gold)
    return judge_answer(report_text(pred), gold_answer, field(gold, "question")).score
