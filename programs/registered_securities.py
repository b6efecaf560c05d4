"""Which securities are registered on an exchange, read from the filing's cover page.

A 10-K's, 10-Q's or 8-K's cover lists every class registered under Section 12(b) of the Exchange
Act: "Title of each class", its trading symbol and the exchange, down to "Securities
registered pursuant to Section 12(g)". Asked which debt securities are registered, the
embedded model listed a few of Apple's eleven notes. The cover is a list code can read:
the class titles between the header and the Section 12(g) line, the debt among them
being the notes, debentures and bonds (a rate or a maturity in the title). The layout
varies (a title, its symbol and its exchange on lines of their own, or all titles first),
so only the titles are read, never paired with the other columns.

An earnings release prints no cover (10-Ks, 10-Qs and 8-Ks do). Asked of a quarter the
grid holds only a release for (McDonald's Q2 2023), the researcher, shown the release,
answered with an unrelated amount; so the cover is looked for in the company's nearest
filings, earlier ones first (a later filing may register notes issued after the period
asked), and the answer says whose cover it read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from citations.markup import CitedAnswer
from domain.cells import SliceRef
from domain.periods import slice_period
from metrics.answer_verdicts import is_yes_no_question
from programs.latest_periods import position
from programs.page_hits import PageHit, cited_to
from retrieval.store import GridFilter

#: How many quarters away, each way, a cover is looked for when the slice's filings print none.
COVER_REACH = 4

#: Registered securities, or a listing on an exchange ("registered public accounting firm"
#: and "shares listed in the table" ask no such thing).
_ASKS = re.compile(
    r"\b(?:securities|notes|bonds|debentures|stock|shares)\b[^?]*\bregistered\b"
    r"|\bregistered\b[^?]*\b(?:exchange|trade|trading)\b"
    r"|\blisted\b[^?]*\b(?:exchange|nyse|nasdaq)\b",
    re.IGNORECASE,
)
_DEBT_ASKED = re.compile(r"\b(?:debt|notes?|bonds?|debentures?)\b", re.IGNORECASE)
_HEADER = re.compile(r"^\s*title\s+of\s+(?:each|the)\s+class", re.IGNORECASE)
_END = re.compile(r"section\s+12\s*\(g\)", re.IGNORECASE)
#: A class title: a security's name (stock, shares, notes, …), not a symbol or an exchange.
_CLASS = re.compile(
    r"\b(?:stock|shares|notes?|debentures?|bonds?|warrants?|units?|depositary|preferred)\b",
    re.IGNORECASE,
)
_EXCHANGE = re.compile(r"\b(?:exchange|market|nasdaq|nyse)\b", re.IGNORECASE)
_DEBT = re.compile(r"\b(?:notes?|debentures?|bonds?)\b", re.IGNORECASE)


def asks_registered(question: str) -> bool:
    """Whether the question asks which securities are registered to trade on an exchange."""
    return _ASKS.search(question) is not None


def cover_classes(text: str) -> list[str] | None:
    """The class titles a cover page registers under Section 12(b), in order; None when
    the page has no such list."""
    lines = [" ".join(line.split()) for line in text.splitlines()]
    start = next((i for i, line in enumerate(lines) if _HEADER.match(line)), None)
    if start is None:
        return None
    classes: list[str] = []
    for line in lines[start + 1 :]:
        if _END.search(line):
            break
        if _CLASS.search(line) and not _EXCHANGE.search(line) and line not in classes:
            classes.append(line.rstrip(" ,;"))
    return classes


def registered_answer(question: str, page: PageHit) -> CitedAnswer | None:
    """The classes the question asks about (the debt ones, when it asks about debt), cited
    to the cover page; None when the page lists no registered classes."""
    classes = cover_classes(page.text)
    if not classes:
        return None
    if _DEBT_ASKED.search(question):
        debt = [c for c in classes if _DEBT.search(c)]
        asked_yes_no = is_yes_no_question(question)  # "Does eBay have any …?": yes or no first
        if debt:
            body = (
                f"{'Yes: ' if asked_yes_no else ''}{len(debt)} debt "
                f"securit{'ies are' if len(debt) > 1 else 'y is'} registered "
                f"to trade on an exchange: {'; '.join(debt)}¹."
            )
        else:
            body = (
                f"{'No' if asked_yes_no else 'None'}: the cover registers no debt security, "
                f"only {'; '.join(classes)}¹."
            )
    else:
        body = f"Registered to trade on an exchange: {'; '.join(classes)}¹."
    return cited_to(body, page)


def cover_answer(question: str, pages: Sequence[PageHit]) -> tuple[PageHit, CitedAnswer] | None:
    """The first of ``pages`` that is a cover listing registered classes, and the answer it
    gives; None when the question does not ask or no page lists them."""
    if not asks_registered(question):
        return None
    for page in pages:
        if (answer := registered_answer(question, page)) is not None:
            return page, answer
    return None


def nearest_cover(
    question: str, slice: SliceRef, search: Callable[[GridFilter], Sequence[PageHit]]
) -> tuple[PageHit, CitedAnswer] | None:
    """The cover of the company's filing nearest to ``slice`` that lists registered
    classes, and the answer it gives, saying whose cover it is; ``search`` searches one
    locked cell. Earlier cells are tried before later ones at each distance; None when the
    question does not ask or no cover lies within :data:`COVER_REACH` quarters."""
    if not asks_registered(question):
        return None
    here = position(slice.fy, slice_period(slice).fq)
    for distance in range(1, COVER_REACH + 1):
        for at in (here - distance, here + distance):
            fy, fq = (at - 1) // 4, (at - 1) % 4 + 1
            found = cover_answer(question, search(GridFilter(slice.ticker, fy, fq)))
            if found is not None:
                page, answer = found
                said = (
                    f"{answer.body} The grid holds no cover page for {slice.label}; this is "
                    f"the cover of {page.doc_label}, the nearest filing that prints one¹."
                )
                return page, answer.model_copy(update={"body": said})
    return None
