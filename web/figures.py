"""Which figure or sentence a citation vouches for, and where it sits on the cited page.

A marker right after a number (``$1,577 million¹``) cites that number; a marker at the end
of a sentence cites the sentence, whose last figure is the one a reader checks first.
Figures are read as the numeric-grounding metric reads them (``metrics.numbers``), so what
the viewer marks is what the metric checked: years, periods (``FY2022``, ``Q3``), form
names (``10-K``) and page references are not figures. Reading digits alone marked the
"10" of "10-K" on every page a narrative sentence cited.

On the page, the figure is marked wherever it is printed, with thousands separators or
without (``1,577`` or ``1577``); failing that, wherever the page prints a figure the
grounding metric would accept for it (``$4.8 billion`` against ``4,817`` in a table in
millions). A citation with no figure, or whose figure the page does not print, marks the
passage of the page that shares most of the sentence's content words, read as
``programs.attribution`` reads them when it decides which page supports a sentence.
"""

from __future__ import annotations

import re
from functools import lru_cache

from metrics.numbers import NumberIndex, NumberToken, extract_numbers, readings
from programs.attribution import content_words

MAX_FIGURE_CHARS = 32
#: Longest cited sentence a link carries to the page viewer (a URL stays short).
MAX_QUOTE_CHARS = 400
#: A passage is the cited sentence's when it holds at least this share of the sentence's
#: content words, and at least MIN_SHARED_WORDS of them: fewer marks a passage that only
#: shares the company's name with it.
MIN_QUOTE_SHARE = 0.5
MIN_SHARED_WORDS = 2
_DIGITS_RE = re.compile(r"[0-9][0-9,]*(?:\.[0-9]+)?|\.[0-9]+")
#: Where the page's passages end: a sentence's full stop, a blank line, a bullet or a
#: heading line. Filing text wraps sentences over lines, so a single newline does not.
_PASSAGE_END_RE = re.compile(r"(?<=[.!?;])[\"'”’)]*\s+|\n\s*\n|\n(?=\s*[•\-*▪●])")

Span = tuple[int, int]


def _digits(token: NumberToken) -> str:
    """The figure of ``token`` as written, without its sign, currency or scale word."""
    match = _DIGITS_RE.search(token.raw)
    return match.group() if match else token.raw


def figure_before(text: str) -> str | None:
    """The last figure in ``text``, as the grounding metric reads figures; None if none."""
    tokens = extract_numbers(text)
    return _digits(tokens[-1]) if tokens else None


def figure_pattern(figure: str) -> re.Pattern[str] | None:
    """A pattern for ``figure`` on a page, separators optional; None if it is not a figure."""
    figure = figure.strip().removeprefix("$").removesuffix("%")
    if len(figure) > MAX_FIGURE_CHARS or not re.fullmatch(r"[0-9][0-9,]*(?:\.[0-9]+)?", figure):
        return None
    whole, _, fraction = figure.replace(",", "").partition(".")
    whole = whole.lstrip("0") or "0"
    head = len(whole) % 3 or 3
    groups = [whole[:head]] + [whole[i : i + 3] for i in range(head, len(whole), 3)]
    body = ",?".join(groups) + (r"\." + fraction if fraction else "")
    return re.compile(rf"(?<![0-9.,]){body}(?![0-9]|[.,][0-9])")


def _claim(figure: str, quote: str | None) -> NumberToken | None:
    """The number of the cited sentence that ``figure`` was read from (with its scale and
    currency, which the bare figure has lost), or None."""
    wanted = figure.strip().removeprefix("$").removesuffix("%")
    for token in reversed(extract_numbers(quote or "")):
        if _digits(token) == wanted:
            return token
    return None


def _figure_spans(text: str, figure: str, quote: str | None) -> list[Span]:
    pattern = figure_pattern(figure)
    if pattern is None:
        return []
    spans = [m.span() for m in pattern.finditer(text)]
    claim = _claim(figure, quote) if not spans else None
    if claim is None:
        return spans
    # Not printed as written: the page's figures that numeric grounding accepts for it
    # (their digits: a sign, currency or scale word around them is not marked).
    return [
        digits.span()
        for token in extract_numbers(text)
        if NumberIndex(readings(token)).matches(claim)
        and (digits := _DIGITS_RE.search(text, token.start, token.end)) is not None
    ]


def _trimmed(text: str, start: int, end: int) -> Span:
    """``(start, end)`` less the whitespace at either end of ``text[start:end]``."""
    piece = text[start:end]
    return start + len(piece) - len(piece.lstrip()), end - len(piece) + len(piece.rstrip())


@lru_cache(maxsize=64)
def _passages(text: str) -> tuple[tuple[int, int, frozenset[str]], ...]:
    """The page's passages: (start, end, content words), whitespace trimmed."""
    out, start = [], 0
    for boundary in [*_PASSAGE_END_RE.finditer(text), None]:
        end = boundary.start() if boundary else len(text)
        piece = text[start:end]
        if piece.strip():
            out.append((*_trimmed(text, start, end), content_words(piece)))
        start = boundary.end() if boundary else len(text)
    return tuple(out)


def quote_span(text: str, quote: str | None) -> Span | None:
    """The passage of ``text`` that says what ``quote`` says (most of its content words),
    or None when no passage shares enough of them."""
    words = content_words(quote or "")
    if len(words) < MIN_SHARED_WORDS:
        return None
    best: tuple[float, int, Span] | None = None
    for start, end, passage in _passages(text):
        shared = len(words & passage)
        if shared < MIN_SHARED_WORDS or shared / len(words) < MIN_QUOTE_SHARE:
            continue
        # Most of the sentence's words first; then the passage with fewest other words.
        score = (shared / len(words), -len(passage))
        if best is None or score > best[:2]:
            best = (*score, (start, end))
    return best[2] if best else None


def find_marks(text: str, figure: str | None, quote: str | None = None) -> tuple[list[Span], str]:
    """Where on ``text`` the citation's figure is (see the module docstring), else its
    sentence: sorted spans, and which of the two they are (``figure``, ``sentence``, or
    ``""`` when neither is found)."""
    spans = _figure_spans(text, figure, quote) if figure else []
    if spans:
        return sorted(spans), "figure"
    span = quote_span(text, quote)
    return ([span], "sentence") if span is not None else ([], "")


def segments(text: str, spans: list[Span]) -> list[tuple[str, bool]]:
    """``text`` cut at ``spans`` into ``(piece, is_marked)`` pieces; joined they are ``text``."""
    pieces: list[tuple[str, bool]] = []
    last = 0
    for start, end in spans:
        if start < last or end <= start:
            continue
        if start > last:
            pieces.append((text[last:start], False))
        pieces.append((text[start:end], True))
        last = end
    if last < len(text):
        pieces.append((text[last:], False))
    return pieces


def highlight_segments(
    text: str, figure: str | None, quote: str | None = None
) -> list[tuple[str, bool]]:
    """``text`` cut into ``(piece, is_marked)`` pieces, in order; joined they are ``text``."""
    return segments(text, find_marks(text, figure, quote)[0])


def clean_quote(sentence: str) -> str:
    """A cited sentence as a link carries it: one line, at most MAX_QUOTE_CHARS, cut at a
    word."""
    quote = re.sub(r"\s+", " ", sentence).strip()
    if len(quote) <= MAX_QUOTE_CHARS:
        return quote
    return quote[:MAX_QUOTE_CHARS].rsplit(" ", 1)[0]
