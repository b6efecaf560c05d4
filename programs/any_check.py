"""A "Yes" to "was there any …?" must cite a sentence that names what was asked.

Asked whether Salesforce recorded any impairment of goodwill in FY2023, the model opened
"Yes, Salesforce recorded impairment of goodwill" before a cited sentence on the $337
million of goodwill an acquisition brought, which no page calls impaired. A draft that
answers yes to such a question while no cited sentence names the accounting item asked is
sent back with the reason (:func:`programs.draft_checks.draft_problem`).
"""

from __future__ import annotations

import re

from citations.markup import MARKER_RE, CitedAnswer
from citations.sentences import split_sentences
from metrics.answer_verdicts import yes_no_polarity
from programs.attribution import content_words

#: "Did Salesforce record any impairment of goodwill in FY2023?": what the question asks
#: whether there was any of, up to its period or the end of its clause.
_ANY_OF = re.compile(
    r"^\W*(?:did|does|do|has|have|had|was|were|is|are)\b[^?]*?\bany\s+(?P<thing>[^?,;]+?)"
    r"(?=\s+(?:in|during|for|at|as\s+of|between|since|from|on|by)\b|[?,;]|$)",
    re.IGNORECASE,
)


#: The accounting items a filing names in its own words where it records them: "any
#: impairment of goodwill" is answered by a sentence that says impairment. Qualifiers
#: ("significant", "unusual") and words a filing may put otherwise ("shutdown" for
#: "closure") ask for no word of their own.
_ITEMS = content_words(
    "impairment impaired restructuring write-down write-off charges loss gain dividends "
    "repurchases buybacks acquisitions divestitures debt borrowings"
)


def unsupported_any(question: str, answer: CitedAnswer) -> str | None:
    """Why a "Yes" to "was there any …?" stands on nothing (None when it does not): no cited
    sentence names the accounting item the question asks there was any of (:data:`_ITEMS`);
    None too when it asks of no such item."""
    found = _ANY_OF.search(question)
    if found is None or yes_no_polarity(answer.body) is not True:
        return None
    wanted = content_words(found["thing"]) & _ITEMS
    cited = [s.text for s in split_sentences(answer.body) if MARKER_RE.search(s.text)]
    if not wanted or any(wanted <= content_words(text) for text in cited):
        return None
    return (
        f"The question asks whether there was any {found['thing']}; no cited sentence says "
        "there was: quote the sentence of the page that does, or say the pages found do not."
    )
