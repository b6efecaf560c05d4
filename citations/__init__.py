"""Wissen Research: the citation protocol — markers and Sources, renumbering, verification,
daggers.

One protocol for every agent and every metric, kept in plain deterministic code: no LLM keeps
the books.
"""

from citations.daggers import SliceResult, apply_daggers
from citations.markup import (
    DAGGER,
    MARKER_SEPARATOR,
    Citation,
    CitedAnswer,
    DaggerNote,
    Footnote,
    ReferenceList,
    parse_cited_answer,
    render_cited_answer,
    render_marker,
)
from citations.renumbering import merge_answers, renumber
from citations.sentences import Sentence, split_sentences
from citations.verification import VerificationResult, verify_answer

__all__ = [
    "DAGGER",
    "MARKER_SEPARATOR",
    "Citation",
    "CitedAnswer",
    "DaggerNote",
    "Footnote",
    "ReferenceList",
    "Sentence",
    "SliceResult",
    "VerificationResult",
    "apply_daggers",
    "merge_answers",
    "parse_cited_answer",
    "render_cited_answer",
    "render_marker",
    "renumber",
    "split_sentences",
    "verify_answer",
]
