"""An answer's verdict against the gold's, for ``judge_answer``.

Yes/no polarity (stated, implied by a concluding sentence that restates the question, else
by the opening), rise/fall direction words, whether the asked metric is called not
meaningful, and the option picked among those the question offers.
"""

from __future__ import annotations

import re

from metrics.answer_words import content_words, first_sentence, headline
from metrics.claims import (
    asks_relevance,
    chosen_options,
    conclusion,
    dismisses_metric,
    options_span,
    question_options,
    sentence_spans,
)
from textnorm import ANSWER_STOPWORDS, stem

# A yes/no question answered with the gold's verdict in words (``Verizon is capital intensive``)
# and the penalty for the opposite verdict or direction in words (``did not pay dividends``).
IMPLIED_AGREEMENT = 0.45
IMPLIED_DISAGREEMENT = 0.3
# A later sentence states the verdict when it repeats this share of the question's words.
VERDICT_SHARE = 0.75
# How much of the answer's start is read for its verdict and topic.
OPENING_CHARS = 300


_NEGATION_RE = re.compile(
    r"\b(?:no|not|never|none|neither|nor|doesn't|don't|didn't|isn't|aren't|wasn't|weren't|"
    r"hasn't|haven't|cannot|can't|without)\b",
    re.IGNORECASE,
)


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
    said = direction(first_sentence(answer))
    return bool(wanted and said and wanted != said)


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
    first = first_sentence(text)
    yes = not _negates(first, question)
    asked = direction(question or "")
    said = direction(first)
    if asked and said and asked != said:
        yes = not yes
    return yes


def yes_no_polarity(text: str) -> bool | None:
    """True for a text opening ``Yes``, False for ``No``, None for neither."""
    # Not \b: a citation mark right after the word ("Yes¹.") is a word character too.
    m = re.match(r"\W*(yes|no)(?![a-z])", text, re.IGNORECASE)
    return None if m is None else m.group(1).lower() == "yes"


_YES_NO_RE = re.compile(
    r"\s*(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should)\b", re.I
)


def is_yes_no_question(question: str | None) -> bool:
    """``Does Corning have positive working capital…?``: the verdict, not a figure, is asked."""
    return bool(question and _YES_NO_RE.match(question))


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


def polarity_adjusted(score: float, text: str, gold: str, question: str | None) -> float:
    """Yes/no gold: an opposite verdict is wrong; the same verdict carries most of the answer.

    Without a leading Yes/No the verdict is implied: by a concluding sentence that restates
    the question (``Therefore, … is not expected to accelerate``), else by the opening.
    """
    gold_pol = yes_no_polarity(gold)
    if gold_pol is None:
        return score
    ans_pol = yes_no_polarity(text)
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


def _verdict_sentences(text: str) -> list[str]:
    """Where an answer states its verdict: its first real sentence and its conclusion."""
    found = [first_sentence(text)]
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


#: Words a sentence makes its choice with ("operations brought in the most"): naming one
#: option in a sentence that only reports its figure is no pick.
_SUPERLATIVE_RE = re.compile(
    r"\b(?:most|least|highest|lowest|largest|smallest|greatest|biggest|best|worst|top)\b",
    re.IGNORECASE,
)


def same_choice(text: str, gold: str, question: str | None) -> bool | None:
    """``Among operations, investing, and financing activities, which …``: does the answer's
    verdict pick the gold's option? None when there are no options, the gold picks none or
    several, or the answer's verdict names none.

    The question's list of options copied into the answer is no choice: "Among operations,
    investing, and financing activities, Nike brought in the most cash flow" restates the
    question and shares the gold's words without its pick, so an answer whose verdict
    names no option once that list is set aside picks none (False). A verdict picks the
    gold's option (True) only in a sentence that says it is the most or the least.
    """
    options = question_options(question)
    if len(options) < 2:
        return None
    wanted = chosen_options(headline(gold), options)
    if len(wanted) != 1:
        return None
    listed = re.compile(re.escape(options_span(question) or ""), re.IGNORECASE)
    echoed = False
    for sentence in _verdict_sentences(text):
        own = listed.sub(" ", sentence)
        echoed = echoed or own != sentence
        said = chosen_options(own, options)
        if said == wanted and _SUPERLATIVE_RE.search(own):
            return True
        if said and not (said & wanted):
            return False
    return False if echoed else None
