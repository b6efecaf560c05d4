"""Split a Markdown body into claim units (sentences and table cells).

Citation coverage, dagger placement and the renumbering invariants are all stated per
sentence, so they must agree on what a sentence is. A unit is a prose sentence (paragraphs
and list items; trailing markers and a dagger after the full stop belong to the sentence),
or a table data cell that holds a digit or a marker. Headings, table header and separator
rows, and blank lines are not claims.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from citations.markup import DAGGER, MARKER_RE, CitedAnswer, iter_markers

_ABBREVIATIONS = {
    "p", "pp", "inc", "corp", "co", "ltd", "no", "vs", "e.g", "i.e", "etc", "approx", "fig",
    "u.s", "mr", "ms", "dr", "st", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
    "sept", "oct", "nov", "dec", "est", "avg", "yr", "yrs", "ca", "cf", "al",
}  # fmt: skip
# Sentence end: . ! ? then closing quotes/brackets, then optional markers and dagger.
_END_RE = re.compile(rf"[.!?][\"'”’)\]*_]*(?:{MARKER_RE.pattern})?{DAGGER}?(?=\s|$)")
_TABLE_SEP_RE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_BLOCK_START_RE = re.compile(r"^\s*(?:#{1,6}\s|[-*+]\s|\d+[.)]\s|\||>)")


@dataclass(frozen=True)
class Sentence:
    """A claim unit: its text, its span in the body, and the citation numbers it carries."""

    text: str
    start: int
    end: int
    markers: tuple[int, ...]
    has_dagger: bool
    in_table: bool = False


def _unit(body: str, start: int, end: int, in_table: bool) -> Sentence | None:
    while start < end and body[start].isspace():
        start += 1
    while end > start and body[end - 1].isspace():
        end -= 1
    if start >= end:
        return None
    text = body[start:end]
    numbers = tuple(n for _, nums in iter_markers(text) for n in nums)
    return Sentence(text, start, end, numbers, DAGGER in text, in_table)


def is_abbreviation(segment: str, dot_at: int) -> bool:
    """True when the full stop at ``dot_at`` ends an abbreviation or initial, not a sentence."""
    word = re.search(r"([A-Za-z.]+)$", segment[max(0, dot_at - 24) : dot_at])
    if word is None:
        return False
    token = word.group(1).lower().strip(".")
    return token in _ABBREVIATIONS or (len(token) == 1 and token.isalpha())


def _split_prose(body: str, start: int, end: int) -> list[Sentence]:
    segment = body[start:end]
    out: list[Sentence] = []
    cursor = 0
    for m in _END_RE.finditer(segment):
        if segment[m.start()] == "." and is_abbreviation(segment, m.start()):
            continue
        nxt = segment[m.end() :].lstrip()
        if nxt and nxt[0].islower():
            continue
        unit = _unit(body, start + cursor, start + m.end(), False)
        if unit is not None:
            out.append(unit)
        cursor = m.end()
    unit = _unit(body, start + cursor, end, False)
    if unit is not None:
        out.append(unit)
    return out


def _split_table_row(body: str, start: int, end: int) -> list[Sentence]:
    out: list[Sentence] = []
    row = body[start:end]
    for m in re.finditer(r"[^|]+", row):
        cell = m.group()
        if re.search(r"\d", cell) or MARKER_RE.search(cell):
            unit = _unit(body, start + m.start(), start + m.end(), True)
            if unit is not None:
                out.append(unit)
    return out


def split_sentences(body: str) -> list[Sentence]:
    """Claim units of a Markdown body, in reading order, with exact spans into ``body``."""
    return list(_split_cached(body))


@lru_cache(maxsize=256)
def _split_cached(body: str) -> tuple[Sentence, ...]:
    # Every metric splits the same report; cache so a composite score splits it once.
    units: list[Sentence] = []
    lines = body.split("\n")
    offsets = []
    pos = 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        begin = offsets[i]
        if not stripped or re.match(r"^\s*#{1,6}\s", line) or stripped.startswith("```"):
            i += 1
            continue
        if stripped.startswith("|"):
            is_header = i + 1 < len(lines) and _TABLE_SEP_RE.match(lines[i + 1])
            if not is_header and not _TABLE_SEP_RE.match(line):
                units.extend(_split_table_row(body, begin, begin + len(line)))
            i += 1
            continue
        # A prose block: this line plus following continuation lines (hard-wrapped prose).
        j = i + 1
        while j < len(lines) and lines[j].strip() and not _BLOCK_START_RE.match(lines[j]):
            j += 1
        end = offsets[j - 1] + len(lines[j - 1])
        content_start = begin + len(re.match(r"^\s*(?:[-*+]\s+|\d+[.)]\s+|>\s*)?", line).group())
        units.extend(_split_prose(body, content_start, end))
        i = j
    return tuple(units)


def uncited_prose(body: str, only: Callable[[str], bool] | None = None) -> list[Sentence]:
    """``body``'s prose sentences (not table cells or headings) that carry no citation
    marker, and, with ``only``, whose text it accepts."""
    return [
        s
        for s in split_sentences(body)
        if not (s.markers or s.in_table or s.text.lstrip().startswith("#"))
        and (only is None or only(s.text))
    ]


def without_units(body: str, units: Iterable[Sentence]) -> str:
    """``body`` less the claim units ``units`` (found in that same ``body``), each with the
    space before the next sentence: what every rule that removes a sentence shares."""
    kept = body
    for unit in sorted(units, key=lambda u: u.start, reverse=True):
        end = unit.end
        while end < len(kept) and kept[end] == " ":
            end += 1
        kept = kept[: unit.start] + kept[end:]
    return kept


#: A sentence that opens by pointing back at the one before it ("This indicates …").
_REFERS_BACK = re.compile(r"^\s*(?:this|that|these|those|it|such)\b", re.IGNORECASE)


def with_followers(body: str, units: Iterable[Sentence]) -> list[Sentence]:
    """``units`` and, after each, the uncited prose sentences that open by pointing back at
    it ("This indicates …"): removed alone, a sentence would leave its followers saying
    "this" of nothing, or of the sentence before it, which they were not about."""
    chosen = {u.start for u in units}
    out = []
    previous_chosen = False
    for sentence in split_sentences(body):
        follows = (
            previous_chosen
            and not sentence.in_table
            and not sentence.markers
            and bool(_REFERS_BACK.match(sentence.text))
        )
        if sentence.start in chosen or follows:
            out.append(sentence)
            previous_chosen = True
        else:
            previous_chosen = False
    return out


def without_units_and_followers(body: str, units: Iterable[Sentence]) -> str:
    """``body`` less ``units`` and the sentences that point back at them
    (:func:`with_followers`): how every check that finds a wrong sentence removes it."""
    return without_units(body, with_followers(body, units))


def without_sentences(answer: CitedAnswer, units: Sequence[Sentence]) -> tuple[CitedAnswer, int]:
    """``answer`` less ``units`` and the sentences that point back at them, without the
    footnotes no sentence marks any more, and how many ``units`` went: the tail every check
    that removes wrong sentences from a cited answer shares (``answer`` itself for none)."""
    if not units:
        return answer, 0
    body = without_units_and_followers(answer.body, units).strip()
    return answer.model_copy(update={"body": body}).cited_only(), len(units)


def without_marks(body: str, sentences: Sequence[Sentence]) -> str:
    """``body`` with the citation marks of ``sentences`` (of ``body``) removed, their words
    kept: what a check does to a sentence whose cited pages do not hold it, so that code
    may cite it afresh or drop it as uncited."""
    for sentence in sorted(sentences, key=lambda s: s.start, reverse=True):
        plain = MARKER_RE.sub("", sentence.text)
        body = body[: sentence.start] + plain + body[sentence.end :]
    return body


_T = TypeVar("_T")


def cited_pages(
    answer: CitedAnswer, sentence: Sentence, by_uid: Mapping[str, _T], default: _T
) -> list[_T]:
    """What ``by_uid`` holds (a page's text, its fiscal year) for each page ``sentence`` of
    ``answer`` cites, ``default`` for a page it lacks: what each check that reads a
    sentence's cited pages starts from."""
    cited_by = answer.references.by_number()
    return [by_uid.get(cited_by[n].uid, default) for n in sentence.markers if n in cited_by]


def without_uncited(body: str, only: Callable[[str], bool] | None = None) -> str:
    """``body`` less the sentences that carry no citation marker (with ``only``, those of
    them whose text it accepts).

    Prose a model writes around cited findings can assert what nothing supports ("the filing
    does not say …" about a slice whose summary it never saw); in a report where every claim
    points at a page, such a sentence is not a finding. Table rows and headings are kept.
    """
    kept = without_units(body, uncited_prose(body, only))
    kept = re.sub(r"[ \t]+\n", "\n", kept)
    kept = re.sub(r"(?m)^[ \t]*[-*][ \t]*$\n?", "", kept)  # bullets left empty
    return re.sub(r"\n{3,}", "\n\n", kept).strip()


_EMPTY_CLAIM_RE = re.compile(rf"<br\s*/?>|{MARKER_RE.pattern}|{DAGGER}|[\s*_#>|.,;:()\[\]-]", re.I)


def states_nothing(text: str) -> bool:
    """Whether a claim unit is markers, daggers and markup only (``<br>¹†``): citing a page
    for nothing is not a finding, and a dagger on it points at no claim."""
    return not _EMPTY_CLAIM_RE.sub("", text)


def without_empty_claims(body: str) -> str:
    """``body`` less its prose claims that state nothing; a table cell that states nothing
    becomes ``–`` (the cell stays, the citation goes)."""
    kept = body
    for sentence in reversed(split_sentences(body)):
        if not states_nothing(sentence.text):
            continue
        filler = "–" if sentence.in_table else ""
        kept = kept[: sentence.start] + filler + kept[sentence.end :]
    return re.sub(r"\n{3,}", "\n\n", kept)


def repeated(body: str) -> list[Sentence]:
    """The prose sentences of ``body`` that say again what one before them said: word for
    word (a composed answer that pasted one finding twice), or reworded around the same
    words and numbers (the composer's "The debt-to-equity ratio does not apply to ORCL
    because its shareholders' equity was negative …" after code's own line saying so,
    :func:`restates`); table cells are left alone."""
    said: list[Sentence] = []
    repeats = []
    for sentence in split_sentences(body):
        if sentence.in_table:
            continue
        if any(restates(sentence.text, before.text) for before in said):
            repeats.append(sentence)
        said.append(sentence)
    return repeats


def without_repeats(body: str) -> str:
    """``body`` less its :func:`repeated` sentences."""
    repeats = repeated(body)
    return without_units(body, repeats) if repeats else body


_WORD_RE = re.compile(r"[a-z0-9][a-z0-9'’&-]*")
#: A reworded sentence adds at most this share of words of its own; with fewer than
#: ``_RESTATED_MIN_WORDS`` words only a word-for-word copy is a repeat.
_RESTATED_NEW_WORDS = 0.1
_RESTATED_MIN_WORDS = 8
#: A capitalised word is a name ("PepsiCo's", "ORCL"), which a sentence about another
#: company adds however few its other new words are; these open sentences, naming nothing.
_NAME_RE = re.compile(r"\b[A-Z][A-Za-z0-9'’&-]*")
_OPENERS = frozenset("the a an this that these it its in on at for as so but and while".split())


def restates(sentence: str, before: str) -> bool:
    """Whether ``sentence`` says nothing ``before`` did not: the same words, or (eight
    words or more) at most one in ten of its own, and no number or name of its own. "Debt
    rose in FY2023" adds a year to "Debt rose", "Gross margin in FY2022 was 67.3%" a year
    and a figure to the FY2021 sentence beside it, and "PepsiCo's revenue grew 5% …" a
    company to 3M's; none restates."""
    if " ".join(sentence.split()) == " ".join(before.split()):
        return True
    words = set(_WORD_RE.findall(sentence.lower()))
    if len(words) < _RESTATED_MIN_WORDS:
        return False
    earlier = set(_WORD_RE.findall(before.lower()))
    new = words - earlier
    own_name = any(
        w.lower() in new and w.lower() not in _OPENERS for w in _NAME_RE.findall(sentence)
    )
    own_number = any(w[0].isdigit() for w in new)
    return not (own_name or own_number) and len(new) <= _RESTATED_NEW_WORDS * len(words)
