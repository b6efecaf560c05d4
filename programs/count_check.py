"""A count whose cited pages never name what it counts is removed.

Asked "How many employees did Walmart have at the end of FY2023?", the draft wrote "Walmart
had 5,306 employees at the end of FY2023", cited to the 10-K page whose 5,306 is the
period-end unit count (stores); the page says nothing of employees, and Walmart calls them
associates (about 2.1 million, on another page). Digit grounding passes it (5,306 is on the
cited page), and so did the reviewer. A count is a number of things, so a sentence that
counts employees, stores, segments or customers stands only on a cited page that names
such things, in any of the words filings use for them ("associates", "team members";
"units", "locations"). One that does not is removed and counted, as
:mod:`programs.basis_check` removes a comparison its pages do not make.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from citations.markup import MARKER_RE, CitedAnswer
from citations.sentences import cited_pages, split_sentences, without_sentences

#: What a draft counts (its noun, singular and plural) -> the words a page may name it by.
COUNTED: dict[str, tuple[str, ...]] = {
    "employee": (
        "employ",
        "associate",
        "workforce",
        "headcount",
        "team member",
        "staff",
        "personnel",
        "people",
        "colleague",
        "worker",
    ),
    "store": ("store", "unit", "location", "restaurant", "club", "outlet", "shop", "boutique"),
    "segment": ("segment",),
    "customer": ("customer", "client", "member", "subscriber", "account"),
}
_NOUN = "|".join(COUNTED)
#: A number (not a year) and, at most two words after it, what it counts ("5,306
#: employees", "1,355 retail stores", "four reportable segments", "2.1 million customers").
_COUNT = re.compile(
    rf"\b(?:(?!(?:19|20)\d\d\b)\d[\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten)"
    rf"(?:\s+(?:thousand|million))?(?:\s+[a-z-]+){{0,2}}?\s+(?P<noun>{_NOUN})s?\b",
    re.IGNORECASE,
)


def counted_nouns(text: str) -> set[str]:
    """The nouns (keys of :data:`COUNTED`) that ``text`` counts with a number."""
    return {m["noun"].lower() for m in _COUNT.finditer(text)}


def _names(page: str, noun: str) -> bool:
    lowered = page.lower()
    return any(re.search(rf"\b{re.escape(word)}", lowered) for word in COUNTED[noun])


def drop_miscounted(answer: CitedAnswer, page_texts: Mapping[str, str]) -> tuple[CitedAnswer, int]:
    """``answer`` without the sentences that count something none of their cited pages
    (``page_texts``: text by page uid) names, and how many were removed."""
    wrong = []
    for sentence in split_sentences(answer.body):
        nouns = counted_nouns(MARKER_RE.sub(" ", sentence.text))
        cited = cited_pages(answer, sentence, page_texts, "")
        if not nouns or not cited:
            continue
        if any(not any(_names(page, noun) for page in cited) for noun in nouns):
            wrong.append(sentence)
    return without_sentences(answer, wrong)
