"""Code's checks of a draft against the question it answers, before a reviewer may accept it.

A small reviewer accepts drafts that say "yes" in one sentence and "no" in the next, or
that answer a different figure than the question asks: another line of the statements
(gross profit where it asks about SG&A), an amount where it asks for a percentage, one year
where it asks for an average. Those are plain to code, so a draft
that fails one is sent back with the reason, in words the researcher can act on.

:func:`floor_verdict` is code's floor under the reviewer's verdict, applied every round by
:class:`programs.probe_loop.ProbeLoop`: an uncited draft is never accepted, one that fails
:func:`draft_problem` is sent back, one that leaves a "how much" unanswered, or says which
side of a level a figure falls on without the figure, closes under a dagger, one that gives
no cause where the question asks what drove a figure is sent back, and the last round
always closes. :func:`pasted_verdict` sends back, before any reviewer, a
draft that pasted its evidence, and :data:`EMPTY_VERDICT` one of which nothing was kept.
"""

from __future__ import annotations

import re

from citations.markup import MARKER_RE, CitedAnswer
from citations.sentences import repeated, split_sentences, without_sentences
from metrics.numbers import NumberToken, extract_numbers
from programs.any_check import unsupported_any
from programs.cause_check import measures_named, mentions_measure
from programs.count_check import count_asked, names_counted
from programs.observations import HIT_HEADER_RE
from programs.threshold_verdicts import level_named
from retrieval.search.query import without_caveat
from signatures.reviewer import ReviewVerdict

_YES = re.compile(r"(?:^|[.!?:]\s+|\n)\s*(?:\*\*)?yes\b", re.IGNORECASE)
_NO = re.compile(
    r"(?:^|[.!?:]\s+|\n)\s*(?:\*\*)?no\b(?![-\s]*(?:longer|more than|less than))", re.IGNORECASE
)
#: A question that asks for a percentage as its figure ("What was the operating margin…",
#: "What percent of … occurred in Q4?", "What share of revenue…", "… in percent"), not one
#: that mentions a margin while asking what drove it.
_ASKS_PERCENT = re.compile(
    r"\b(?:what|how much)\s+(?:is|was|were|are)\b[^?.]*?\b(?:percent(?:age)?|margin|rate)\b"
    r"|\bwhat\s+(?:percent(?:age)?|share|proportion|fraction)\s+of\b"
    r"|\bin (?:units of )?percent(?:age)?s?\b|\bas a percent(?:age)?\b",
    re.IGNORECASE,
)
#: "How much restructuring charges did it record?": an amount, not a rate ("How much has
#: the effective tax rate changed?", "how much did revenue grow?" ask a percentage).
_ASKS_AMOUNT = re.compile(r"\bhow\s+much\b", re.IGNORECASE)
_ASKS_RATE = re.compile(
    r"\b(?:rates?|margins?|percent\w*|ratios?|shares?\s+of|grow\w*|grew|growth|turnover|"
    r"times|days|yields?|returns?\s+on|basis\s+points|bps)\b|%",
    re.IGNORECASE,
)
_ASKS_AVERAGE = re.compile(
    r"\b(?:what|how much)\s+(?:is|was|were|are)\b[^?.]*?\baverage\b", re.IGNORECASE
)
_STATES_AVERAGE = re.compile(r"\baverag\w*|\bmean\b", re.IGNORECASE)
#: A question about what moved a figure, whose answer may name only the causes ("What drove
#: the change in EPS?" answered "revenue grew 5% on higher prices").
_ASKS_CAUSE = re.compile(
    r"\b(?:drive[ns]?|drove|drivers?|caus(?:e|ed|es)|why|reasons?|explain\w*|due\s+to|"
    r"contribut\w*|factors?|behind)\b",
    re.IGNORECASE,
)
#: A probe that asks for an amount or a count: an answer to it without a figure is partial.
_ASKS_HOW_MUCH = re.compile(r"\bhow (?:much|many)\b", re.IGNORECASE)
#: Words by which an answer gives a cause: the filings' connectives ("primarily due to",
#: "driven by", "reflecting", "partially offset by"), the question's own words answered
#: ("the drivers were", "contributed"), and a change put down to a move in something else
#: ("on lower demand", "amid weaker PC sales").
_GIVES_CAUSE = re.compile(
    r"\b(?:due\s+to|driven\s+by|drive[ns]?|drove|drivers?|attributabl\w*|as\s+a\s+result"
    r"|result(?:ed|ing|s)?\s+(?:of|from)|because|reflect\w*|owing\s+to|primarily|mainly|largely"
    r"|partly|partially|led\s+by|thanks\s+to|offset|contribut\w*|caus\w*|factors?|reasons?"
    r"|behind|explain\w*|amid|on\s+(?:higher|lower|weaker|stronger|increased|decreased|reduced"
    r"|improved|softer|strong|weak)\b)",
    re.IGNORECASE,
)

#: What a question asks the cause of: "what drove <its revenue change>", "why did <gross
#: margin fall>", "the reasons for <the restructuring>", "factors behind <the decline>".
_CAUSE_OF = re.compile(
    r"\b(?:drove|drives|caused|causes|contributed\s+to|(?:is|was|were|are)\s+behind)\s+"
    r"(?P<subject>[^?.;,]+)"
    r"|\bwhy\s+(?:did|does|do|has|have|had|was|were|is|are)\s+(?P<why>[^?.;,]+)"
    r"|\b(?:drivers?|reasons?|factors?|causes?)\s+(?:of|for|behind)\s+(?P<cause_of>[^?.;,]+)",
    re.IGNORECASE,
)
_SUBJECT_WORD = re.compile(r"[a-z&][a-z&-]{1,}")
#: The figures a cause is asked of, each by the words (their first five letters) a question
#: or an answer names it by: "what drove revenue" is answered by a sentence about sales.
_FIGURE_NAMES: dict[str, frozenset[str]] = {
    key: frozenset(word[:5] for word in words.split())
    for key, words in {
        "revenue": "revenue revenues sales topline turnover",
        "margin": "margin margins profitability gross profit",
        "income": "income earnings profit profits loss losses eps",
        "expense": "expense expenses costs cost spending sg&a opex",
        "cash": "cash",
        "inventory": "inventory inventories",
        "debt": "debt borrowings leverage",
        "tax": "tax taxes",
        "dividend": "dividend dividends payout",
        "capex": "capex capital",
    }.items()
}


def contradicts_itself(body: str) -> bool:
    """Whether the draft opens sentences with both "Yes" and "No"."""
    return bool(_YES.search(body)) and bool(_NO.search(body))


def draft_problem(question: str, answer: CitedAnswer) -> str | None:
    """Why the draft does not answer ``question`` as asked (None when no check fails)."""
    body = answer.body
    if contradicts_itself(body):
        return (
            "The draft answers both yes and no; give one answer first, then the cited figures "
            "or sentences that support it."
        )
    asked, named = measures_named(question), measures_named(body)
    if len(asked) == 1 and named and named.isdisjoint(asked):
        # "What drove the reduction in SG&A …?" answered "gross profit … was flat, primarily
        # due to these factors": a real page, real words, another line of the statement.
        (measure,) = asked
        return (
            f"The question asks about {measure}; the draft speaks of "
            f"{', '.join(sorted(named))} instead: answer for {measure}."
        )
    numbers = extract_numbers(body)
    # "If gross margin is not a useful metric, explain why" asks for no cause.
    asks_cause = _ASKS_CAUSE.search(without_caveat(question))
    if len(asked) == 1 and numbers and not asks_cause:
        # "Is growth in adjusted EPS expected to accelerate?" answered with "operational
        # growth of 4.6% … 6.1%": figures of something the draft never names as asked;
        # "an improving gross margin profile?" answered "Yes, … an improving gross margin
        # profile. The operating margin increased from 18% to 26%": the question's words
        # repeated, the figures another measure's.
        (measure,) = asked
        figured = [s.text for s in split_sentences(body) if extract_numbers(s.text)]
        named_with_figures = set().union(*map(measures_named, figured))
        if not mentions_measure(measure, body) or (
            named_with_figures and measure not in named_with_figures
        ):
            return (
                f"The question asks about {measure}; the draft's figures are not "
                f"{measure}'s: answer for {measure}, or say the pages do not state it."
            )
    counted = count_asked(question)
    if numbers and counted and not names_counted(body, counted):
        # "How many employees did eBay have?" answered "134 million active buyers and 1.7
        # billion live listings": real counts of the page, not the one asked.
        return (
            f"The question asks how many {counted}s; the draft counts other things: give the "
            f"number of {counted}s, or say the pages do not state it."
        )
    if numbers and _ASKS_PERCENT.search(question) and not any(n.percent for n in numbers):
        return (
            "The question asks for a percentage (a margin, rate or share); the draft states "
            "only amounts: compute or quote the percentage."
        )
    if (
        numbers
        and _ASKS_AMOUNT.search(question)
        and not _ASKS_RATE.search(question)
        and all(n.percent for n in numbers)
    ):
        return (
            "The question asks for an amount; the draft states only percentages or basis "
            "points: state the amount, or say the pages do not state it."
        )
    if numbers and _ASKS_AVERAGE.search(question) and not _STATES_AVERAGE.search(body):
        return (
            "The question asks for an average over several periods; the draft gives no "
            "average: state each period's figure and their average."
        )
    return unsupported_any(question, answer)


def leaves_amount_unstated(question: str, answer: CitedAnswer) -> bool:
    """Whether ``question`` asks how much (or how many) and ``answer`` states no figure: a
    small reviewer accepts "3M described its respirator litigation" for "… and how much
    had it accrued?", and the report should say that half is missing."""
    return bool(_ASKS_HOW_MUCH.search(question)) and not extract_numbers(answer.body)


def leaves_level_unfigured(question: str, answer: CitedAnswer) -> bool:
    """Whether ``question`` asks whether a figure is above or below a level it names and
    ``answer`` states no figure of the level's kind but the level itself: asked "Is Intel's
    FY2022 interest coverage ratio above 10?", the 1.5B model answered "Yes, … is above
    10", beside the year's operating cash flow, citing a release page that prints no such
    ratio (it was about 5). A side of a level needs the figure."""
    named = level_named(question)
    if named is None:
        return False
    level, kind = named
    return not any(
        number.value != level and _of_kind(number, kind) for number in extract_numbers(answer.body)
    )


def _of_kind(number: NumberToken, kind: str) -> bool:
    """Whether ``number`` is written in the terms of a level of ``kind`` (a percentage, an
    amount, or a plain number: :func:`level_named`)."""
    if kind == "percent":
        return number.percent
    if kind == "amount":
        return number.currency or number.scale > 1
    return not (number.percent or number.currency or number.scale > 1)


def cause_subject(question: str) -> frozenset[str]:
    """The figures ``question`` asks the cause of, as :data:`_FIGURE_NAMES` keys: "what
    drove its revenue change" -> {"revenue"}; "why did gross margin fall" -> {"margin"};
    none when it asks the cause of no figure ("the reasons for the restructuring"): then
    any cause answers it."""
    keys: set[str] = set()
    for match in _CAUSE_OF.finditer(without_caveat(question)):
        keys |= _figures_named(next(group for group in match.groups() if group))
    return frozenset(keys)


def leaves_cause_unstated(question: str, answer: CitedAnswer) -> bool:
    """Whether ``question`` asks what drove something and ``answer`` gives it no cause: no
    sentence gives a cause while it, or the sentence before it ("This decline was driven
    by …"), names what the question asks the cause of. Asked "Did Intel report a net loss
    in Q1 2023, and what drove its revenue change?", a small reviewer accepted a draft that
    answered the loss alone and, sent back, one that gave the *loss* a cause. The question's
    caveat ("if the margin is not a useful metric, explain why") asks for no cause."""
    if not _ASKS_CAUSE.search(without_caveat(question)):
        return False
    subject = cause_subject(question)
    previous = ""
    for sentence in split_sentences(answer.body):
        named = not subject or subject & _figures_named(f"{previous} {sentence.text}")
        if named and _GIVES_CAUSE.search(sentence.text):
            return False
        previous = sentence.text
    return True


def _figures_named(text: str) -> set[str]:
    """The :data:`_FIGURE_NAMES` keys of the figures ``text`` names."""
    words = {word[:5] for word in _SUBJECT_WORD.findall(text.lower())}
    return {key for key, names in _FIGURE_NAMES.items() if words & names}


def floor_verdict(
    verdict: ReviewVerdict, answer: CitedAnswer, number: int, max_rounds: int, question: str
) -> ReviewVerdict:
    """Code's own floor under the reviewer: an uncited draft is never accepted; one that
    states no figure when the probe asks how much closes as insufficient evidence (its
    words kept among the findings, under a dagger: :mod:`programs.answer_support`), and so
    does one that puts a figure on a side of a level and states none; one that gives no
    cause where the probe asks what drove a figure is sent back; and the last round always
    closes, never hangs open."""
    accepted, parsed = verdict.done and not verdict.insufficient_evidence, verdict.parsed
    if accepted and not answer.references.footnotes:
        cite = "Cite a retrieved page for every sentence and number."
        verdict = _sent_back(cite, "draft cites no retrieved page", parsed)
    elif accepted and (problem := draft_problem(question, answer)):
        # Sent back, not accepted: a draft that contradicts itself or answers another
        # figure than the one asked (an amount for a percentage, a year for an average).
        verdict = _sent_back(problem, problem, parsed)
    elif accepted and leaves_amount_unstated(question, answer):
        # Closed, not sent back: asked for the figure, the 1.5B model wrote "$5 million"
        # and cited an exhibit index that prints no such amount.
        verdict = _closed("the question asks how much and the answer states no figure", parsed)
    elif accepted and leaves_level_unfigured(question, answer):
        # Closed, as a "how much" without a figure is: a side of a level with no figure.
        reason = "the question sets the figure against a level and the answer states no figure"
        verdict = _closed(reason, parsed)
    elif accepted and leaves_cause_unstated(question, answer):
        # Sent back: the cause may be on a page the next round reads; at the last round the
        # floor below closes the probe under a dagger that names the question.
        reason = "the question asks what drove it and the answer gives no cause"
        verdict = _sent_back(CAUSE_UNSTATED, reason, parsed)
    if not verdict.done and number >= max_rounds:
        verdict = _closed(verdict.reason or f"reviewer unsatisfied after {number} rounds", parsed)
    return verdict


def _sent_back(prompt: str, reason: str, parsed: bool) -> ReviewVerdict:
    """Code's verdict that sends a draft back to be written again, with ``prompt``."""
    return ReviewVerdict(done=False, follow_up_prompts=[prompt], parsed=parsed, reason=reason)


def _closed(reason: str, parsed: bool) -> ReviewVerdict:
    """Code's verdict that closes the probe as insufficient evidence, for ``reason``."""
    return ReviewVerdict(done=True, insufficient_evidence=True, parsed=parsed, reason=reason)


#: What a researcher is told after a draft that answers a "what drove …" with no cause.
CAUSE_UNSTATED = (
    "The question asks what drove it, and the draft gives no cause. Quote the reason the "
    'filing gives ("primarily due to …"), ending with the hit number of its page, such as '
    "[1], or say that the pages found do not give one."
)


#: What a researcher is told after a draft that pasted its evidence block instead of
#: answering ("[1] AMCR 10-K FY2023 p.5: PART I Item 1. - Business …"): every pasted line is
#: dropped, so nothing was left to review, though the block pasted often holds the answer.
PASTED_DRAFT = (
    "The draft pasted the evidence instead of answering. Answer the probe question in one or "
    "two sentences of your own, each ending with the hit number of its page, such as [1]."
)


#: Code's verdict on a draft of which its checks kept nothing (the model wrote only hit
#: numbers, "[1][4] [2][5]", or only sentences whose figures no page prints): no reviewer
#: can judge an empty draft, and asked to, the 1.5B reviewer closed the probe as
#: insufficient evidence in its first round ("How many reportable segments does 3M have?").
EMPTY_VERDICT = ReviewVerdict(
    follow_up_prompts=[
        "Nothing of the draft could be kept. Answer the probe question in one or two "
        "sentences of your own, each ending with the hit number of its page, such as [1]."
    ],
    reason="nothing of the draft could be kept",
)


#: An evidence block's header pasted inside a line: Intel's segments were drafted as
#: "… include the following: [1] INTC 10-K FY2020 p.87: … [2] INTC 10-K FY2020 p.37: …", all
#: on one line, so the lead-in alone was left and accepted as the answer.
_INLINE_HIT_HEADER = re.compile(
    r"\[\d+\]\s*[A-Z][A-Z0-9.&-]*\s+(?:10-K|10-Q|8-K|Earnings|Annual Report)[^:\n]{0,24}?"
    r"\s+p\.\s?\d+:"
)


#: The calculator's notation, as a ``wissen_calculate`` result renders a formula: a division
#: sign, an absolute value's bars, an ``average(`` of periods.
_FORMULA_NOTATION = re.compile(r"÷|\|[a-z][a-z&' -]*\||\baverage\(")


def drop_pasted_formulas(answer: CitedAnswer) -> tuple[CitedAnswer, int]:
    """``answer`` less its prose sentences written in the calculator's notation: asked
    whether inventory turnover is meaningful for Intel, the draft wrote "The formula used
    … is: Inventory turnover = |cost of revenue| ÷ average(inventory, inventory FY2019))",
    code's rendering pasted from its calculation; the report's Formulas note gives it once,
    cited. Returns how many went."""
    pasted = [
        s
        for s in split_sentences(answer.body)
        if not s.in_table and _FORMULA_NOTATION.search(MARKER_RE.sub("", s.text))
    ]
    return without_sentences(answer, pasted)


def drop_repeats(answer: CitedAnswer) -> tuple[CitedAnswer, int]:
    """``answer`` less its sentences that say again what one before them said
    (:func:`citations.sentences.repeated`): asked how much PG&E paid in dividends, the
    draft wrote "PG&E Corporation paid no dividends on preferred stock in 2021 or 2020."
    twice, cited to two pages, and both stood in the report. Returns how many went."""
    return without_sentences(answer, repeated(answer.body))


#: A short sentence that stops at its verb: "The evidence cites¹", "The page shows¹"; or
#: at a word that wants an object its marks stood for: "This is stated in¹ and²."
_STOPS_AT_VERB = re.compile(
    r"^(?:\S+\s+){0,4}(?:cites|shows|states|says|indicates|includes|lists|reports|provides|"
    r"notes|mentions|follows|following|in|on|and|see)[\s.]*$",
    re.IGNORECASE,
)
#: A cause that names nothing, ending its sentence: "… declined in FY2022 due to a
#: combination of factors¹."
_EMPTY_CAUSE = re.compile(
    r"\b(?:due\s+to|driven\s+by|because\s+of|as\s+a\s+result\s+of|caused\s+by)\s+"
    r"(?:(?:a\s+)?(?:combination|number|variety|range|host|mix)\s+of\s+|"
    r"(?:various|several|multiple|many|different|certain|other)\s+)"
    r"(?:factors|reasons|things|items|issues|drivers)[\s.]*$",
    re.IGNORECASE,
)

#: A sentence cut off at a word that wants more, once its marks are read off: "… due to
#: a decrease in the cash used for the purchases of marketable securities and¹.", "… three
#: manufacturing facilities in Russia (²". Not "A": a rating or a class of shares ends on it.
_CUT_OFF = re.compile(
    r"(?:\b(?:and|or|but|of|the|an|to|for|with|by|from|as|than|including)|\()[\s,.]*$",
    re.IGNORECASE,
)
#: A report's heading written into the prose, its marks after it: "Sources¹,²,³†".
_HEADING_ONLY = re.compile(
    r"^\W*(?:sources?|notes?|references?|citations?|evidence|scope|formulas?|answer)\W*$",
    re.IGNORECASE,
)
#: A sentence that ends at its colon, a full stop after it or not ("… driven by the
#: following factors:¹˒²˒³." once its marks are read off).
_ENDS_AT_COLON = re.compile(r":\s*\.?\s*$")


def drop_dangling_lead_in(answer: CitedAnswer) -> tuple[CitedAnswer, int]:
    """``answer`` less a last sentence that only leads in to what followed it ("The major
    product lines of Intel include the following:¹") once what followed is gone: Intel's
    segments were drafted as that lead-in and the pages pasted after it, twice; the pasted
    lines went, and the reviewer accepted the lead-in as the answer. A short sentence that
    stops at its verb ("The evidence cites¹", what was left of Oracle's headcount draft once
    the page reference it went on to paste was gone) is no answer either, wherever it
    stands, nor one left at a word its marks stood after ("This is stated in¹ and²."), nor
    one whose cause names nothing ("Intel's revenue declined in FY2022 due to a combination
    of factors."), nor one cut off at a word that wants more ("… purchases of marketable
    securities and¹."), nor a heading written as prose ("Sources¹,²,³†", after a composed
    Oracle answer). A full stop after the colon ("… was driven by the following
    factors:¹˒²˒³.", Intel's Q1 2023 revenue cause) leaves it a lead-in. With them gone, an
    empty draft is code's to send back. Returns how many went."""
    sentences = [s for s in split_sentences(answer.body) if not s.in_table]
    if not sentences:
        return answer, 0
    said = [(s, MARKER_RE.sub("", s.text).strip()) for s in sentences]
    dangling = [
        s
        for s, text in said
        if _STOPS_AT_VERB.match(text)
        or _EMPTY_CAUSE.search(text)
        or _CUT_OFF.search(text)
        or _HEADING_ONLY.match(text)
    ]
    last, last_text = said[-1]
    if last not in dangling and _ENDS_AT_COLON.search(last_text):
        dangling.append(last)
    return without_sentences(answer, dangling)


def pasted_verdict(raw: str, copied_lines: int, answer: CitedAnswer) -> ReviewVerdict | None:
    """Code's verdict on a draft that pasted its evidence (None otherwise): sent back to be
    written, as no reviewer could judge an empty draft.

    A draft that pasted an evidence block, hit header and all, is sent back even after a
    sentence of its own: the model stopped answering to copy, commonly until its output was
    cut, and the sentence before is a lead-in (a page's line restated), not an answer.
    """
    block = any(HIT_HEADER_RE.match(line) for line in raw.splitlines())
    block = block or bool(_INLINE_HIT_HEADER.search(raw))
    if copied_lines and (block or not answer.body.strip()):
        return ReviewVerdict(
            follow_up_prompts=[PASTED_DRAFT], reason="the draft pasted the evidence"
        )
    return None
