"""Page text as the embedder and snippets see it: boilerplate and layout noise removed."""

from __future__ import annotations

import re

_BOILERPLATE_LINES = re.compile(
    r"^\s*(table of contents|index|\d{1,3}|page \d+( of \d+)?|\(?continued\)?)\s*$",
    re.IGNORECASE,
)
_SPACES = re.compile(r"[ \t\u00a0]+")


def clean_page_text(text: str) -> str:
    """Drop running headers, page numbers and blank lines; collapse spacing.

    MiniLM reads only 256 tokens, so every token spent on layout is content lost.
    """
    lines = (_SPACES.sub(" ", line).strip() for line in text.splitlines())
    return " ".join(line for line in lines if line and not _BOILERPLATE_LINES.match(line))


def embedding_text(text: str) -> str:
    return clean_page_text(text)[:4000]


def snippet(text: str, terms: list[str], width: int = 280) -> str:
    """The ``width``-character window of ``text`` holding the most query terms.

    The windows are slid over the sorted term positions with two pointers: counting each
    window afresh was quadratic in the matches, which stalled every search that hit a
    page of a megabyte or more (tens of thousands of matches).
    """
    flat = clean_page_text(text)
    if len(flat) <= width:
        return flat
    lowered = flat.lower()
    positions = sorted(
        m.start() for t in set(terms) if len(t) > 2 for m in re.finditer(re.escape(t), lowered)
    )
    best_start, best_count = 0, -1
    end = 0  # the first position at or past the current window's end
    for i, start in enumerate(positions):
        while end < len(positions) and positions[end] < start + width:
            end += 1
        count = end - i  # the positions from ``start`` inside the window
        if count > best_count:
            best_start, best_count = max(0, start - width // 5), count
    window = flat[best_start : best_start + width]
    prefix = "…" if best_start > 0 else ""
    suffix = "…" if best_start + width < len(flat) else ""
    return f"{prefix}{window.strip()}{suffix}"
