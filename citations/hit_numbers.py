"""Citation by hit number: what a model writes, and how code turns it into the protocol.

A small model copies a short mark far more reliably than a uid line: shown each retrieved
page as ``[3] ACME 10-K FY2031 p.48: …``, it writes ``[3]`` after the sentence or number the
page supports, and code writes the superscript markers and the ``Sources`` block from the
grid's own record of page 3. A number the model was never shown cites nothing: it is
removed from the text and counted, as a fabricated uid is under the full protocol.

The model is also shown its previous draft in the same form (:func:`numbered_markdown`),
so one turn's citations carry over to the next without it ever writing a footnote.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from citations.markup import (
    Citation,
    CitedAnswer,
    Footnote,
    ReferenceList,
    iter_markers,
    parse_cited_answer,
    render_marker,
)
from citations.sentences import split_sentences

_GROUP = r"\[\s*\d{1,3}(?:\s*[,;]\s*\d{1,3})*\s*\]"
#: One cited spot: ``[3]``, ``[3, 5]``, ``[3][5]`` or ``[3], [5]`` (never a Markdown link).
HIT_MARK_RE = re.compile(rf"[ \t]*{_GROUP}(?:[ \t]*,?[ \t]*{_GROUP})*(?!\()")
#: Marks that open a line, as hits are listed (``[2][5] Capex rose 12%.``): they cite the
#: line's first sentence, so they move to its end.
_LEADING_RE = re.compile(
    rf"^(?P<indent>[ \t]*(?:[-*]\s+)?)(?P<marks>{_GROUP}(?:[ \t]*{_GROUP})*)[ \t]*"
)
#: A Sources line a model wrote anyway: ``[3] ACME 10-K FY2031 p.48 …``.
_SOURCE_LINE_RE = re.compile(r"^\s*(?:[-*]\s+)?\[\d{1,3}\]\s+\S.*\bp\.\s?\d+", re.IGNORECASE)


@dataclass
class NumberedDraft:
    """A draft read from hit numbers: the cited answer, and the numbers that cite nothing."""

    answer: CitedAnswer
    unknown: list[int] = field(default_factory=list)


def has_hit_marks(markdown: str) -> bool:
    """Whether ``markdown`` cites by hit number (at least one ``[n]`` in its prose)."""
    return HIT_MARK_RE.search(_prose(markdown)) is not None


def _prose(markdown: str) -> str:
    """``markdown`` without any Sources or Notes block a model wrote after its prose."""
    lines = parse_cited_answer(markdown).body.splitlines()
    while lines and (not lines[-1].strip() or _SOURCE_LINE_RE.match(lines[-1])):
        lines.pop()
    return "\n".join(lines)


def _marks_after_first_sentence(line: str) -> str:
    """A line that opens with marks, with them moved to the end of its first sentence (as
    ``citations.sentences`` reads sentences: "Inc." does not end one)."""
    m = _LEADING_RE.match(line)
    if m is None or m.end() == len(line):
        return line
    rest = line[m.end() :]
    sentences = split_sentences(rest)
    end = sentences[0].end if sentences else len(rest)
    return f"{m.group('indent')}{rest[:end]} {m.group('marks')}{rest[end:]}"


def _attach_lone_marks(lines: list[str]) -> list[str]:
    """Lines holding nothing but marks joined to the prose they cite: after a prose line,
    its end (``Capex rose.`` / ``[3]``); opening a paragraph, the start of the next line
    (``[1] [6]`` / ``Cash flow was highest.``), whose first sentence they then cite; after
    the last paragraph, its end. Marks with no prose at all cite nothing and go."""
    out: list[str] = []
    pending = ""
    for line in lines:
        if line.strip() and HIT_MARK_RE.fullmatch(line.strip()):
            if out and out[-1].strip():
                out[-1] = f"{out[-1].rstrip()} {line.strip()}"
            else:
                pending = f"{pending} {line.strip()}".strip()
            continue
        if pending and line.strip():
            line, pending = f"{pending} {line.lstrip()}", ""
        out.append(line)
    if pending:  # marks after everything: the last prose line's, if there is one
        last = next((i for i in range(len(out) - 1, -1, -1) if out[i].strip()), None)
        if last is not None:
            out[last] = f"{out[last].rstrip()} {pending}"
    return out


def parse_numbered_answer(markdown: str, pages: Mapping[int, Citation]) -> NumberedDraft:
    """Hit-numbered Markdown -> a cited answer whose footnotes are ``pages``' citations.

    Footnotes are numbered in order of first use; a mark's whitespace goes, so
    ``$4.8 billion [3].`` reads ``$4.8 billion¹.``. Numbers not in ``pages`` are dropped
    from the text and returned as ``unknown``.
    """
    footnote_of: dict[int, int] = {}
    unknown: list[int] = []

    def replace(match: re.Match[str]) -> str:
        numbers = [int(n) for n in re.findall(r"\d+", match.group())]
        marks = []
        for hit in dict.fromkeys(numbers):
            if hit not in pages:
                if hit not in unknown:
                    unknown.append(hit)
                continue
            marks.append(footnote_of.setdefault(hit, len(footnote_of) + 1))
        return render_marker(sorted(marks))

    lines = _attach_lone_marks(_prose(markdown).split("\n"))
    prose = "\n".join(_marks_after_first_sentence(line) for line in lines)
    body = HIT_MARK_RE.sub(replace, prose).strip()
    footnotes = [Footnote(number=n, citation=pages[hit]) for hit, n in footnote_of.items()]
    answer = CitedAnswer(body=body, references=ReferenceList(footnotes=footnotes))
    return NumberedDraft(answer=answer, unknown=unknown)


def numbered_markdown(answer: CitedAnswer, hit_of_uid: Mapping[str, int]) -> str:
    """``answer``'s prose with each superscript marker written as the hit numbers it cites
    (``$4.8 billion¹`` -> ``$4.8 billion [3]``); citations of pages without a number go."""
    hit_of_footnote = {
        f.number: hit_of_uid[f.citation.uid]
        for f in answer.references.footnotes
        if f.citation.uid in hit_of_uid
    }
    body, end, parts = answer.body, 0, []
    for match, numbers in iter_markers(body):
        hits = sorted({hit_of_footnote[n] for n in numbers if n in hit_of_footnote})
        parts.append(body[end : match.start()])
        parts.append("".join(f" [{h}]" for h in hits))
        end = match.end()
    parts.append(body[end:])
    return "".join(parts)
