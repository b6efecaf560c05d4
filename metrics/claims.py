"""Claims in answers and gold answers: figures with their kind, conclusions, verdicts, choices.

``metrics.answer_correctness`` matches an answer's claims against the gold's rather than its
words. These helpers read the parts of a claim that people check when they label answers:

* the kind of figure a question asks for (money, or a ratio/percentage), so a ``40%`` never
  stands in for ``$0.4 billion`` and a dollar amount never for a ratio;
* the answer's conclusion (``Therefore, … was $1,580.6 million``): a final figure that
  differs from the gold outweighs the gold figure met on the way;
* which of the options a question offers (``Among operations, investing, and financing``;
  ``improved or declined``) the answer picks;
* whether the answer, or the gold, says the asked metric is not meaningful for the company.

Pure functions of the text, no state.
"""

from __future__ import annotations

import re
from typing import Literal

from metrics.numbers import NumberToken
from textnorm import ANSWER_STOPWORDS, stem

Kind = Literal["money", "ratio"]

_MONEY_ASKED_RE = re.compile(
    r"\b(?:USD|US\$|dollars?)\b|\$|\bin\s+(?:USD\s+)?(?:thousands|millions|billions)\b",
    re.IGNORECASE,
)
_RATIO_ASKED_RE = re.compile(
    r"\b(?:ratio|percent(?:age)?s?|margin|rate|turnover|days|times|return\s+on|yield"
    r"|ROA|ROE|ROIC|DPO|DSO|DIO|growth|change)\b|%",
    re.IGNORECASE,
)


def asked_kind(question: str | None) -> Kind | None:
    """The kind of figure the question wants: ``money`` (it names a currency or a scale),
    ``ratio`` (a ratio, percentage, margin, rate or turnover, and no currency), else None."""
    if not question:
        return None
    if _MONEY_ASKED_RE.search(question):
        return "money"
    if _RATIO_ASKED_RE.search(question):
        return "ratio"
    return None


_ROUNDING_RE = re.compile(r"\bround\w*\b[^.?]{0,60}\bdecimal", re.IGNORECASE)


def asks_rounding(question: str | None) -> bool:
    """``… round your answer to two decimal places``: the figure is wanted to that precision."""
    return bool(question and _ROUNDING_RE.search(question))


def compatible(token: NumberToken, kind: Kind | None) -> bool:
    """Can ``token`` state a figure of ``kind``? A percentage is never an amount of money;
    an amount (currency sign, scale word, or four digits and more) is never a ratio."""
    if kind == "money":
        return not token.percent
    if kind == "ratio":
        return not (token.currency or token.scale > 1 or abs(token.value) >= 1000)
    return True


_SENTENCE_SPLIT_RE = re.compile(r"(?<=[.!?])\s+(?=[^a-z0-9])|\n+")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of sentences and lines (decimal points do not end a sentence)."""
    spans, start = [], 0
    for m in _SENTENCE_SPLIT_RE.finditer(text):
        if text[start : m.start()].strip():
            spans.append((start, m.start()))
        start = m.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


_CONCLUSION_RE = re.compile(
    r"""[\s*•#>-]*(?:\*\*)?\s*(?:
      therefore | thus | hence | so, | so\s+the | in\s+summary | in\s+conclusion | to\s+summari[sz]e
    | overall, | in\s+short | (?:the\s+)?final\s+answer | the\s+answer\s+is | answer:
    )""",
    re.IGNORECASE | re.VERBOSE,
)


def conclusion_span(text: str, tokens: list[NumberToken] | None = None) -> tuple[int, int] | None:
    """The span of the answer's concluding sentence, or None when it draws no conclusion.

    Without ``tokens``: the last sentence that opens with ``Therefore``, ``In summary``,
    ``So,`` and the like. With ``tokens`` (the figures that matter): the last sentence that
    states one of them, when it opens with such a word or says ``therefore``/``thus`` in
    passing; a figure stated after the conclusion leaves the answer without one.
    """
    spans = sentence_spans(text)
    if tokens is None:
        last = None
        for start, end in spans:
            if _CONCLUSION_RE.match(text[start:end]):
                last = (start, end)
        return last
    with_figures = [(s, e) for s, e in spans if any(s <= t.start < e for t in tokens)]
    if not with_figures:
        return None
    start, end = with_figures[-1]
    sentence = text[start:end]
    if _CONCLUSION_RE.match(sentence) or _THEREFORE_RE.search(sentence):
        return start, end
    return None


_THEREFORE_RE = re.compile(r"\b(?:therefore|thus|hence)\b", re.IGNORECASE)


def conclusion(text: str) -> str | None:
    """The text of :func:`conclusion_span` (the last sentence opening with a conclusion)."""
    span = conclusion_span(text)
    return None if span is None else text[span[0] : span[1]]


_OPERATOR_BEFORE_RE = re.compile(r"(?:[/*×÷]|(?<![A-Za-z])x)\s*$")


def stated_results(text: str, tokens: list[NumberToken]) -> list[NumberToken]:
    """``tokens`` less the operands of a formula (``… / 2``, ``× 100``): those are not results."""
    return [
        t for t in tokens if not _OPERATOR_BEFORE_RE.search(text[max(0, t.start - 3) : t.start])
    ]


# ── options a question offers ───────────────────────────────────────────────────────────────

_AMONG_RE = re.compile(r"\bamong\s+(?P<opts>[^?]+?)(?:,\s*(?:which|what|who)\b|\?|$)", re.I)


def _option_stems(option: str) -> frozenset[str]:
    words = re.findall(r"[A-Za-z][A-Za-z&'’-]*", option)
    return frozenset(stem(w) for w in words if w.lower() not in ANSWER_STOPWORDS and len(w) > 2)


def question_options(question: str | None) -> list[frozenset[str]]:
    """The alternatives a question asks the answer to choose from, as stem sets.

    ``Among operations, investing, and financing activities, which …`` -> three options, each
    its first content word (the head noun, ``activities``, belongs to all). Empty when the
    question offers none. Rise-or-fall choices are left to the direction rules.
    """
    if not question:
        return []
    m = _AMONG_RE.search(question)
    if not m:
        return []
    parts = re.split(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", m.group("opts"))
    opts = []
    for part in parts:
        words = sorted(_option_stems(part), key=lambda w: part.lower().find(w[:4]))
        if words:
            opts.append(frozenset(words[:1]))
    return opts if len(opts) >= 2 and len(set(opts)) == len(opts) else []


def options_span(question: str | None) -> str | None:
    """The words a question lists its options in (``operations, investing, and financing
    activities``), as written; None when it offers none."""
    m = _AMONG_RE.search(question or "")
    return m.group("opts").strip() if m and len(question_options(question)) >= 2 else None


def chosen_options(text: str, options: list[frozenset[str]]) -> set[int]:
    """Indices of the options ``text`` mentions (``operating`` names ``operations``)."""
    stems = {stem(w) for w in re.findall(r"[A-Za-z][A-Za-z&'’-]*", text)}
    return {i for i, o in enumerate(options) if any(s.startswith(w) for w in o for s in stems)}


# ── "not a useful metric" ───────────────────────────────────────────────────────────────────

_RELEVANCE_CLAUSE_RE = re.compile(
    r"\bif\b[^.?]*\bnot\s+(?:a\s+)?(?:useful|relevant|meaningful|something)", re.IGNORECASE
)
_DISMISS_RE = re.compile(
    r"""
    \bnot\s+(?:be\s+|a\s+|an\s+|the\s+|very\s+|particularly\s+|especially\s+|that\s+|really\s+
        |necessarily\s+|as\s+|the\s+most\s+|always\s+)*
        (?:useful|relevant|meaningful|appropriate|applicable|suitable|helpful|key|typical
        |commonly\s+used|a\s+(?:primary|key|relevant|useful)|measured|used\s+to\s+measure)\b
    | \b(?:isn't|aren't|wasn't)\s+(?:a\s+|an\s+|particularly\s+|very\s+)*
        (?:useful|relevant|meaningful|appropriate|applicable)\b
    | \b(?:less|limited|little)\s+(?:relevant|useful|meaningful|relevance|usefulness)\b
    """,
    re.IGNORECASE | re.VERBOSE,
)


def asks_relevance(question: str | None) -> bool:
    """``… If working capital is not a useful metric for this company, state that …``."""
    return bool(question and _RELEVANCE_CLAUSE_RE.search(question))


def dismisses_metric(text: str) -> bool:
    """Does ``text`` say the metric is not useful/relevant/measured for the company?"""
    return bool(_DISMISS_RE.search(text))
