"""A draft's form fitted to its question, by code: no echoed questions, no pointers, no stray
yes/no.

A small model often restates the question before answering it ("Is growth expected to
accelerate? Yes, …") and opens with "Yes," whatever was asked ("What share of the
buybacks fell in Q4?" answered "Yes, the figure is …"). Neither carries evidence, and a
reader (or the answer metric) takes the stray "Yes" as the answer. So a sentence of the
draft that is itself a question, or that pastes the question's words back (its "if X is
not meaningful, explain why" instruction), or that only says where something is written
("The figure comes from the statement of income, specifically on page¹ …"), or that pastes
a line of its own brief back ("No sources block: it is written from your hit numbers."),
or that holds no word at all (".¹²³", the marks left of a line the model did not write), is
removed;
and a draft answering a question that asks "what", "which", "who", "how", "why", "when" or
"where" (and has no yes/no clause anywhere) loses its opening "Yes,"/"No,". A yes/no
question's verdict is never touched here: it is checked by :mod:`programs.verdicts` and
:mod:`programs.draft_checks`.
"""

from __future__ import annotations

import re

from citations.markup import CitedAnswer
from citations.sentences import split_sentences, without_units
from metrics.answer_verdicts import is_yes_no_question
from signatures.researcher import AnswerProbeFromEvidence, ResearchProbe

_WH_OPENING = re.compile(r"^\W*(?:what|which|who|whom|whose|how|why|when|where)\b", re.I)
#: A clause a yes/no question opens with, at the start or after a comma ("Based on …, is …").
_POLAR_CLAUSE = re.compile(
    r"(?:^|[.?!,;:]\s*)(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|"
    r"should|shall|may|might|must)\s",
    re.IGNORECASE,
)
_QUESTION_SPLIT = re.compile(r"(?<=[?.!])\s+")
#: "Yes," / "**No.**" / "Yes:" opening a draft (a bare "No dividend was paid" is a claim).
_STRAY_VERDICT = re.compile(
    r"^(?P<lead>(?:\s*#{1,6} [^\n]*\n)*\s*)(?:\*\*)?(?:yes|no)(?:\*\*)?\s*[,.:;!–—-]+(?:\*\*)?\s*"
    r"(?P<first>\w?)",
    re.IGNORECASE,
)
#: A question word opening the question, or its first clause after a short lead-in
#: ("In 2022 Q2, which segment …") or a condition of any length ("If Acme were wound up
#: at the end of the quarter and paid out its book value, how much …").
_LEAD_IN = re.compile(
    r"^[^,?]{1,60},\s*"
    r"|^\W*(?:if|assuming|suppose|supposing|given|considering|excluding|including)\b[^?]*?,\s*",
    re.IGNORECASE,
)
_WORD = re.compile(r"[\w'’&-]+")
_INLINE_MARKERS = re.compile(r"[\u00b9\u00b2\u00b3\u2070-\u2079\u02d2†]+|\[\d{1,3}\]")
_MARKERS = re.compile(r"[\s\u00b9\u00b2\u00b3\u2070-\u2079\u02d2†*\[\]\d]+$")


def asks_yes_or_no(question: str) -> bool:
    """Whether ``question`` has a yes/no clause, or opens with no question word at all
    (then it is not known not to be one)."""
    parts = [p for p in _QUESTION_SPLIT.split(question.strip()) if p]
    if not parts:
        return True
    opening = parts[0]
    if not _WH_OPENING.match(opening) and not _WH_OPENING.match(_LEAD_IN.sub("", opening)):
        return True
    return any(_POLAR_CLAUSE.search(part) for part in parts)


def opens_yes_no(question: str) -> bool:
    """Whether a yes/no clause opens ``question``, or its first clause after a lead-in
    ("Looking at the income statement, did …", "Based on FY2022 data, is …"): the verdict
    is asked, which code answers where the figures settle it (:mod:`programs.verdicts`)."""
    lead_in_removed = _LEAD_IN.sub("", question.strip(), count=1)
    return is_yes_no_question(question) or is_yes_no_question(lead_in_removed)


#: A sentence that says where an answer is written, not what it is ("The figure comes from
#: the statement of income, specifically on page¹ of LMT's 2021 10-K report."): a pointer.
_POINTER = re.compile(
    r"\b(?:comes?|came|taken|derived|found|located|shown|provided|listed|cited|quoted|sourced)"
    r"\s+(?:from|in|on|at)\s+(?:the\s+|this\s+|that\s+)?(?:page|statement|report|filing|table|"
    r"document|evidence|hit|passage|source|income statement|balance sheet|cash flow statement|"
    r"10-[kq])\b"
    r"|\b(?:specifically\s+)?on page\b",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"\d")
#: Numbers in a pointer that are no figure: a year, a page's number, a form's name.
_NOT_FIGURES = re.compile(
    r"\b(?:19|20)\d\d\b|\b(?:p\.|page|hit|hit\s+number)\s*\d+|\b(?:10|8)-[kq]\b", re.IGNORECASE
)


def _is_pointer(text: str) -> bool:
    """Whether a sentence only says where something is written: a pointer, and no figure
    but a year, a page's number or a form's name."""
    plain = _INLINE_MARKERS.sub(" ", text)
    return bool(_POINTER.search(plain)) and not _NUMBER.search(_NOT_FIGURES.sub(" ", plain))


def _is_question(text: str) -> bool:
    return _MARKERS.sub("", text.strip()).endswith("?")


def _words(text: str) -> str:
    return " ".join(_WORD.findall(_INLINE_MARKERS.sub(" ", text.lower())))


def _copies(text: str, question: str) -> bool:
    """Whether a sentence is the question's own words (its instruction, pasted back)."""
    words = _words(text)
    return len(words.split()) >= 4 and words in _words(question)


#: The answer step's briefs, as the words the checks compare: a draft line found in them is
#: the prompt pasted back, not an answer.
_BRIEFS = tuple(
    " ".join(_WORD.findall(_INLINE_MARKERS.sub(" ", brief.lower())))
    for brief in (ResearchProbe.instructions, AnswerProbeFromEvidence.instructions)
)
#: A word: a letter or a digit that is not a citation mark.
_HAS_WORD = re.compile(r"[^\W_]")


def _copies_brief(text: str) -> bool:
    """Whether a sentence is a line of the answer step's own brief, pasted back."""
    words = _words(text)
    return len(words.split()) >= 4 and any(f" {words} " in f" {brief} " for brief in _BRIEFS)


def _is_wordless(text: str) -> bool:
    """Whether a sentence holds no word: punctuation and citation marks only."""
    return not _HAS_WORD.search(_INLINE_MARKERS.sub(" ", text))


def fit_to_question(question: str, answer: CitedAnswer) -> tuple[CitedAnswer, int]:
    """``answer`` without the sentences that are questions or copy the question's words,
    and without an opening "Yes,"/"No," when ``question`` is not a yes/no question; and how
    many edits."""
    body = answer.body
    echoed = [
        s
        for s in split_sentences(body)
        if not s.in_table
        and (
            _is_question(s.text)
            or _copies(s.text, question)
            or _copies_brief(s.text)
            or _is_pointer(s.text)
            or _is_wordless(s.text)
        )
    ]
    if echoed:  # the body's own trailing space kept, none left by a removed last sentence
        body = without_units(body, echoed).rstrip() + body[len(body.rstrip()) :]
    edits = len(echoed)
    if not asks_yes_or_no(question) and (stray := _STRAY_VERDICT.match(body)):
        body = stray["lead"] + stray["first"].upper() + body[stray.end() :]
        edits += 1
    if not edits:
        return answer, 0
    return answer.model_copy(update={"body": body}), edits
