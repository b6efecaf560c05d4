"""Who a company's largest customers are, answered by the filing's own sentences.

A 10-K states its customer concentration in prose: "In 2020, our three largest customers
accounted for 39% of our net revenue …, with Dell Inc. accounting for 17% …"; "One
customer accounted for 16% of our consolidated net revenue"; "In 2022, 40% of our revenues
were earned pursuant to U.S. government contracts"; "We derive a significant portion of
our revenues from a limited number of commercial airlines"; or "No customer accounted for
10% or more of our revenues". Asked "Who are Intel's largest customers as of FY2020?", the
embedded model had the page naming Dell, Lenovo and HP at ``[1]`` and answered with a risk
factor's "OEMs, ODMs, and cloud service providers". Code can find the sentences: on the
slice's pages searched for the question and for the sentences' own words
(:data:`CUSTOMER_QUERY`), the first that gives customers a share of revenue (or says none
has one), and the first that says the revenue comes mostly from a kind of customer. A
share of receivables is credit risk, not who buys; a product's share of sales names no
customer; "non-U.S. customers" say where buyers are, not who. They are quoted and cited; a
yes/no question ("Did AMD report customer concentration?") opens with the answer they
give. With no such sentence the question is researched.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citations.markup import CitedAnswer, Footnote, ReferenceList, render_marker
from programs.answer_form import opens_yes_no
from programs.cause_check import page_sentences
from programs.figure_questions import PART_RE
from programs.page_hits import PageHit, page_citation

#: A question on who the main customers are, or how concentrated they are; a part's
#: customers ("the largest customers of its Data Center segment") are left to research.
_ASKS = re.compile(
    r"\b(?:largest|biggest|major|main|primary|key|top|principal|significant|most\s+important)"
    r"\s+(?:\w+\s+)?customers?\b|\bcustomer\s+concentration\b|\bconcentration\s+of\s+"
    r"(?:its\s+|our\s+)?(?:customers|revenue|sales)\b|\bwho\s+(?:are|were|is)\s+[\w.&'’ -]{0,40}?"
    r"\bcustomers\b",
    re.IGNORECASE,
)
_REVENUE = r"(?:total\s+|consolidated\s+|net\s+|worldwide\s+|annual\s+){0,3}(?:revenues?|sales)"
#: "of our net revenue", "of Corning’s consolidated net sales", "of our $66.0 billion in net sales".
_OF_REVENUE = (
    r"\bof\s+(?:(?:our|its|the|the\s+company['’]s|[A-Z][\w.&-]*(?:\s+[A-Z][\w.&-]*){0,2}['’]s)\s+)?"
    rf"(?:\$[\d.,]+\s+(?:million|billion)\s+in\s+)?{_REVENUE}\b"
)
_PERCENT = (
    r"(?:approximately\s+|about\s+|over\s+|more\s+than\s+)?\d{1,3}(?:\.\d+)?\s?(?:%|percent\b)"
)
#: A share of revenue given to a buyer named before it: "our three largest customers
#: accounted for 39% of our net revenue", "Sales to Walmart represented 16% of net sales".
_SHARE_AFTER_BUYER = re.compile(
    r"\b(?:accounted\s+for|accounting\s+for|represented|representing|comprised|constituted|"
    rf"made\s+up)\s+{_PERCENT}(?:\s+and\s+{_PERCENT})?(?:\s+or\s+more)?\s+{_OF_REVENUE}",
    re.IGNORECASE,
)
#: A share of revenue given to a buyer named after it: "40% of our revenues were earned
#: pursuant to U.S. government contracts", "we generated 73% of our net sales from …".
_SHARE_BEFORE_BUYER = re.compile(
    rf"{_PERCENT}\s+{_OF_REVENUE}\s+(?:(?:was|were|came)\s+(?:earned\s+|derived\s+|generated\s+)?"
    r"(?:from|pursuant\s+to|under|through)|from)\b",
    re.IGNORECASE,
)
#: Who a share is given to: customers, clients, a government, sales to a named buyer.
_BUYER = re.compile(
    r"\b(?:customers?|clients?|government|sales\s+to|distributors?|wholesalers?|retailers?)\b",
    re.IGNORECASE,
)
#: How far from the share its buyer is named.
_BUYER_SPAN = 90
#: Revenue said to come mostly from a few customers or a kind of them, with no share: "from
#: a limited number of commercial airlines", "from a small number of distributors".
_MOSTLY_FROM = re.compile(
    r"\bderive[sd]?\s+(?:a\s+)?(?:significant|substantial|large|major|majority|considerable)"
    rf"(?:\s+(?:portion|part|share|percentage|amount))?\s+of\s+(?:our|its)\s+{_REVENUE}\s+from\s+"
    r"(?:[\w,-]+\s+){0,4}?(?:limited|small|few|handful|concentrated|customers?|clients?|government"
    r"|distributors?|wholesalers?|retailers?)\b",
    re.IGNORECASE,
)
#: No customer with a share worth stating ("No single customer accounted for …", "the
#: Company did not have a customer that represented …"); "No customer other than Walmart
#: accounted for 10 percent or more" names one that has, and "No other customer …" follows
#: a sentence that does (read alone, it is no answer).
_NONE = re.compile(
    r"(?:\bno\s+(?:single\s+|one\s+|individual\s+)?|\b(?:not|never)\s+(?:have|had)\s+(?:a|any)\s+"
    r"(?:single\s+)?)customers?\b(?!\s+other\s+than)[^.;]{0,40}?"
    r"\b(?:accounted|accounting|represented|comprised|met|exceeded)\b",
    re.IGNORECASE,
)
_NO_OTHER = re.compile(r"\bno\s+other\s+(?:single\s+)?customers?\b", re.IGNORECASE)
#: What is not who buys: a share of receivables is credit risk; of a backlog, an order book.
_NOT_REVENUE = re.compile(r"\breceivables?\b|\bbacklog\b|\bpurchases\b", re.IGNORECASE)
#: Where buyers are, not who they are: "non-U.S. customers … accounted for 41%".
_PLACE = re.compile(
    r"\bnon-U\.?S\.?|\binternational\b|\bforeign\b|\boutside\s+(?:of\s+)?the\b"
    r"|\bcustomers\s+(?:in|located|based)\b|\bdomestic\b",
    re.IGNORECASE,
)
#: Where a sentence the page runs together with a heading, a table or another sentence
#: begins: a word that opens a sentence, capitalised, after a word or a figure with no stop
#: ("… for our products In 2015, Corning’s ten largest customers …", "… $ 5,299 The Company
#: had two customers …", "Table of Contents We derive …").
_RUN_IN = re.compile(
    r"(?<=[A-Za-z0-9)])\s+(?=(?:The\s+Company|We|Our|In|For|During|No|Sales|One|Two|Three)\b)"
)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
#: The sentences' own words, searched beside the question.
CUSTOMER_QUERY = (
    "largest customers accounted for % of our net revenue; we derive a significant portion "
    "of our revenues from a limited number of customers"
)
#: Longer than this, a page "sentence" is a run of table text, not a sentence.
_MAX_CHARS = 450


def asks_customers(question: str) -> bool:
    """Whether the question asks who the company's main customers are, or how concentrated
    its revenue is among them (not a part's customers)."""
    return _ASKS.search(question) is not None and PART_RE.search(question) is None


def customer_kind(sentence: str) -> str | None:
    """What ``sentence`` says of customers: ``"share"`` (a share of revenue given to
    customers), ``"none"`` (no customer has one), ``"mostly"`` (revenue comes mostly from a
    kind of customer), or None."""
    if len(sentence) > _MAX_CHARS or _NOT_REVENUE.search(sentence):
        return None
    if _NO_OTHER.search(sentence):
        return None
    if _NONE.search(sentence) and re.search(_OF_REVENUE, sentence, re.IGNORECASE):
        return "none"
    for share in _SHARE_AFTER_BUYER.finditer(sentence):
        if _is_buyer(sentence[max(0, share.start() - _BUYER_SPAN) : share.start()]):
            return "share"
    for share in _SHARE_BEFORE_BUYER.finditer(sentence):
        if _is_buyer(sentence[share.end() : share.end() + _BUYER_SPAN]):
            return "share"
    if (mostly := _MOSTLY_FROM.search(sentence)) and not _PLACE.search(mostly.group()):
        return "mostly"
    return None


def _is_buyer(words: str) -> bool:
    """Whether ``words`` beside a share name who buys, not where buyers are."""
    return _BUYER.search(words) is not None and _PLACE.search(words) is None


def quoted_customers(
    question: str, pages: Sequence[PageHit], fy: int | None = None
) -> list[tuple[PageHit, str, str]] | None:
    """The sentence of ``pages`` that gives customers a share of revenue or says none has
    one, then the one that says where revenue mostly comes from, each with its page and
    kind; None when the question asks none or no sentence says so. Of several, the first
    (in search order) that names fiscal year ``fy``, else one that names no year, else one
    that names the year before (a fiscal year ending early in the calendar year is often
    the calendar year before's); one naming only older years is another year's."""
    if not asks_customers(question):
        return None
    found: dict[str, tuple[int, tuple[PageHit, str, str]]] = {}
    for page in pages:
        for sentence in page_sentences(page.text):
            for said in _RUN_IN.split(" ".join(sentence.split())):
                kind = customer_kind(said)
                rank = _year_rank(said, fy)
                if kind is None or rank is None:
                    continue
                slot = "mostly" if kind == "mostly" else "share"
                if slot not in found or rank < found[slot][0]:
                    found[slot] = (rank, (page, said, kind))
    return [found[slot][1] for slot in ("share", "mostly") if slot in found] or None


def _year_rank(sentence: str, fy: int | None) -> int | None:
    """0 for a sentence naming ``fy``, 1 naming no year, 2 naming the year before; None
    naming only other years."""
    years = {int(y) for y in _YEAR.findall(sentence)}
    if fy is None or fy in years:
        return 0
    if not years:
        return 1
    return 2 if fy - 1 in years else None


def customer_answer(question: str, quotes: list[tuple[PageHit, str, str]]) -> CitedAnswer:
    """The sentences as the answer, quoted (they speak as the company) and each cited to its
    page; a yes/no question opens with "Yes" when they name a concentration, "No" when they
    say no customer has a share worth stating."""
    footnotes: list[Footnote] = []
    numbers: dict[str, int] = {}
    quoted = []
    for page, sentence, _ in quotes:
        if page.uid not in numbers:
            numbers[page.uid] = len(numbers) + 1
            footnotes.append(Footnote(number=numbers[page.uid], citation=page_citation(page)))
        quoted.append(f"“{sentence}”{render_marker([numbers[page.uid]])}")
    body = "In the filing's words: " + " ".join(quoted)
    if opens_yes_no(question):
        concentrated = any(kind != "none" for _, _, kind in quotes)
        body = ("Yes: in" if concentrated else "No: in") + body.removeprefix("In")
    return CitedAnswer(body=body, references=ReferenceList(footnotes=footnotes))
