"""Which of the statement figures a question lists is the largest (or the smallest), read by
code: "Among operations, investing, and financing activities, which brought in the most (or
lost the least) cash flow for Nike in FY2023?".

Such a question names its options and the measure they share, and the statements print each
option's figure (cash from operations, investing and financing). Asked of a small model, the
answer restated the options and picked none ("Among operations, investing, and financing
activities, Nike brought in the most cash flow"), or picked by the size of a number it
misread; code reads the three figures from the facts and compares them. Only a plain size
comparison in one period is read here: a question about which grew most, or changed, needs
two periods, and one whose options the calculator does not know stays with the agents.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: "Among A, B, and C, which …": the options, as written, before the question's "which".
_AMONG_RE = re.compile(r"\bamong\s+(?P<opts>[^?]+?),\s*which\b(?P<ask>[^?]*)", re.IGNORECASE)
_SPLIT_RE = re.compile(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", re.IGNORECASE)
_LARGEST_RE = re.compile(r"\b(?:most|largest|highest|greatest|biggest)\b", re.IGNORECASE)
_SMALLEST_RE = re.compile(r"\b(?:least|lowest|smallest|fewest)\b", re.IGNORECASE)
#: A comparison of changes, not of sizes: two periods' figures, which this does not read.
_CHANGE_RE = re.compile(
    r"\b(?:grew|grow\w*|increas\w*|decreas\w*|declin\w*|chang\w*|improv\w*|rose|fell)\b",
    re.IGNORECASE,
)
#: A verb of cash going out: the option that "used the least" is the one whose signed figure
#: (an outflow printed negative) is the largest.
_OUTFLOW_RE = re.compile(r"\b(?:used|uses|lost|spent|consumed|burn\w*|paid)\b", re.IGNORECASE)
#: Where the measure asked about ends: the company or the period.
_MEASURE_END_RE = re.compile(r"\s+(?:for|in|during|of|at|as of)\s+|$", re.IGNORECASE)


@dataclass(frozen=True)
class ChoiceQuestion:
    """The options a question asks code to compare, and what each option's figure may be
    called (its candidates, most specific first)."""

    options: tuple[str, ...]  # as the question writes them: "operations", "investing", …
    candidates: tuple[tuple[str, ...], ...]  # per option: "cash flow from operations …", …
    largest: bool  # the largest signed figure is the answer (else the smallest)
    predicate: str  # the question's own words for the choice: "brought in the most cash flow"


#: "Which of eBay's cash flow activities used the most cash?": the three activities a
#: cash-flow statement prints are the options, though the question lists none. A period
#: may stand before them ("Which of PG&E's FY2020 cash flow activities …").
_ACTIVITIES_RE = re.compile(
    r"\bwhich\s+(?:of\s+(?:the\s+|its\s+|their\s+|\S+['’]s?\s+)?)?"
    r"(?:(?:FY|fiscal\s+(?:year\s+)?)?\s*'?\d{2,4}\s+)?(?:cash[\s-]+flows?\s+)?"
    r"activit(?:y|ies)\b(?P<ask>[^?:]*)",
    re.IGNORECASE,
)
_ACTIVITIES = "operations, investing, and financing activities"


def read_choice(question: str) -> ChoiceQuestion | None:
    """The choice ``question`` asks for, or None when it asks none code can make."""
    if not _AMONG_RE.search(question) and (activities := _ACTIVITIES_RE.search(question)):
        question = f"Among {_ACTIVITIES}, which{activities['ask']}?"
    m = _AMONG_RE.search(question)
    if m is None:
        return None
    ask = re.sub(r"\([^)]*\)", " ", m.group("ask"))  # "(or lost the least)" restates it
    largest, smallest = _LARGEST_RE.search(ask), _SMALLEST_RE.search(ask)
    if _CHANGE_RE.search(ask) or bool(largest) == bool(smallest):
        return None
    superlative = largest or smallest
    assert superlative is not None
    rest = ask[superlative.end() :]
    end = _MEASURE_END_RE.search(rest)
    measure = rest[: end.start() if end else len(rest)].strip()
    options = [o.strip() for o in _SPLIT_RE.split(m.group("opts")) if o.strip()]
    if len(options) < 2:
        return None
    # "operations, investing, and financing activities": the last option's last word may be
    # every option's head noun ("activities"), or its own ("cost of sales").
    head = options[-1].split()[-1]
    candidates = tuple(
        tuple(
            dict.fromkeys(
                f"{measure} from {name}" if measure else name
                for name in (f"{o} {head}" if not o.endswith(head) else o, o)
            )
        )
        for o in options
    )
    predicate = " ".join(ask[: superlative.end() + (end.start() if end else len(rest))].split())
    outflow = _OUTFLOW_RE.search(ask) is not None
    return ChoiceQuestion(tuple(options), candidates, bool(largest) != outflow, predicate)
