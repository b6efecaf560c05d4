"""Which figure a citation vouches for, and where that figure sits on the cited page.

A marker right after a number (``$1,577 million¹``) cites that number; a marker at the end
of a sentence cites the sentence, whose last figure is the one a reader checks first. The
page viewer marks every place the figure appears on the page, whether the filing prints it
with thousands separators or without (``1,577`` or ``1577``). Years are not figures.
"""

from __future__ import annotations

import re

# A figure as prose writes it: 1,577 / 1577 / 24.3 (optionally $ before or % after).
_FIGURE_RE = re.compile(r"(?<![0-9A-Za-z.,])(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?")
_YEAR_RE = re.compile(r"(?:19|20)[0-9]{2}")
MAX_FIGURE_CHARS = 32


def figure_before(text: str) -> str | None:
    """The last figure in ``text`` that is not a year or a period (``FY2022``, ``Q3``)."""
    for match in reversed(list(_FIGURE_RE.finditer(text))):
        value = match.group()
        prefix = text[max(0, match.start() - 2) : match.start()]
        if _YEAR_RE.fullmatch(value) or prefix.endswith(("FY", "Q", "p.")):
            continue
        return value
    return None


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


def highlight_segments(text: str, figure: str | None) -> list[tuple[str, bool]]:
    """``text`` cut into ``(piece, is_the_figure)`` pieces, in order; joined they are ``text``."""
    pattern = figure_pattern(figure) if figure else None
    if pattern is None:
        return [(text, False)] if text else []
    pieces: list[tuple[str, bool]] = []
    last = 0
    for match in pattern.finditer(text):
        if match.start() > last:
            pieces.append((text[last : match.start()], False))
        pieces.append((match.group(), True))
        last = match.end()
    if last < len(text):
        pieces.append((text[last:], False))
    return pieces
