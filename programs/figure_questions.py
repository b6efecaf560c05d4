"""What a question asks of a statement figure: a choice among items, a part of the company
or an adjusted measure (which the consolidated statements do not print), or more than the
figure (a cause, a judgement, an outlook), which the model's probes then research.

Read by :mod:`programs.figures` before it computes a figure, by the research program when it
decides whether a question needs a researched probe beside its figure, and by the claim
check, so that all of them read a question the same way.
"""

from __future__ import annotations

import re

from programs.figure_choice import read_choice
from programs.share_asks import without_share_ask
from retrieval.search.query import drop_instructions, without_caveat

#: "Which segment …", "…, which brought in the most …", "Who are …": an interrogative
#: which/who opening the question or a clause of it ("an analyst who can only use" is not).
_CHOOSING_RE = re.compile(r"(?:^|[.?!,;:]\s*)(?:in\s+|of\s+)?(?:which|who|whom)\b", re.IGNORECASE)


_VERB = (
    r"(?:had|has|have|was|were|is|are|did|does|reported|earned|made|generated|spent|posted"
    r"|paid)"
)
#: A company named in a list, capitalised: "Apple", "PG&E", "McDonald's", "3M", "Boston
#: Properties" (not "its segments").
_NAME = r"[A-Z0-9][\w&.'’-]*(?:\s+[A-Z][\w&.'’-]*){0,2}"
#: "Which had higher net income in FY2022, McDonald's or Intel?", "Which company had the
#: larger operating margin: Apple or Oracle?": a choice among the subjects the question lists
#: at its end (companies, periods), each a slice whose figure code computes and whose
#: comparison line says which is larger. Asked as a "which", it had been researched, and
#: the draft gave Intel's FY2021 net income as its FY2022 quarter's.
_AMONG_SUBJECTS_RE = re.compile(
    r"(?i:\bwhich(?:\s+(?:company|companies|firm|one|of\s+(?:the\s+two|them|these)))?\s+"
    rf"{_VERB}\b[^?]*[,:]\s*[^,:?]+\s+or\s+[^,:?]+\?\s*$)"
    # "Which of Apple, Oracle and Intel had the highest net margin?": the list comes first
    rf"|\b(?i:which\s+of)\s+{_NAME}(?:\s*,\s*{_NAME})*,?\s+(?i:and|or)\s+{_NAME}\s+(?i:{_VERB})\b"
)


def asks_to_choose(question: str) -> bool:
    """Whether the question asks *which* item (segment, activity, customer) rather than for
    a figure: the figure of the line item it names ("net income") would answer another
    question (the consolidated total, not the segment that earned the most). A choice
    among the companies or periods it lists asks for each one's figure."""
    asked = question.strip()
    return _CHOOSING_RE.search(asked) is not None and not _AMONG_SUBJECTS_RE.search(asked)


#: What "US" may qualify that is no place of the company's business: a currency, the
#: accounting rules, the country's tax rate ("close to the 21% US federal statutory rate"
#: compares FedEx's effective tax rate with a benchmark; read as a place, the question had
#: gone to the agents, who wrote that $579 million was 21% of revenue).
_NOT_A_PLACE = r"(?:\$|dollars?|GAAP|federal|statutory|(?:corporate\s+)?(?:income\s+)?tax)"
#: A part of the company: a geography or a segment. Statement facts are consolidated
#: totals, so "US sales growth" is not the revenue growth they give. "US" is read in capitals
#: only (not "us"), and not as a currency or an accounting standard ("US$", "US GAAP"), nor
#: "foreign" in a line item's own name ("effect of foreign exchange rates on cash").
PART_RE = re.compile(
    rf"\bU\.\s?S\.(?!\s*{_NOT_A_PLACE})|\bUS\b(?!\s*{_NOT_A_PLACE})"
    rf"|\b(?i:united\s+states(?!\s*{_NOT_A_PLACE})|domestic(?:ally)?|international(?:ly)?|foreign(?!\s+(?:currency|exchange))|overseas|"
    r"north\s+america\w*|latin\s+america\w*|south\s+america\w*|europe\w*|emea|asia\w*|"
    r"apac|greater\s+china|china|japan|india|americas|segments?|divisions?|"
    r"business\s+units?)\b"
)


#: Words between a company's possessive and "revenue" or "sales" that leave it the company's
#: consolidated figure: "total", "net", "operating", a period ("FY2023", "Q3", "third-quarter").
_WHOLE = (
    r"(?:total|net|consolidated|combined|annual\w*|quarterly|reported|gross|overall|operating|"
    r"gaap|fiscal|full[- ]year|half[- ]year|(?:first|second|third|fourth)(?:[- ](?:quarter|half))?|"
    r"q[1-4]\d{0,4}|[1-4]q\d{0,4}|h[12]|fy\s*'?\d{2,4}|\d{4}|(?:three|six|nine|twelve)[- ]months?|"
    r"year[- ]over[- ]year|yoy|year[- ]to[- ]date|ytd|latest|recent|current|prior|previous|last|"
    r"trailing|ttm|average)"
)
#: A product, service or line of business named before the company's revenue ("Apple's
#: iPhone net sales", "its Services revenue", "MGM's casino revenues"): a part of revenue,
#: which the statements' consolidated figure does not answer. Asked "Were Apple's iPhone net
#: sales higher or lower in Q3 FY2023 than a year earlier?", code had answered with Apple's
#: total net sales. Up to four words ("Oracle's cloud services and license support
#: revenue"). The words before "sales" must name a thing, not a measure of sales
#: ("days sales outstanding", "cost of sales", "growth in sales"): see :func:`names_a_part`.
_NAMED_PART_RE = re.compile(
    rf"(?:['’]s|\bits|\btheir)\s+(?!{_WHOLE}\b)(?P<part>[a-z][\w&-]*"
    r"(?:\s+(?:(?:and|&)\s+)?[a-z][\w&-]*){0,3})\s+(?:net\s+)?(?:revenues?|sales)\b"
    r"(?!\s+outstanding)",
    re.IGNORECASE,
)
#: Words of a measure or a phrase, not of a product: "cost of sales", "days sales".
_NO_PART_WORDS = frozenset(
    """
    of in on to for from by per as with at the a an its their cost costs growth change
    changes decline increase decrease share percent percentage portion days day rate ratio
    """.split()
)


def names_a_part(question: str) -> bool:
    """Whether ``question`` names a product or line of business before the company's
    revenue or sales (:data:`_NAMED_PART_RE`)."""
    return any(
        not set(m["part"].lower().split()) & _NO_PART_WORDS
        for m in _NAMED_PART_RE.finditer(question)
    )


#: A measure the company adjusts itself (non-GAAP, ex-currency, ex-items): statements
#: print none of them.
_ADJUSTED_RE = re.compile(
    r"\b(?:adjusted|non-?GAAP|organic|pro[\s-]+forma|constant[\s-]+currency"
    r"|exclud\w*\s+(?:the\s+)?(?:impact|effect)s?\s+of|one-(?:off|time)\s+items)\b",
    re.IGNORECASE,
)


def asks_adjusted(question: str) -> bool:
    """Whether the question asks for a measure the company adjusts itself (organic, ex-M&A,
    non-GAAP): no printed table of reported figures answers it."""
    return _ADJUSTED_RE.search(question) is not None


#: A share of a figure that comes from one of its parts ("What share of Oracle's FY2023
#: revenue came from cloud services and license support?", "the share of Apple's revenue
#: from Services"): the part's line is no concept.
SHARE_FROM_RE = re.compile(
    r"\b(?:share|percent(?:age)?|proportion|portion|fraction|how\s+much)\s+of\b[^?]{0,80}?"
    r"\b(?:came|comes?|derived|generated|earned|contributed)\s+(?:from|by)\b"
    r"|\b(?:share|percent(?:age)?|proportion|portion|fraction)\s+of\b[^?]{0,40}?"
    r"\b(?:revenues?|sales)\s+from\b",
    re.IGNORECASE,
)


#: A figure the company guides to, not one it reported ("Did Salesforce raise its FY2024
#: revenue guidance?"): the reported revenue of the quarter answers another question.
_GUIDANCE_RE = re.compile(
    r"\b(?:guidance|guided|outlook|forecast\w*|projected)\b"
    # "What does Salesforce expect its full-year revenue to be?": code had answered with the
    # quarter's reported revenue, and the model called it the year's expectation
    r"|\b(?:expect|anticipat)\w*\b[^?.]{0,60}?\bto\s+(?:be|reach|grow|increase|decrease|decline"
    r"|rise|fall|come\s+in|total)\b",
    re.IGNORECASE,
)


def outside_the_statements(question: str) -> bool:
    """Whether the question asks about a geography, a segment or a product line of the
    company ("How did US sales growth compare to international?", "Apple's iPhone net
    sales"), about the share of a figure one of its parts
    gives ("What share of revenue came from cloud services?"), or about a measure the
    company adjusts itself ("interest coverage using Adjusted EBIT"): the consolidated,
    reported figure of the line item it names would answer another question (Oracle's
    total revenue, for the share of its cloud services), so code computes none and the
    agents read the segment table or the company's own reconciliation; likewise a figure it
    guides to, not one it reported."""
    asked = drop_instructions(question)
    patterns = (PART_RE, SHARE_FROM_RE, _ADJUSTED_RE, _GUIDANCE_RE)
    return names_a_part(asked) or any(pattern.search(asked) for pattern in patterns)


#: What a figure alone does not answer: a cause, a judgement ("capital-intensive": capex as a
#: share of revenue is one measure of it, and the filing's words on its assets another), an
#: expectation, a choice.
_BEYOND_FIGURE_RE = re.compile(
    r"\b(?:why|drov?e|drives?|drivers?|driving|driven|reasons?|explain\w*|caus\w*|factors?|"
    r"impact\w*|affect\w*|contribut\w*|outlook|guidance|expect\w*|forecast\w*|risks?|"
    r"strateg\w*|health\w*|intensive|meaningful|useful|relevant|sustainab\w*|concern\w*|"
    r"segments?|regions?|geograph\w*|which|who|whom|describe|discuss|comment\w*|opinion|"
    r"should)\b",
    re.IGNORECASE,
)


#: What a parts table answers: the choice among the parts it prints, and a ranking by share
#: ("which segment contributed most to revenue"; "what contributed to the decline" is a cause).
_PARTS_ASKED_RE = re.compile(
    r"\b(?:which|segments?|regions?|geograph\w*|contribut\w*\s+(?:the\s+)?"
    r"(?:most|least|largest|biggest|smallest|highest|lowest))\b",
    re.IGNORECASE,
)


#: The judgement a shared benchmark settles ("a reasonably healthy liquidity profile").
_HEALTH_RE = re.compile(r"\bhealth\w*", re.IGNORECASE)


def asks_beyond_figure(
    question: str,
    sector: str = "",
    judged: bool = False,
    parted: bool = False,
    inapplicable: bool = False,
) -> bool:
    """Whether the question asks more than its figure (a cause, a judgement, an outlook, a
    choice code cannot make): then the model's probes research the rest; otherwise the
    figure, read by code, is the whole research and no probe drifts into what nobody asked.
    Sentences to the reader are not the ask ("… the perspective of an investment analyst
    who can only use the statements": that "who" asks for no one), so they are dropped
    first; a choice among statement figures (:mod:`programs.figure_choice`) is code's.

    The caveat "if the metric is not useful for this company, say so and why" asks nothing
    more when the figure is computed from the company's own statements: its inputs are
    printed there, so the metric is read as it applies. A model probe put on the caveat
    answered a question nobody asked (a sensitivity figure beside a margin trend) and, when
    it found nothing, put a dagger on code's figure. At a financial company (``sector``,
    GICS) the caveat stays an ask: its margins and liquidity ratios are the ones analysts
    do not read (:mod:`programs.verdicts` gives them no verdict).

    ``judged``: code's verdict answers whether the figure is healthy, against the benchmark
    analysts share (:func:`programs.verdicts.benchmark_verdict`), so "healthy" asks no more.
    Researched anyway, Verizon's "reasonably healthy liquidity profile" found no page that
    says so in words, and its dagger landed on code's verdict and figure. Whether the
    business is capital-intensive stays an ask even where code's verdict opens the answer
    (:mod:`programs.intensity_verdicts`): capex is one measure of it, and the filing's own
    words on its assets (a draft that says the opposite of code's verdict is dropped
    whole) are what else the answer rests on.

    ``parted``: code read the parts the question names from the filing's breakdown table
    (:mod:`programs.part_tables`), so "which segment" and "by region" ask no more.

    ``inapplicable``: code's line says the metric does not apply and why, so "is it a
    meaningful metric?" asks no more. Researched beside it, Salesforce's inventory turnover
    drafted "Yes, … is a meaningful metric", or no cited page, whose dagger landed on
    code's line; so did eBay's "… If not, explain why.", whose reason code's line gives."""
    asked = drop_instructions(question)
    if sector.strip().lower() != "financials":
        asked = without_caveat(asked)
    if judged:
        asked = _HEALTH_RE.sub(" ", asked)
    if read_choice(asked) is not None or _AMONG_SUBJECTS_RE.search(asked):
        asked = re.sub(r"\bwhich\b", " ", asked, flags=re.IGNORECASE)
    if parted:
        asked = _PARTS_ASKED_RE.sub(" ", asked)
    if inapplicable:
        asked = _APPLIES_RE.sub(" ", _WHY_IF_NOT_RE.sub(" ", asked))
    return _BEYOND_FIGURE_RE.search(asked) is not None or asks_another_thing(asked)


#: A second ask after the figure's: "…, and did it pay a dividend?", "…, and what was …".
_SECOND_ASK_RE = re.compile(
    r",?\s+and\s+(?:did|does|do|is|was|were|has|have|had|will|can|what|how|when|where)\b"
    r"(?P<rest>[^?.;]*)",
    re.IGNORECASE,
)
#: Words of a second ask that ask nothing new of the figure: which way it moved, by how much.
_SAME_FIGURE_WORDS = frozenset(
    "did does do is was were has have had will can what how when where it its they their that "
    "this these the a an to from by in over than compared prior previous year years quarter "
    "much many grow grew grown growth rise rose risen increase increased decrease decreased "
    "decline declined fall fell fallen drop dropped change changed improve improved worsen "
    "worsened higher lower more less share percentage percent proportion compare compared "
    "comparison with against versus vs same period fy q of on at as for or".split()
)
_ASK_WORD = re.compile(r"[a-z][a-z&'’-]*")


def asks_another_thing(question: str) -> bool:
    """Whether ``question`` joins to its figure's ask a second one about something else:
    "What was PG&E's net income in FY2022, and did it pay a dividend?" got the net income
    alone, the dividend dropped without a word. A second ask about the figure itself ("…,
    and did that share grow?"), as its share of another figure ("…, and what share of
    revenue was that?", :mod:`programs.share_asks`), is code's, as the words of the first
    ask are."""
    for match in _SECOND_ASK_RE.finditer(without_share_ask(question)):
        first = set(_ASK_WORD.findall(match.string[: match.start()].lower()))
        rest = set(_ASK_WORD.findall(match["rest"].lower()))
        if rest - _SAME_FIGURE_WORDS - first:
            return True
    return False


#: Whether a metric applies, which code's "does not apply" line settles.
_APPLIES_RE = re.compile(r"\b(?:meaningful|useful|relevant)\b", re.IGNORECASE)
#: The reason asked only in case the metric does not apply ("If not, explain why."): code's
#: line gives it. A question that asks why outright still asks for the business's reason.
_WHY_IF_NOT_RE = re.compile(
    r"\bif (?:not|it is not|it isn't)\b,?\s*(?:please\s+)?(?:explain|say|state|tell us)\s+why\b",
    re.IGNORECASE,
)
