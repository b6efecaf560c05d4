"""How many stores (restaurants, locations) a company has, read from its filing's table.

A 10-K prints its store count as a table by region or by ownership whose rows add up to a
total ("Systemwide restaurants at year end | 2022 | 2021 | 2020", U.S. 13,444,
International Operated Markets 10,103, …, Total 40,275). Asked "How many restaurants did
McDonald's operate at the end of 2022?", the embedded model answered with one region's row
(10,103) and then, that sentence removed, with the page's printed page number ("20
restaurants"). Code reads the table: on the slice's pages searched for the question, a table
whose heading names what the question counts ("restaurants") and the slice's fiscal year
among its column years, and whose rows add up to its total row
(:func:`programs.count_check.footed_tables`). When such tables give one total for the year,
it is the answer, with its parts, cited to the page; otherwise the question is researched as
before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citations.markup import CitedAnswer
from programs.count_check import ASKED, count_asked, footed_tables
from programs.page_hits import PageHit, cited_to

_YEAR = re.compile(r"\b(?:19|20)\d\d\b")


def asks_store_count(question: str) -> bool:
    """Whether the question asks how many stores, restaurants or locations there are."""
    return count_asked(question) == "store"


def counted_total(question: str, pages: Sequence[PageHit], fy: int) -> tuple[PageHit, str] | None:
    """The page and the answer's sentence (marks ``¹``) of the one total that the pages'
    tables of what the question counts give for fiscal year ``fy``; None when none or
    several different ones do."""
    if not asks_store_count(question):
        return None
    words = [w for w in ASKED["store"] if w in question.lower()]
    found: dict[float, tuple[PageHit, str]] = {}
    for page in pages:
        for heading, parts, total in footed_tables(page.text):
            title = heading.splitlines()[-1] if heading else ""
            years = [int(y) for y in _YEAR.findall(title)]
            if not any(w in title.lower() for w in words) or years.count(fy) != 1:
                continue
            if len(years) != len(total):
                continue  # a column the header does not name: no year to read it by
            column = years.index(fy)
            name = _YEAR.sub("", title).replace("|", " ")
            each = "; ".join(f"{label} {values[column]:,.0f}" for label, values in parts)
            sentence = f"{' '.join(name.split())} ({fy}): {total[column]:,.0f}¹, of which {each}."
            found.setdefault(total[column], (page, sentence))
    return next(iter(found.values())) if len(found) == 1 else None


def store_count_answer(page: PageHit, sentence: str) -> CitedAnswer:
    """The table's total and its parts as the answer, cited to its page."""
    return cited_to(sentence, page)
