"""Whether internal control over financial reporting was effective, or a material weakness
existed, answered by the 10-K's own conclusion.

Every 10-K states management's conclusion on its internal control over financial reporting,
and its auditor's opinion on it, in one sentence each: "management has concluded that its
internal control over financial reporting was effective as of September 26, 2020"; "In our
opinion, the Company maintained, in all material respects, effective internal control over
financial reporting"; or, where it was not, "… was not effective as of January 28, 2023"
beside the material weakness that made it so. Asked "Did Apple's management identify any
material weakness in internal control over financial reporting in FY2020?", the embedded
model answered "Yes, … identified a material weakness", then quoted the conclusion that
the control was effective. Under the rules a 10-K follows, one material weakness at
year end rules out an "effective" conclusion, so the conclusion answers both questions:
code reads it from the slice's 10-K pages searched for the question and for the
conclusion's own words, and quotes it.

It answers only when the pages agree: conclusions that differ, or an effective conclusion
beside a sentence about a weakness actually found or remediated ("management remediated an
identified material weakness", not the risk factor's "any newly identified material
weaknesses could …"), are left to the research, as is a quarter's 10-Q, which concludes on
disclosure controls only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citations.markup import CitedAnswer
from programs.answer_form import opens_yes_no
from programs.cause_check import page_sentences
from programs.page_hits import PageHit, cited_to

#: A question about internal control over financial reporting or a material weakness in it.
_ASKS = re.compile(
    r"\bmaterial\s+weakness(?:es)?\b|\binternal\s+controls?\b[^?]*\beffective\b"
    r"|\beffective\b[^?]*\binternal\s+controls?\b",
    re.IGNORECASE,
)
_WEAKNESS_ASKED = re.compile(r"\bmaterial\s+weakness", re.IGNORECASE)
#: What the conclusion sentence says, management's or the auditor's.
_EFFECTIVE = re.compile(
    r"internal control over financial reporting (?:was|is|were) effective\b"
    r"|\bmaintained,?(?: in all material respects,?)? effective internal control over"
    r" financial reporting",
    re.IGNORECASE,
)
_NOT_EFFECTIVE = re.compile(
    r"internal control over financial reporting (?:was|is|were) not effective\b"
    r"|\b(?:did not|does not|has not|had not) maintain(?:ed)?,?(?: in all material respects,?)?"
    r" effective internal control over financial reporting",
    re.IGNORECASE,
)
#: A weakness actually found, remediated or described ("we identified material weaknesses",
#: "the deficiency constitutes a material weakness"), not a risk of one ("could", "may").
_WEAKNESS_FOUND = re.compile(
    r"\b(?:identified|remediated|constitutes?|represents?|represented|due to|existence of|"
    r"following)\b[^.]{0,80}\bmaterial\s+weakness",
    re.IGNORECASE,
)
_HYPOTHETICAL = re.compile(
    r"\b(?:could|may|might|would|if\s+we|any\s+newly|in\s+the\s+future)\b", re.IGNORECASE
)
#: Longer than this, a page "sentence" is a run of text, not a sentence.
_MAX_CHARS = 500
#: The conclusion's own words, searched beside the question.
CONCLUSION_QUERY = "management concluded internal control over financial reporting was effective"


def asks_control_conclusion(question: str) -> bool:
    """Whether the question asks whether internal control over financial reporting was
    effective, or whether a material weakness existed."""
    return _ASKS.search(question) is not None


def conclusion_of(sentence: str) -> bool | None:
    """True when ``sentence`` concludes the control effective, False when not effective,
    None when it concludes neither."""
    if len(sentence) > _MAX_CHARS:
        return None
    if _NOT_EFFECTIVE.search(sentence):
        return False
    return True if _EFFECTIVE.search(sentence) else None


def _weakness_found(sentence: str) -> bool:
    return _WEAKNESS_FOUND.search(sentence) is not None and not _HYPOTHETICAL.search(sentence)


def quoted_conclusion(question: str, pages: Sequence[PageHit]) -> tuple[PageHit, str, bool] | None:
    """The first conclusion sentence of ``pages``' 10-K pages (in search order), its page
    and whether it says effective; None when the question asks none, no page concludes,
    the conclusions differ, or an effective conclusion stands beside a weakness found."""
    if not asks_control_conclusion(question):
        return None
    found: list[tuple[PageHit, str, bool]] = []
    weakness = False
    for page in pages:
        if "10-K" not in page.doc_label:
            continue
        for sentence in page_sentences(page.text):
            weakness = weakness or _weakness_found(sentence)
            if (effective := conclusion_of(sentence)) is not None:
                found.append((page, " ".join(sentence.split()), effective))
    if not found or len({effective for _, _, effective in found}) > 1:
        return None
    if found[0][2] and weakness:
        return None
    return found[0]


def conclusion_answer(question: str, page: PageHit, sentence: str, effective: bool) -> CitedAnswer:
    """The conclusion quoted and cited, opened by the direct answer a yes/no question asks:
    whether a material weakness existed, or whether the control was effective."""
    quote = f"“{sentence}”¹"
    if not opens_yes_no(question):
        return cited_to(f"In the filing's words: {quote}", page)
    if _WEAKNESS_ASKED.search(question):
        if effective:
            body = (
                "No: internal control over financial reporting was concluded effective, which "
                f"a material weakness at year end would rule out. In the filing's words: {quote}"
            )
        else:
            body = f"Yes: in the filing's words, {quote}"
    else:
        body = f"{'Yes' if effective else 'No'}: in the filing's words, {quote}"
    return cited_to(body, page)
