"""Research notes: one ticker in, a cited note out, built by code rather than by a model.

``research note TICKER`` turns what the grid holds (statement facts, the latest 10-K's
business and risk-factor pages) and what the configured providers return (prices, news)
into sections of sentences, each citing the filing page, price series or web document it
rests on, with one Sources list numbered across those kinds. Numbers come from the
calculator and the facts, never from a language model, so a note can be checked figure by
figure against the facts it cites. A section whose source is not configured is one line.
A review by code (``notes.review``) then reads the note for precision the source does not
state, one-sided framing and hedging that hides missing data, and the note prints what it
finds as its last section.
"""

from notes.compose import NoteError, build_note
from notes.model import CitedSentence, Finding, ResearchNote, Section
from notes.outside import OutsideSources
from notes.review import review_note
from notes.sources import PriceCitation, SourceBook, WebCitation

__all__ = [
    "CitedSentence",
    "Finding",
    "NoteError",
    "OutsideSources",
    "PriceCitation",
    "ResearchNote",
    "Section",
    "SourceBook",
    "WebCitation",
    "build_note",
    "review_note",
]
