"""Does an answer decline? Refusals, hedges and ``there are none``, for ``judge_answer``.

Refusals (``I'm sorry, the provided context does not include…``, ``As an AI, I don't have
access…``) are never correct, whatever numbers they mention; a hedge in the opening is
outweighed only by a near-complete answer, and an answer that hedges and then concludes
anyway has answered. A ``There are none`` gold is met only by an answer asserting that
none exist, which is a claim, not a refusal.
"""

from __future__ import annotations

import re

from metrics.answer_words import opening_sentences
from metrics.claims import conclusion

# A hedging opening is outweighed when the answer still states the key facts.
REFUSAL_OVERRIDE = 0.9


_REFUSAL_RE = re.compile(
    r"""
    \b(?:i\s*(?:'m|am)\s+sorry|i\s+apologi[sz]e|unfortunately)\b
    | \bas\s+an\s+ai\b | \bai\s+(?:language\s+)?model\b | \bmy\s+(?:last\s+)?(?:knowledge|training)
    | \b(?:i|we)\s+(?:do\s+not|don't|cannot|can't|can\s*not|am\s+unable\s+to|was\s+unable\s+to
        |am\s+not\s+able\s+to)\s+(?:have\s+)?(?:access|provide|determine|calculate|find|answer
        |compute|give|say|confirm|assess|locate|identify|browse|pull|retrieve)
    | \b(?:(?:does|do|did)\s+not|(?:does|do|did)n['’]t)\s+(?:contain|include|provide|mention
        |specify|state|disclose|give|offer|have|appear\s+to\s+(?:contain|include|provide))\b
    | \b(?:(?:is|are|was|were)\s+not|(?:is|are|was|were)n['’]t)\s+(?:provided|included
        |available|mentioned|specified|given|disclosed|present|explicitly)\b
    | \b(?:(?:has|have)\s+not|(?:has|have)n['’]t)\s+(?:been\s+)?(?:provided|included|given)\b
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
    | (?<![a-z0-9])no\s+cited\s+(?:answer|findings)\b  # the composer's own, in _italics_
    """,
    re.IGNORECASE | re.VERBOSE,
)


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


def declines(text: str, score: float, threshold: float) -> bool:
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
    if is_refusal(opening_sentences(text)) or _PROCEDURE_RE.match(text):
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


_NONE_GOLD_RE = re.compile(
    r"\s*(?:there\s+(?:are|is|were|was)\s+none|none|nothing|not\s+applicable)\b", re.I
)


def is_none_gold(gold: str) -> bool:
    """A gold saying nothing of the asked kind exists (``There are none``, ``Not applicable``)."""
    return bool(_NONE_GOLD_RE.match(gold))


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
