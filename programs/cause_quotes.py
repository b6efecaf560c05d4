"""A question about what drove a figure, answered by the filing's own sentence.

"What drove the reduction in SG&A expense as a percent of net sales in FY2023?" Ulta's
10-K answers it in one sentence ("As a percentage of net sales, SG&A expenses decreased to
23.5% compared to 23.9% in fiscal 2021, primarily due to lower marketing expenses and
leverage of incentive compensation due to higher sales, …"), and the embedded model, with
that page in its evidence, closed the probe as insufficient. Code can find that sentence:
on the slice's pages searched for the question, a sentence that names the one figure the
question asks about (:func:`programs.cause_check.measures_named`) before a cause connective
("due to", "driven by", …), says how it moved in the past tense, in the question's
direction, and is not about a segment, a region or a quarter the question does not name.
Such a sentence, when it is the only one, is the answer, cited to its page; when none is,
or several are, the question is researched as before. A risk factor ("margins are subject
to downward pressure due to …") says no change, and a segment's sentence is not the
company's; nor does a figure set against a benchmark ("the effective tax rate for 2022
was lower than the statutory federal income tax rate due primarily to …"), which says why
it differs, not why it changed. The connective may hold how much it explains ("due
primarily to", as Apple writes it).

Revenue is a measure here too ("What drove revenue change as of FY2023 for FedEx?"), as
"revenue" or "sales" not after "of" (cost of sales and a percent of net sales are other
figures). A filing that explains the company's revenue and then each segment's in turn
("Revenue decreased 4% in 2023 primarily due to global volume declines …", "FedEx Express
revenue decreased 7% …") names each segment in its sentence, not in a heading: of several
such sentences, the one whose subject is the bare measure, no name before or after it, is
the company's (the embedded model, given that page, quoted its aircraft impairments).
Revenue is named in passing more than any figure, so its sentence must be the company's
even when it is the only one: Coca-Cola's "The decrease in net sales to, and payments
made to, equity method investees in 2020 was primarily due to …" is not its revenue's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citations.markup import CitedAnswer
from domain.period_patterns import BARE_YEAR_RE
from metrics.answer_verdicts import is_yes_no_question
from programs.cause_check import (
    MEASURE_PATTERNS,
    measures_named,
    page_sentences,
    split_at_cause,
    told_with_its_change,
)
from programs.figure_questions import PART_RE
from programs.page_hits import PageHit, cited_to
from retrieval.search.query import without_caveat

#: A question asking what moved a figure.
_ASKS_CAUSE = re.compile(
    r"\b(?:why|what\s+(?:drove|drives|caused|causes|explains?|led\s+to)|drivers?|reasons?"
    r"|factors?)\b",
    re.IGNORECASE,
)
_UP = re.compile(r"\b(?:increas\w*|r[io]se|grew|grow\w*|improv\w*|higher|expan\w*)\b", re.I)
_DOWN = re.compile(
    r"\b(?:decreas\w*|declin\w*|reduc\w*|f[ae]ll|falling|lower|drop\w*|contract\w*|shr[aiu]nk)\b",
    re.I,
)
#: A change told as done: a sentence of what may happen names no driver of the figure.
_MOVED = re.compile(
    r"\b(?:increased|decreased|declined|rose|fell|improved|grew|reduced|expanded|contracted"
    r"|dropped|was|were)\b",
    re.IGNORECASE,
)
_QUARTER = re.compile(r"\b(?:quarter|three\s+months)\b", re.IGNORECASE)
#: A figure set against something other than an earlier period ("lower than the statutory
#: federal income tax rate due primarily to …"): why it differs, not why it changed.
_THAN_ANOTHER = re.compile(
    r"\bthan\s+(?!(?:(?:in|during|for|that\s+of|those\s+of)\s+)?(?:the\s+)?"
    r"(?:prior|previous|preceding|last|same|year[- ]ago|fiscal|FY|(?:19|20)\d\d)\b)",
    re.IGNORECASE,
)
#: The size of one effect on the figure, not its change: "Cost of net revenues … was
#: favorably impacted by $7 million attributable to foreign currency movements".
_EFFECT_SIZE = re.compile(
    r"\b(?:impacted|affected|benefit+ed|hurt)\s+by\s+(?:approximately\s+|about\s+)?\$?\d",
    re.IGNORECASE,
)
#: A segment or business named by its acronym as the sentence's subject: "NSG had an
#: operating profit of $361 million", "BCA revenues decreased"; not an accounting basis or a
#: measure ("GAAP revenue increased", "EBITDA rose").
_SUBJECT_ACRONYM = re.compile(
    r"(?:^|[.;]\s+)\W*(?<![\w&])(?!(?:GAAP|IFRS|EBITDA?|EPS|FX|USD|ASP|SG|YOY)\b)([A-Z]{2,5})"
    r"(?![\w&])(?:'s|’s)?\s+(?:had|reported|recorded|generated|posted|delivered|revenues?|"
    r"operating|net|sales)\b"
)
#: Longer than this, a page "sentence" is a run of table text, not a sentence.
_MAX_CHARS = 600


#: Revenue, named as such: not "cost of sales", "a percent of net sales", "sales and marketing".
_REVENUE = re.compile(
    r"(?<!of )(?<!of net )\b(?:net\s+)?(?:revenues?|sales)\b(?!\s+and\s+marketing)",
    re.IGNORECASE,
)
#: Words that say nothing of whose figure it is: how and when it moved, and by how much.
_BARE_WORDS = re.compile(
    r"\b(?:year[- ]over[- ]year|the|our|its|total|consolidated|net|in|by|to|from|of|for"
    r"|fiscal|year|compared|with|during|relative|versus|constant\s+currency"
    r"|prior|primarily|mainly|largely|principally|approximately|million|billion|percent"
    r"|percentage|points?|basis)\b|[$\d.,%()]+",
    re.IGNORECASE,
)


def _measures(text: str) -> set[str]:
    """The measures ``text`` names: :func:`measures_named`'s, and revenue."""
    return measures_named(text) | ({"revenue"} if _REVENUE.search(text) else set())


def asks_cause(question: str) -> bool:
    """Whether the question asks what drove a figure (and names exactly one figure). The
    caveat "if gross margin is not a useful metric, state that and explain why" asks for no
    cause: it is left out first."""
    asked = without_caveat(question)
    return bool(_ASKS_CAUSE.search(asked)) and len(_measures(asked)) == 1


def _direction(text: str) -> str:
    up, down = bool(_UP.search(text)), bool(_DOWN.search(text))
    return "up" if up and not down else "down" if down and not up else ""


def _asked_direction(question: str) -> str:
    """The way the question says the figure moved: "Why did operating income decline?"
    says it fell. "Did Oracle's operating cash flow increase, and what drove it?" asks
    whether it rose, so it says no way: its cash from operations fell, and the 10-K's
    "… decreased … primarily due to lower net income" is the cause to quote."""
    return "" if is_yes_no_question(question) else _direction(question)


def cause_query(question: str) -> str | None:
    """A search for the cause sentence in the filing's own words ("operating income
    decreased declined primarily due to"): the question's words ("Why did FedEx's
    operating income decline?") rank each segment's discussion above the company's
    sentence, which FedEx's FY2023 10-K prints on a page of its own. None unless the
    question asks a cause."""
    if not asks_cause(question):
        return None
    asked = without_caveat(question)
    named = next((m.group() for p in (*MEASURE_PATTERNS, _REVENUE) if (m := p.search(asked))), None)
    if named is None:
        return None
    moved = {"up": "increased rose", "down": "decreased declined"}.get(
        _asked_direction(question), "increased decreased"
    )
    cost = " cost of sales revenues" if _measures(asked) == {"gross profit"} else ""
    return f"{named}{cost} {moved} primarily due to"


def gives_cause(sentence: str, question: str) -> bool:
    """Whether a page ``sentence`` gives the cause of the change ``question`` asks about:
    the question's figure named before the cause connective, a change told as done (not
    the size of one effect on it), in the question's direction, and no part or quarter the
    question does not name."""
    parts = split_at_cause(sentence)
    if parts is None or max(map(len, page_sentences(sentence))) > _MAX_CHARS:
        return False
    explained = parts[0]
    named = _measures(explained)
    inverse = _by_its_cost(question, named)
    if not (_measures(question) <= named or inverse) or not _MOVED.search(explained):
        return False
    if PART_RE.search(explained) and not PART_RE.search(question):
        return False
    if _QUARTER.search(explained) and not _QUARTER.search(question):
        return False
    if _THAN_ANOTHER.search(explained) or _EFFECT_SIZE.search(explained):
        return False
    if any(name not in question for name in _SUBJECT_ACRONYM.findall(explained)):
        return False  # "NSG had an operating profit …": a segment's, asked of Intel
    asked_activity, told_activity = _activities(question), _activities(explained)
    if asked_activity and told_activity and not asked_activity & told_activity:
        return False  # investing cash flows explained, operating asked
    asked = _asked_direction(question)
    if inverse:  # a cost that rose is a margin that fell
        asked = {"up": "down", "down": "up"}.get(asked, "")
    return not asked or _direction(explained) in (asked, "")


#: Which cash flows: "operating cash flow", "net cash used in investing activities",
#: "cash from operations".
_ACTIVITY = re.compile(
    r"\b(operat|invest|financ)\w*\s+(?:activities|cash\s+flows?)\b"
    r"|\bcash\s+(?:flows?\s+)?(?:from|provided\s+by)\s+(operat)\w*",
    re.IGNORECASE,
)


def _activities(text: str) -> set[str]:
    """The kinds of cash flow ``text`` names (``operat``, ``invest``, ``financ``)."""
    return {(a or b).lower() for a, b in _ACTIVITY.findall(text)}


def _by_its_cost(question: str, named: set[str]) -> bool:
    """Whether a sentence of ``named`` measures explains the question's gross margin by its
    cost of sales: eBay explains no gross margin, but "The increase in cost of net revenues
    in 2022 compared to 2021 was primarily due to higher payment processing costs …"."""
    return _measures(without_caveat(question)) == {"gross profit"} and named == {"cost of sales"}


def quoted_cause(question: str, pages: Sequence[PageHit]) -> tuple[PageHit, str] | None:
    """The one sentence of ``pages`` that gives the asked change's cause, with its page;
    None when the question asks no cause, or no sentence gives it, or several different
    ones do: a filing that explains the figure once per division ("Operating profit
    increased 9%, primarily reflecting …" under each division's heading) names the
    division above the sentence, not in it, so code cannot tell the company's from a
    division's, and the question is researched."""
    if not asks_cause(question):
        return None
    found: dict[str, PageHit] = {}
    year_of: dict[str, int | None] = {}
    for page in pages:
        sentences = page_sentences(page.text)
        for at, sentence in enumerate(sentences):
            told = told_with_its_change(sentences, at) or sentence
            if gives_cause(told, question):
                quoted = _without_page_furniture(told)
                found.setdefault(quoted, page)
                year_of.setdefault(quoted, _year_told(sentences[max(at - 1, 0) : at + 1]))
    if latest := max((year for year in year_of.values() if year is not None), default=None):
        found = {s: page for s, page in found.items() if year_of[s] in (None, latest)}
    # the margin's own sentence before its cost's
    asked = _measures(question)
    found = {s: p for s, p in found.items() if asked <= _measures(split_at_cause(s)[0])} or found
    # revenue's sentence is the company's even alone (see the module's docstring)
    if len(found) > 1 or _measures(without_caveat(question)) == {"revenue"}:
        found = {s: page for s, page in found.items() if _of_the_company(s)}
    if len(found) != 1:
        return None
    ((sentence, page),) = found.items()
    return page, sentence


def _year_told(sentences: Sequence[str]) -> int | None:
    """The latest year a cause sentence is about: the years it names, else the years the
    sentence before it names. A 10-K explains the year and then the year before in the
    same words ("Gross margin percentage decreased year-over-year due primarily to …" after
    "Gross margin increased in 2017 compared to 2016 …"): Apple's FY2018 gross margin had
    been explained by its 2017 sentence. Of several sentences, those about an earlier year
    than another's are not the asked year's; None when neither sentence names a year."""
    for text in reversed(sentences):
        if years := [int(year) for year in BARE_YEAR_RE.findall(text)]:
            return max(years)
    return None


def _of_the_company(sentence: str) -> bool:
    """Whether the sentence's subject is its measure alone ("Revenue decreased 4% in 2023",
    "Net sales increased $1.2 billion"), with no segment, unit or place named beside it:
    what it explains holds nothing but the measure, its movement and its size."""
    explained = split_at_cause(sentence)[0]
    for pattern in (_REVENUE, *MEASURE_PATTERNS):
        explained = pattern.sub(" ", explained)
    rest = _BARE_WORDS.sub(" ", _MOVED.sub(" ", _UP.sub(" ", _DOWN.sub(" ", explained))))
    return not re.search(r"[A-Za-z]", rest)


#: A heading the page text joins to the sentence under it: "Revenue Revenue decreased 4% …".
_HEADING_REPEAT = re.compile(r"^(?P<heading>[A-Za-z][\w&' -]{0,60}?)\s+(?=(?P=heading)\b)", re.I)
#: A page number the page text joins to the sentence's start ("- 52 - Revenue …"); a year
#: opening a sentence ("2023 revenue …") is no page number.
_LEADING_MARKS = re.compile(r"^(?:[-–—•\s]*\d{1,3}\b[-–—•\s]*)+(?=[A-Z])")


def _without_page_furniture(sentence: str) -> str:
    """The sentence as a reader quotes it: one space between words, without a page number
    or a heading joined to its start. The same sentence on two pages (a 10-K and its
    annual report) is then one sentence."""
    return _HEADING_REPEAT.sub("", _LEADING_MARKS.sub("", " ".join(sentence.split())))


def cause_answer(page: PageHit, sentence: str) -> CitedAnswer:
    """The page's sentence as the answer, quoted (it speaks as the company: "our total
    operating margin …") and cited to its page."""
    return cited_to(f"In the filing's words: “{sentence}”¹", page)
