"""Reading prose out of a 10-K by code: the business description and the risk-factor headings.

No language model condenses anything here. The pages are found by a lexical (BM25) search
locked to the ticker, fiscal year and document type, then confirmed by the heading the
filing prints (``Item 1. Business``, ``Item 1A. Risk Factors``), which also tells a real
section from the table of contents that names it. What the note quotes is text the page
holds, so a reader can find it on the cited page.

Risk-factor headings are found by layout, since a page's text has lost its fonts: a line
led by ``*`` (3M's style), or a short paragraph (at most three lines, ending in a full stop)
that follows the end of another paragraph and is followed by a longer one, the way a bold
heading sits above its body. That rule can take a one-line body paragraph for a heading;
the note says it lists "headings found on the pages", never that the list is complete.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from retrieval.pages import Page
from retrieval.store import GridFilter

# Headings compared with their spaces removed: PDF text splits words ("Busines s.").
_BUSINESS = ("item1", "business")
_RISKS = ("item1a", "riskfactors")
_NEXT_ITEM = re.compile(r"^\s*item\s*(?:1b|1c|2)\s*[.:]?\s*(?:\n\s*)?\w", re.I | re.M)
_NOISE = re.compile(r"^(?:table of contents|\d{1,3}|page \d+)$", re.I)
# Sentences that define the filing's own terms say nothing about the business.
_DEFINITIONS = re.compile(
    r"\bthe terms?\b|as used herein|when used in this report|defined in|references? to"
    r"|website|securities and exchange commission",
    re.I,
)
_SENTENCE_END = re.compile(r"(?<=[a-z0-9)”\"’])[.!?](?=\s+[A-Z“\"(])")
MAX_RISK_PAGES = 25
MAX_QUOTE = 320


@dataclass(frozen=True)
class Passage:
    """Text quoted from one page."""

    text: str
    page: Page


def annual_filter(ticker: str, fy: int) -> GridFilter:
    """The slice a note reads prose from: the ticker's 10-K of ``fy``."""
    return GridFilter(ticker=ticker, fy=fy, doc_type="10-K")


def _search(store, terms: list[str], where: GridFilter, k: int = 40) -> list[Page]:
    """Pages of ``where`` matching ``terms`` by BM25, in page order."""
    hits = store.bm25(terms, where, k)
    pages = store.pages_by_id([page_id for page_id, _ in hits])
    return sorted(pages, key=lambda p: p.page_index)


def _squeezed(line: str) -> str:
    return re.sub(r"\s+", "", line).lower().rstrip(".:")


def _section_start(page: Page, heading: tuple[str, str]) -> int | None:
    """Where the section's text begins on ``page`` (after its heading line), or None when
    the heading is missing or is a table-of-contents entry (a page number follows it)."""
    item, title = heading
    lines = page.text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    squeezed = [_squeezed(line) for line in lines]
    for i, text in enumerate(squeezed):
        if text in (f"{item}.{title}", f"{item}{title}"):
            end = i + 1
        elif text == item and i + 1 < len(lines) and squeezed[i + 1] == title:
            end = i + 2
        else:
            continue
        after = next((t for t in squeezed[end:] if t), "")
        if not after.isdigit():
            return offsets[end]
    return None


def business_description(store, ticker: str, fy: int) -> Passage | None:
    """The first sentences of ``Item 1. Business`` in the ticker's FY 10-K."""
    for page in _search(store, ["item 1", "business"], annual_filter(ticker, fy)):
        start = _section_start(page, _BUSINESS)
        if start is None:
            continue
        quote = leading_sentences(_paragraph_text(page.text[start:]), skip=_DEFINITIONS)
        if quote:
            return Passage(quote, page)
    return None


def leading_sentences(text: str, words: int = 25, skip: re.Pattern[str] | None = None) -> str:
    """Whole sentences from the start of ``text`` until ``words`` words are in (at most
    :data:`MAX_QUOTE` characters; a longer first sentence is cut with an ellipsis),
    leaving out sentences ``skip`` matches."""
    text = " ".join(text.split())
    taken, count, start = [], 0, 0
    for match in _SENTENCE_END.finditer(text):
        sentence = text[start : match.end()].strip()
        start = match.end()
        if skip is not None and skip.search(sentence):
            continue
        if taken and len(" ".join([*taken, sentence])) > MAX_QUOTE:
            break
        taken.append(sentence)
        count += len(sentence.split())
        if count >= words:
            break
    if not taken:
        taken = [text]
    quote = " ".join(taken)
    if len(quote) > MAX_QUOTE:
        quote = quote[: MAX_QUOTE - 1].rsplit(" ", 1)[0] + "…"
    return quote


def _paragraph_text(text: str) -> str:
    """``text`` without page furniture (``Table of Contents``, page numbers) and captions
    (``Company Overview``: a short line with no end punctuation)."""
    kept = []
    for line in text.splitlines():
        line = line.strip()
        caption = len(line.split()) <= 4 and not line.endswith((".", ",", ";", ":"))
        if line and not _NOISE.match(line) and not caption:
            kept.append(line)
    return "\n".join(kept)


def risk_pages(store, ticker: str, fy: int) -> list[tuple[Page, int]]:
    """The pages of ``Item 1A. Risk Factors`` in the ticker's FY 10-K, each with where the
    section's text starts on it: the first page is found by search, the rest are read in
    page order up to the next item (at most :data:`MAX_RISK_PAGES`)."""
    first = None
    for page in _search(store, ["risk factors", "item 1a"], annual_filter(ticker, fy)):
        start = _section_start(page, _RISKS)
        if start is not None:
            first = (page, start)
            break
    if first is None or first[0].page_id is None:
        return []
    page, start = first
    following = store.pages_by_id(range(page.page_id + 1, page.page_id + MAX_RISK_PAGES))
    found = [(page, start)]
    for nxt in sorted(following, key=lambda p: p.page_index):
        if nxt.doc_name != page.doc_name:
            break
        found.append((nxt, 0))
        if _NEXT_ITEM.search(nxt.text):
            break
    return found


def risk_headings(pages: list[tuple[Page, int]], limit: int = 12) -> tuple[list[Passage], int]:
    """Risk-factor headings on ``pages`` (at most ``limit``), and how many were found."""
    found: list[Passage] = []
    for page, start in pages:
        text = page.text[start:]
        end = _NEXT_ITEM.search(text)
        if end is not None:
            text = text[: end.start()]
        found += [Passage(h, page) for h in _headings(text, skip_intro=start > 0)]
    unique = list({p.text: p for p in found}.values())
    return unique[:limit], len(unique)


def _headings(text: str, skip_intro: bool) -> list[str]:
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if line and not _NOISE.match(line)]
    starred = [i for i, line in enumerate(lines) if line.startswith("* ")]
    if starred:
        return [_clip(_first_sentence(_until_stop(lines, i, strip="* "))) for i in starred]
    paragraphs = _paragraphs(lines)
    if skip_intro and paragraphs:
        paragraphs = paragraphs[1:]
    found = []
    for i, block in enumerate(paragraphs[:-1]):
        after = paragraphs[i + 1]
        is_heading = (
            len(block) <= 3
            and block[-1].endswith(".")
            and len(after) > len(block)
            and block[0][:1].isupper()
            and not (i > 0 and paragraphs[i - 1][-1] == "•")
            and len(" ".join(block).split()) >= 5
        )
        if is_heading:
            found.append(_clip(" ".join(block)))
    return found


def _paragraphs(lines: list[str]) -> list[list[str]]:
    """Lines grouped into paragraphs: a paragraph ends at a line ending in ``.``, ``:`` or
    ``;``, and a line without end punctuation that is short (a caption) stands alone."""
    out: list[list[str]] = []
    current: list[str] = []
    for line in lines:
        current.append(line)
        if line.endswith((".", ":", ";", ".”", '."')) or _is_caption(line, current):
            out.append(current)
            current = []
    if current:
        out.append(current)
    return out


def _is_caption(line: str, current: list[str]) -> bool:
    """A section caption (``Risks Related to Our Operations``): one short line, no stop."""
    return len(current) == 1 and len(line.split()) <= 8 and line[:1].isupper()


def _until_stop(lines: list[str], i: int, strip: str) -> str:
    taken = []
    for line in lines[i : i + 5]:
        taken.append(line.removeprefix(strip) if not taken else line)
        if line.endswith("."):
            break
    return " ".join(taken)


def _first_sentence(text: str) -> str:
    match = _SENTENCE_END.search(text)
    return text[: match.end()] if match else text


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_QUOTE else text[: MAX_QUOTE - 1].rsplit(" ", 1)[0] + "…"
