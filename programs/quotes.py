"""Copied passages are not answers: what a model pastes from its tool results is dropped.

A small model asked to answer from search hits often pastes them: the hit's header
(``BBY 10-K FY2021 p.24:``), its rows and the ``…`` that mark skipped rows. A pasted row
holds the page's own numbers and words, so code could cite it and an overlap judge would
score it, yet it answers nothing. So before a draft is read, it is read claim by claim (a
line cut after each citation mark, since a model runs pasted rows into one line), and every
claim that is a verbatim row of a page the probe retrieved, or 30 characters or more of
their text, goes, as do hit headers, fact lines and gap marks; what the model wrote in its
own words stays, to be cited, reviewed and judged as the answer.

A sentence of its own words can still be a page's sentence with a number changed: "No
qualified pension plans contributions are expected to be made in 2024" where the page says
2022. Citation and digit checks pass it (2024 is printed elsewhere on the page), yet it is
a misquote: :func:`drop_misquoted` removes a sentence that is a page's words, numbers
aside, but not the page's numbers. So is one that is a page's words with a denial dropped
or added: asked whether gross margin is a useful measure for Boston Properties, the draft
wrote that FFO "does represent cash generated from operating activities … and is a measure
of liquidity" where the 10-K says it "does not represent cash generated from operating
activities … and is not a measure of liquidity".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from citations.hit_numbers import HIT_MARK_RE
from citations.markup import DAGGER, MARKER_RE, CitedAnswer
from citations.sentences import split_sentences, without_units_and_followers
from programs.observations import FACT_LINE_RE, HIT_HEADER_RE
from retrieval.search.rows import page_rows

#: A line this short that matches a page is as likely a phrase of the model's own.
MIN_COPIED_CHARS = 30
#: Beside pasted lines, an uncited line shorter than this is what is left of the paste.
MIN_OWN_WORDS = 6
_GAP_RE = re.compile(r"^[\s…•.\-*|]*$")


def _squash(text: str) -> str:
    """Lower case, one space between words, and no cell bars: a pasted row reads the same
    with or without the ``|`` the passage put between its cells."""
    return " ".join(text.replace("|", " ").split()).lower()


def _without_marks(line: str) -> str:
    """``line`` without hit marks, superscript markers or daggers: what was pasted, if any."""
    line = HIT_MARK_RE.sub(" ", line)
    return MARKER_RE.sub(" ", line).replace(DAGGER, " ")


@dataclass(frozen=True)
class _Rows:
    """A page's rows as passages show them, squashed: each one, and all joined by spaces
    (a model that pastes several rows often runs them into one line)."""

    each: frozenset[str]
    joined: str


@lru_cache(maxsize=256)
def _rows_of(text: str) -> _Rows:
    rows = [_squash(row.text) for row in page_rows(text)]
    return _Rows(frozenset(rows), " ".join(rows))


def _is_copied_text(text: str, pages: list[str]) -> bool:
    """Whether ``text`` (marks removed) is a whole row of one of ``pages``, or
    ``MIN_COPIED_CHARS`` or more of their rows' text."""
    core = _squash(text).strip(" -*.,;:")
    if not core:
        return False
    if len(core) < MIN_COPIED_CHARS:  # a short text is copied only if it is a whole row
        return any(core in _rows_of(page).each for page in pages)
    return any(core in _rows_of(page).joined for page in pages)


def _claims(line: str) -> list[str]:
    """``line`` cut after each citation mark (and the stop that follows it): each piece is
    one claim and what cites it."""
    ends = sorted(m.end() for r in (HIT_MARK_RE, MARKER_RE) for m in r.finditer(line))
    pieces, start = [], 0
    for end in ends:
        while end < len(line) and line[end] in ".,;:!?)":
            end += 1
        if end > start:
            pieces.append(line[start:end])
            start = end
    return [*pieces, line[start:]] if line[start:].strip() else pieces


def is_copied(line: str, pages: Iterable[str]) -> bool:
    """Whether ``line`` is pasted from a tool result: a hit header, a fact line, a gap
    mark, or made only of claims that are whole rows of ``pages`` or
    ``MIN_COPIED_CHARS`` or more of their text (citation marks aside)."""
    return _own_claims(line, list(pages))[0] is None


def _own_claims(line: str, pages: list[str]) -> tuple[str | None, int]:
    """``line`` less the claims pasted from ``pages`` (None when nothing of its own is
    left), and how many claims went."""
    if HIT_HEADER_RE.match(line) or FACT_LINE_RE.match(line):
        return None, 1
    if line.strip() and _GAP_RE.match(line):
        return None, 1
    claims = _claims(line)
    said = [c for c in claims if _without_marks(c).strip(" -*\t")]
    pasted = [
        c
        for c in said
        # a hit's header mid-line is pasted too: "… plans. [3] VZ 10-K FY2021 p.43: reporting"
        if HIT_HEADER_RE.match(c) or _is_copied_text(_without_marks(c), pages)
    ]
    if not pasted:
        return line, 0
    if len(pasted) == len(said):
        return None, len(pasted)
    return "".join(c for c in claims if c not in pasted).rstrip(), len(pasted)


def drop_copied_lines(markdown: str, pages: Iterable[str]) -> tuple[str, int]:
    """``markdown`` without what was pasted from ``pages``' text: whole lines, and the
    pasted claims of a line that also says something of its own; and how many claims
    went (a pasted line is one claim or more)."""
    texts = list(pages)
    kept, dropped = [], 0
    for line in markdown.split("\n"):
        own, gone = _own_claims(line, texts)
        dropped += gone
        if own is not None:
            kept.append(own)
    if dropped:  # what is left of a paste: "Previously, Ms." ends a row the passage cut
        kept = [line for line in kept if not _fragment(line)]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip(), dropped


def _fragment(line: str) -> bool:
    """A line of fewer than ``MIN_OWN_WORDS`` words that cites nothing."""
    cited = HIT_MARK_RE.search(line) or MARKER_RE.search(line)
    return not cited and 0 < len(line.split()) < MIN_OWN_WORDS


#: A sentence shorter than this is too generic to be told a misquote ("Revenue was $5m").
MIN_QUOTE_WORDS = 6
_NUMBER_RE = re.compile(r"\d(?:[\d,.]*\d)?")


@lru_cache(maxsize=256)
def _shape_of(text: str) -> str:
    """A page's rows joined and squashed, every number written ``#``."""
    return _NUMBER_RE.sub("#", _rows_of(text).joined)


def _misquotes(text: str, pages: list[str]) -> bool:
    """Whether ``text`` is a page's words with another number in them, or with a denial
    the page's words do not have (or without one they have)."""
    core = _squash(_without_marks(text)).strip(" -*.,;:")
    if _flips_a_denial(core, pages):
        return True
    if len(core.split()) < MIN_QUOTE_WORDS or not _NUMBER_RE.search(core):
        return False
    if any(core in _rows_of(page).joined for page in pages):
        return False  # the page's own words and numbers: a quote
    shape = _NUMBER_RE.sub("#", core)
    return any(shape in _shape_of(page) for page in pages)


def drop_misquoted(answer: CitedAnswer, pages: Iterable[str]) -> tuple[CitedAnswer, int]:
    """``answer`` less its prose sentences that are a page's words with a number changed
    (and the sentences after them that point back at them); and how many went."""
    texts = list(pages)
    wrong = [
        s for s in split_sentences(answer.body) if not s.in_table and _misquotes(s.text, texts)
    ]
    if not wrong:
        return answer, 0
    body = without_units_and_followers(answer.body, wrong)
    return answer.model_copy(update={"body": body}), len(wrong)


#: So many words in a row, a page's and a sentence's alike, are a quote, not a coincidence.
MIN_DENIAL_RUN = 8
_DENIAL = frozenset({"not", "no", "never", "nor"})
_WORD = re.compile(r"[a-z]+(?:'t)?")


def _signed_words(text: str) -> tuple[tuple[str, bool], ...]:
    """``text``'s words, each with whether a denial stands right before it ("does not
    represent" is ``("does", False), ("represent", True)``); the denials themselves are no
    words, so a sentence and a page that differ only by one read alike."""
    words: list[tuple[str, bool]] = []
    denied = False
    for word in _WORD.findall(text.lower().replace("’", "'")):
        if word in _DENIAL:
            denied = True
            continue
        base = "can" if word == "cannot" else word.removesuffix("n't")
        words.append((base, denied))
        denied = base != word  # "doesn't" and "cannot" deny the word after them
    return tuple(words)


def _runs(words: tuple[tuple[str, bool], ...]) -> list[tuple[tuple[str, ...], tuple[bool, ...]]]:
    """Every ``MIN_DENIAL_RUN`` words in a row: the words, and which of them (after the
    first: a denial before a run is outside it) a denial precedes."""
    return [
        (
            tuple(w for w, _ in words[i : i + MIN_DENIAL_RUN]),
            tuple(d for _, d in words[i + 1 : i + MIN_DENIAL_RUN]),
        )
        for i in range(len(words) - MIN_DENIAL_RUN + 1)
    ]


@lru_cache(maxsize=256)
def _page_runs(text: str) -> dict[tuple[str, ...], frozenset[tuple[bool, ...]]]:
    """A page's runs of words, each with every way the page denies within it."""
    found: dict[tuple[str, ...], set[tuple[bool, ...]]] = {}
    for words, denials in _runs(_signed_words(_rows_of(text).joined)):
        found.setdefault(words, set()).add(denials)
    return {words: frozenset(denials) for words, denials in found.items()}


def _flips_a_denial(text: str, pages: list[str]) -> bool:
    """Whether ``text`` has a run of a page's words that the page denies otherwise: a "not"
    dropped or added. A run the page prints both ways is a quote of one of them."""
    for words, denials in _runs(_signed_words(text)):
        ways = [runs[words] for page in pages if words in (runs := _page_runs(page))]
        if ways and not any(denials in way for way in ways):
            return True
    return False
