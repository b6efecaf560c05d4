"""The question as every agent, record and terminal sees it: cleaned and bounded, in one place.

A front end reads the user's text with :func:`read_question` before it spends anything on
the run; the planner applies the same rules to whatever reaches it (a golden-set question,
a direct program call), so a question that passes one passes the other.
"""

from __future__ import annotations

import re
import unicodedata

# Every prompt carries the question (probes x rounds), so its length bounds a run's cost;
# FinanceBench's longest question is 396 characters.
MAX_QUESTION_CHARS = 2000
# Control characters (NUL, terminal escapes), format characters (bidi overrides, zero-width
# spaces), lone surrogates (undecodable argv bytes) and private-use code points.
_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co"})
_ANSI_RE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")


class QuestionError(ValueError):
    """The question cannot be researched as written."""


class EmptyQuestion(QuestionError):
    """Nothing printable is left of the question."""


class QuestionTooLong(QuestionError):
    """The question is over :data:`MAX_QUESTION_CHARS`; the message says by how much."""


def clean_question(text: str) -> str:
    """The question as agents, logs and files should see it: terminal escape sequences and
    invisible or control characters removed, whitespace runs collapsed to one space.

    Nothing unprintable then reaches a prompt, a run record or a terminal, and a lone
    surrogate from undecodable input cannot fail a write half-way through a run.
    """
    text = _ANSI_RE.sub("", text)
    kept = (
        " " if ch.isspace() else ch
        for ch in text
        if ch.isspace() or unicodedata.category(ch) not in _INVISIBLE
    )
    return " ".join("".join(kept).split())


def question_too_long(question: str) -> str | None:
    """The message for a question over :data:`MAX_QUESTION_CHARS`, or None if it fits."""
    if len(question) <= MAX_QUESTION_CHARS:
        return None
    return (
        f"The question is {len(question):,} characters long; the limit is "
        f"{MAX_QUESTION_CHARS:,}. Ask one focused question."
    )


def read_question(text: str | None) -> str:
    """``text`` cleaned; :class:`EmptyQuestion` or :class:`QuestionTooLong` if it cannot run."""
    question = clean_question(text or "")
    if not question:
        raise EmptyQuestion("the question is empty")
    if too_long := question_too_long(question):
        raise QuestionTooLong(too_long)
    return question


#: A question about what a company expects of a period ("What revenue guidance did Intel
#: give for Q2 FY2023?", "What revenue did Intel guide for Q2 2023?"): the outlook is given
#: in a filing before the period, not after it.
_AHEAD = re.compile(
    r"\b(?:guidance|guide[sd]?|guiding|outlook|forecast\w*|projections?|expect(?:s|ed|ations?)?|"
    r"anticipat\w*)\b",
    re.IGNORECASE,
)


def looks_ahead(question: str) -> bool:
    """Whether ``question`` asks what was expected of a period (guidance, an outlook)."""
    return bool(_AHEAD.search(question))
