"""Wissen Research: signatures, the typed objects agents exchange, and the citation protocol."""

from signatures.citations import (
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
from signatures.daggers import SliceRef, SliceResult, apply_daggers
from signatures.renumbering import merge_answers, renumber
from signatures.sentences import Sentence, split_sentences
from signatures.verification import VerificationResult, verify_answer

__all__ = [
    "DAGGER",
    "MARKER_SEPARATOR",
    "Citation",
    "CitedAnswer",
    "DaggerNote",
    "Footnote",
    "ReferenceList",
    "Sentence",
    "SliceRef",
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
