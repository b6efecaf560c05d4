"""How many people a company employs, answered by the filing's own sentence.

A 10-K states its headcount once, in prose ("As of December 31, 2022, we employed
approximately 11,600 people globally."; "As of May 31, 2023, we employed approximately
164,000 full-time employees."). Asked "How many employees did eBay have at the end of
FY2022?", the embedded model had that page at ``[3]`` and answered with the page at ``[5]``:
"134 million active buyers and approximately 1.7 billion live listings". Code can find the
sentence: on the slice's pages searched for the question, one that says the company has
staff ("employed", "had", "a workforce of") and puts a number right before a word for them
("11,600 people", "164,000 full-time employees", "2.1 million associates"; a year or a
dollar amount is no count), about the whole company: not a part of it ("approximately 6,800
of our employees were located in the U.S."; a question about a part's staff is left to the
research), not something staff did ("employees purchased approximately 2 million shares"),
not a plan's terms. The pages are the question's search and a search in the sentence's own
words (:data:`HEADCOUNT_QUERY`). When the sentences found state one headcount, the first is
the answer, quoted and cited to its page; otherwise the question is researched as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citations.markup import CitedAnswer
from programs.cause_check import page_sentences
from programs.count_check import count_asked
from programs.figure_questions import PART_RE
from programs.page_hits import PageHit, cited_to

_NUMBER = r"(?<![$\w,.-])(?!(?:19|20)\d\d\b)\d(?:[\d,.]*\d)?(?:\s+(?:thousand|million))?"
#: A headcount as filings state it: the company has or employs a number (not a year, not a
#: dollar amount) of people ("we employed approximately 11,600 people", "had approximately
#: 164,000 full-time equivalent employees", "a workforce of 110,600 people", "44,600
#: full-time and 14,900 part-time employees"); the first number is the one read.
_HEADCOUNT = re.compile(
    r"\b(?:employ(?:s|ed|ing)?|had|has|have|workforce\s+of|headcount\s+(?:of|was))\s+"
    r"(?:(?:approximately|about|around|over|nearly|roughly|more\s+than|some|a\s+total\s+of)\s+)?"
    rf"(?P<n>{_NUMBER})(?:\s+[a-z-]+){{0,2}}?"
    rf"(?:\s+and\s+(?:approximately\s+)?{_NUMBER}(?:\s+[a-z-]+){{0,2}}?)?"
    r"\s+(?:employees|people|persons|individuals|associates|team\s+members|colleagues|workers"
    r"|staff|personnel|professionals|full-time\s+equivalents)\b(?![\s-]+managers?\b)",
    re.IGNORECASE,
)
#: A part of the staff ("6,800 of our employees"; "In addition, we had approximately 10,000
#: employees at MGM China"; a facility's or a project's), staff counted by what they did or
#: hold, and a plan's terms ("no more than 50 employees identified … shall be treated as").
_NOT_THE_WHOLE = re.compile(
    r"\b\d[\d,.]*\s+of\s+(?:our|its|the|these|those|whom|which)\b|^\W*in\s+addition\b"
    r"|\b(?:facility|plant|project|site|factory|mill|mine|purchased|bought|received|held"
    r"|exercised|granted|participat\w*|eligible|enrolled|identified|treated|shall|specified"
    r"|key\s+employees|shares?|stock|union\w*|collective\w*)\b",
    re.IGNORECASE,
)
#: Staff counted where they are placed, right after the count: a country's, not the whole's.
_PLACED = re.compile(
    r",?(?:\s+respectively,?)?\s+(?:who\s+are\s+|were\s+|are\s+)?(?:located|based)\s+(?:in|outside)\b",
    re.IGNORECASE,
)
#: A section heading the page text runs into the sentence ("Human Capital Management As of
#: December 31, 2022, we employed …", "EMPLOYEES As of …", "Employees — As of …"): title-case
#: words before the sentence's own opening.
_HEADING = re.compile(
    r"^(?:(?:[A-Z0-9][\w&'.-]*|of|and|&)\s+){1,8}?(?:[—–-]\s+)?"
    r"(?=(?:As\s+of|At|On|We|Our|The\s+Company)\b)"
)
#: The headcount sentence's own words, searched beside the question: Oracle's FY2020
#: "As of May 31, 2020, we employed approximately 135,000 full-time employees" was not among
#: the pages the question found. Across the grid's 248 10-Ks, the question's search quoted a
#: headcount for 87 and, with these words, 122; where both quoted one, it was the same.
HEADCOUNT_QUERY = "employees as of we employed approximately people"
#: Longer than this, a page "sentence" is a run of table text, not a sentence.
_MAX_CHARS = 400


def asks_headcount(question: str) -> bool:
    """Whether the question asks how many people the whole company employs (a country's or
    a segment's staff is left to the research)."""
    return count_asked(question) == "employee" and PART_RE.search(question) is None


def company_headcount(sentence: str) -> str | None:
    """The headcount a page ``sentence`` states for the whole company ("11,600"), or None:
    the number the company has or employs, about all of them. A part the sentence goes on
    to ("…, of which approximately 62,000 were employed in the U.S.") follows the whole; a
    part named first ("In the U.S., we had …") is the part's count."""
    if len(sentence) > _MAX_CHARS or _NOT_THE_WHOLE.search(sentence):
        return None
    counted = _HEADCOUNT.search(sentence)
    if counted is None:
        return None
    if _PLACED.match(sentence, counted.end()):
        return None  # "12,400 and 51,000 employees, respectively, located in the United States"
    part = PART_RE.search(sentence)
    return None if part is not None and part.start() < counted.start() else counted["n"]


def quoted_headcount(question: str, pages: Sequence[PageHit]) -> tuple[PageHit, str] | None:
    """The first sentence of ``pages`` (in search order) that states the company's
    headcount, with its page; None when the question asks none, no sentence states it, or
    sentences state different headcounts (a 10-K and its annual report, or a headcount
    restated on a later page, say the same number)."""
    if not asks_headcount(question):
        return None
    found: dict[str, tuple[PageHit, str]] = {}
    for page in pages:
        for sentence in page_sentences(page.text):
            if (number := company_headcount(sentence)) is not None:
                found.setdefault(number, (page, _HEADING.sub("", " ".join(sentence.split()))))
    return next(iter(found.values())) if len(found) == 1 else None


def headcount_answer(page: PageHit, sentence: str) -> CitedAnswer:
    """The page's sentence as the answer, quoted (it speaks as the company: "we employed")
    and cited to its page."""
    return cited_to(f"In the filing's words: “{sentence}”¹", page)
