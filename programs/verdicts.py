"""A yes/no verdict on a figure, by code, where analysts share a benchmark for it.

"Does X have a healthy liquidity profile based on its quick ratio?" is answered by the
quick ratio and the floor it is read against: a small model shown 0.54 still writes "Yes,
healthy" as often as not, and a verdict that the figures contradict is the worst answer a
report can give. For the few figures with a benchmark every textbook states (liquidity
ratios against 1, working capital against 0), code compares the figure with it and says
which side it falls on, citing the figure's pages; a researched sentence that opens with
the other verdict is removed (:mod:`programs.figure_check`). Other figures get no verdict
from code: where the benchmark depends on the industry, the judgement stays the model's.

A yes/no question on whether a company pays, holds or spends something at all ("Has MGM
paid dividends in FY2022?", "Does Corning carry long-term debt?") is settled by the figure
itself, for amounts that are never negative in substance (:data:`PRESENCE_FORMULAS`): any
figure but zero is a yes (:func:`presence_verdict`).

Likewise a yes/no question on a figure's direction ("Has the quick ratio improved?", "Did
capex increase?") is settled by the two periods' figures, or by the computed change: code
opens the answer with it. "Improved" needs to know which way is better, so only figures
analysts read one way (:data:`BETTER_WHEN`) get that verdict.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from calculator.choice import FormulaChoice, choose_formula, single_item
from calculator.concepts import CONCEPTS
from calculator.definitions import METRICS_BY_NAME
from calculator.phrases import LOSS_VERBS, RETURN_TO_PROFIT
from calculator.wording import ACCELERATION, SPEEDS_UP
from domain.period_patterns import without_periods
from domain.periods import MIN_FY, Period, read_periods
from metrics.answer_verdicts import yes_no_polarity
from programs.answer_form import opens_yes_no
from textnorm.casing import lower_first


@dataclass(frozen=True)
class Benchmark:
    """The level a figure is read against, and what being at or above it means."""

    level: float
    meaning: str
    #: Only a figure below the level gets code's verdict: how far above it is healthy
    #: depends on the industry, and that judgement stays the model's.
    floor_only: bool = False


#: Figures (by their calculator title, lower case) with a benchmark analysts share.
BENCHMARKS: dict[str, Benchmark] = {
    "quick ratio": Benchmark(1.0, "quick assets cover current liabilities"),
    "current ratio": Benchmark(1.0, "current assets cover current liabilities"),
    "working capital": Benchmark(0.0, "current assets exceed current liabilities"),
    # Below 1, operating income does not cover interest in any industry (PG&E's FY2019
    # coverage of -10.81, after its wildfire charges, had been called "healthy").
    "interest coverage": Benchmark(
        1.0, "operating income covers interest expense", floor_only=True
    ),
}

#: Words by which a yes/no question asks whether a figure is on the healthy side.
_HEALTH = re.compile(
    r"\b(?:health(?:y|ier)?|strong|solid|sound|adequate|sufficient|enough|good|robust|"
    r"positive|comfortable|able to (?:cover|meet|pay)|can (?:cover|meet|pay)|liquid(?:ity)?)\b",
    re.IGNORECASE,
)
#: Words that turn the question around ("is the quick ratio below 1?", "weak", "negative").
_INVERTED = re.compile(
    r"\b(?:below|under|less than|weak|poor|negative|unhealthy|insufficient|inadequate|"
    r"struggl\w*|strain\w*|risk\w*)\b",
    re.IGNORECASE,
)


def benchmark_verdict(question: str, title: str, value: float, text: str) -> str | None:
    """The verdict sentence (no citation marks) for a yes/no question asking whether the
    figure ``title`` (its ``value``, written ``text``) is healthy; None when the question
    is not such a question or the figure has no shared benchmark."""
    benchmark = BENCHMARKS.get(title.strip().lower())
    if benchmark is None or not opens_yes_no(question):
        return None
    if not _HEALTH.search(question) or _INVERTED.search(question):
        return None
    if title.lower() not in question.lower():
        return None
    if benchmark.level:  # a ratio is judged as written: 0.999 shown as "1.00" is 1.00
        decimals = len(m.group(1)) if (m := re.search(r"\.(\d+)", text)) else 0
        value = round(value, decimals)
    healthy = value >= benchmark.level if benchmark.level else value > 0
    if healthy and benchmark.floor_only:
        return None
    side = (
        ("at or above" if value >= benchmark.level else "below")
        if benchmark.level
        else ("positive" if value > 0 else "not positive")
    )
    level = f"{benchmark.level:g}" if benchmark.level else ""
    position = f"{side} {level}".strip()
    article = "an" if title[:1].lower() in "aeiou" else "a"
    return (
        f"{'Yes' if healthy else 'No'}: {article} {lower_first(title)} of {text} is "
        f"{position}, the usual benchmark for whether {benchmark.meaning}"
    )


def opposes(sentence: str, verdict: str) -> bool:
    """Whether ``sentence`` opens with the other yes/no than ``verdict``, or says in words
    the other way whether a figure covered another. Code's "Inventory turnover does not
    apply to CRM: …" is a no: "Yes, inventory turnover is a meaningful metric" beside it
    says the opposite, as "Yes, it has positive working capital" does of a working capital
    that does not apply."""
    theirs = yes_no_polarity(sentence)
    if theirs is None and _COVERED.search(verdict) and _COVERED.search(sentence):
        theirs = not _NOT_COVERED.search(sentence)  # "it was not enough to cover …"
    ours = False if _DOES_NOT_APPLY.search(verdict) else yes_no_polarity(verdict)
    return theirs is not None and ours is not None and theirs != ours


#: Code's verdict on whether one figure covered another (:mod:`programs.comparisons`) and a
#: sentence that says so in words, or says it did not: "This amount was not enough to cover
#: its dividends" beside "Yes: free cash flow of $21,125 million covered dividends paid".
_COVERED = re.compile(r"\bcover(?:s|ed|ing)?\b", re.IGNORECASE)
_NOT_COVERED = re.compile(
    r"\b(?:not|never|insufficient|unable|fail(?:s|ed)?)\b[^.;]{0,40}?\bcover", re.IGNORECASE
)


#: Code's verdict on a metric that does not apply
#: (:func:`programs.inapplicable.inapplicable_verdict`).
_DOES_NOT_APPLY = re.compile(r"^[^:]* does not apply to ")


#: Figures (calculator titles, lower case) whose rise analysts read as an improvement
#: (``higher``) or as a deterioration (``lower``). Others (capex share, DPO, tax rate) are
#: read either way, so "improving?" about them gets no verdict from code.
BETTER_WHEN: dict[str, str] = {
    **dict.fromkeys(
        (
            "gross margin",
            "operating margin",
            "net margin",
            "ebitda margin",
            "ebitda",
            "free cash flow",
            "revenue growth",
            "current ratio",
            "quick ratio",
            "operating cash flow ratio",
            "working capital",
            "inventory turnover",
            "fixed asset turnover",
            "asset turnover",
            "return on assets",
            "return on equity",
            "interest coverage",
            # Profits, sales and the cash operations bring in: more is better, whatever
            # else moved ("Did PG&E's net income improve, and why?" had no direct answer).
            "revenue",
            "gross profit",
            "operating income",
            "pre-tax income",
            "net income",
            "net income attributable to shareholders",
            "net income applicable to common stockholders",
            "diluted eps",
            "cash from operations",
        ),
        "higher",
    ),
    **dict.fromkeys(
        (
            "days sales outstanding",
            "days inventory outstanding",
            "cash conversion cycle",
            # leverage: less debt for the same equity, earnings or assets is the stronger
            # balance sheet ("Has eBay's debt-to-equity ratio improved?" had no direct answer)
            "debt-to-equity",
            "debt to ebitda",
            "net debt to ebitda",
            "debt to assets",
        ),
        "lower",
    ),
}
#: A yes/no clause after the first: "What was McDonald's operating margin in Q2, and did it
#: improve year over year?" asks the figure and a verdict on its direction.
_AND_YES_NO = re.compile(
    r",?\s+and\s+(?:did|has|have|is|was|were|does|do)\s+(?:it|they|that|this|its|their)\b", re.I
)
_BETTER = re.compile(r"\b(?:improv\w*|better|strengthen\w*)\b", re.IGNORECASE)
_WORSE = re.compile(r"\b(?:deteriorat\w*|worse\w*|weaken\w*)\b", re.IGNORECASE)
#: Words that say a figure went up, or down.
RISES = re.compile(r"\b(?:increas\w*|grow\w*|grew|ris(?:e|en|ing)|rose|higher)\b", re.I)
FALLS = re.compile(r"\b(?:decreas\w*|declin\w*|f[ae]ll\w*|drop\w*|lower|shr[iau]nk\w*)\b", re.I)


def wrong_way(title: str, rose: bool) -> tuple[re.Pattern[str], ...]:
    """The words that move the figure ``title`` the other way than it went: a fall for a
    rise, and, for a figure analysts read one way (:data:`BETTER_WHEN`), "improved" for a
    margin that fell or "worsened" for one that rose."""
    words = [FALLS if rose else RISES]
    if better := BETTER_WHEN.get(title.strip().lower()):
        words.append(_WORSE if rose == (better == "higher") else _BETTER)
    return tuple(words)


def names_figure(question: str, title: str) -> bool:
    """Whether ``question`` names the figure ``title``, "total" left out as people leave it
    ("has it increased its debt" names total debt), and whose it is ("Did Apple's net
    income decline?" names net income attributable to shareholders), in the plural too
    ("Did Nike's inventories increase?" names inventory), or in words ("net income as a
    percent of revenue" names the net margin, :func:`calculator.choice.choose_formula`)."""
    asked, name = question.lower(), title.strip().lower()
    names = {name, name.removeprefix("total "), name.split(" attributable to ")[0]}
    names |= {n[:-1] + "ies" for n in names if n.endswith("y")}
    if any(re.search(rf"\b{re.escape(n)}", asked) for n in names):
        return True
    choice = choose_formula(f"What is {question}", Period(MIN_FY))
    return isinstance(choice, FormulaChoice) and choice.title.lower() == name


@dataclass(frozen=True)
class Point:
    """One period's figure as a report prints it."""

    text: str  # "0.57", "$1,749 million"
    period: str  # "FY2023"
    value: float


def trend_verdict(
    question: str, title: str, before: Point, after: Point, sector: str = ""
) -> str | None:
    """The direct answer (no citation marks) to a yes/no question on whether the figure
    ``title`` improved, rose or fell between two periods: ``Yes: the quick ratio rose from
    0.53 in FY2022 to 0.57 in FY2023``; asked both ways ("improved or declined?"), the
    answer names the direction. None when no such answer is code's to give
    (:func:`figure_direction`)."""
    changed, rose = after.value != before.value, after.value > before.value
    answer = figure_direction(question, title, changed, rose, sector)
    if answer is None:
        return None
    if changed:
        verb = "rose" if rose else "fell"
        moved = f"{verb} from {before.text} in {before.period} to {after.text} in {after.period}"
    else:
        moved = f"was {after.text} in both {before.period} and {after.period}"
    return f"{answer}: the {lower_first(title)} {moved}"


def asks_direction(question: str, title: str, sector: str = "") -> bool:
    """Whether ``question`` asks (yes/no) whether the figure ``title`` improved, rose or
    fell, whatever its values: what :func:`trend_verdict` answers when both periods have
    the figure."""
    return figure_direction(question, title, True, True, sector) is not None


def change_verdict(
    question: str, title: str, value: float, text: str, sector: str = ""
) -> str | None:
    """The same answer from a computed change (``Change in capital expenditure`` of
    ``$146 million``, the later year's figure less the earlier one's)."""
    base = title.removeprefix("Change in ")
    if base == title:
        return None
    answer = figure_direction(question, base, value != 0, value > 0, sector)
    if answer is None:
        return None
    size = text.lstrip("-−+ ")
    moved = f"rose by {size}" if value > 0 else f"fell by {size}" if value < 0 else "was unchanged"
    return f"{answer}: the {lower_first(base)} {moved}"


def figure_direction(
    question: str, title: str, changed: bool, rose: bool, sector: str
) -> str | None:
    """``Yes``/``No`` (or, asked both ways, the direction) for a yes/no question on whether
    ``title`` improved, rose or fell. None when the question asks no direction, names
    another figure, or asks "improving?" of a figure read either way, or of a margin at a
    financial company, whose margins analysts do not read (a bank reports no gross margin)."""
    if not names_figure(question, title) or _AGAINST_ANOTHER.search(question):
        return None
    if "margin" in title.lower() and sector.lower() == "financials" and _judged(question):
        return None  # whether it is better is not read; whether it rose is a fact
    return direction_answer(question, changed, rose, BETTER_WHEN.get(title.strip().lower()))


#: A direction set against another figure's ("grow faster than its revenue", "outpace"):
#: one figure rising settles nothing. Apple's R&D "grew faster than its revenue?" was
#: answered "Yes: the R&D rose …", revenue never read.
_AGAINST_ANOTHER = re.compile(
    r"\b(?:faster|slower|quicker|more\s+(?:quickly|rapidly|slowly)|less\s+(?:quickly|rapidly))"
    r"\s+than\b|\bout(?:pace|grow|perform)\w*",
    re.IGNORECASE,
)


def _judged(question: str) -> bool:
    """Whether the question asks if a figure got better or worse, not only which way."""
    return bool(_BETTER.search(question) or _WORSE.search(question))


def direction_answer(question: str, changed: bool, rose: bool, reading: str | None) -> str | None:
    """``Yes``/``No`` (or, asked both ways, ``Increased``/``Decreased``, ``Improved``/
    ``Worsened``) for a yes/no question on a figure's direction, the figure settled by the
    caller; ``reading`` is which way is better (``"higher"``/``"lower"``), None for a
    figure read either way, which gets no "improved" verdict."""
    if not (opens_yes_no(question) or _AND_YES_NO.search(question)):
        return None
    better, worse = bool(_BETTER.search(question)), bool(_WORSE.search(question))
    up, down = bool(RISES.search(question)), bool(FALLS.search(question))
    if better or worse:
        if reading is None:
            return None
        improved = changed and rose == (reading == "higher")
        worsened = changed and not improved
        if (better and (worse or down)) or (worse and up):  # "improved or declined?"
            return "Improved" if improved else "Worsened" if worsened else "Unchanged"
        return "Yes" if (improved if better else worsened) else "No"
    if (compared := _comparative(question)) is not None:
        up, down = compared, not compared  # "Did it pay more in FY2022 than in FY2021?"
    if speeds_or_slows := ACCELERATION.search(question):  # "is its growth accelerating?"
        up = bool(SPEEDS_UP.match(speeds_or_slows.group()))
        down = not up
    if up and down:  # "did it increase or decrease?"
        return ("Increased" if rose else "Decreased") if changed else "Unchanged"
    if up or down:
        return "Yes" if changed and rose == up else "No"
    return None


#: "more … than", "lower … than": a comparison of two periods' figures, the later one
#: usually named first ("Did McDonald's pay more in dividends in FY2022 than in FY2021?" had
#: got both figures and no answer; "higher in FY2022 than in FY2023" asks of the earlier).
_MORE_THAN = re.compile(
    r"\b(?P<way>more|greater|larger|higher|less|fewer|smaller|lower)\b(?P<first>[^?]*?)\bthan\b"
    r"(?P<second>[^?]*)",
    re.IGNORECASE,
)


def _comparative(question: str) -> bool | None:
    """True when the question asks whether the later period's figure is more than the
    earlier one's, False when less; the periods named the other way round ("more in FY2021
    than in FY2022") turn it. None without such a comparison of two named years."""
    found = _MORE_THAN.search(question)
    if found is None:
        return None
    first, second = (read_periods(found[side]).fiscal_years for side in ("first", "second"))
    if not first or not second or first[0] == second[0]:
        return None
    more = found["way"].lower() in ("more", "greater", "larger", "higher")
    return more if first[0] > second[0] else not more


#: Items (a calculator formula's one item, ``abs(...)`` unwrapped) of amounts a company
#: pays, spends or owes, never negative in substance: "Has it paid dividends?" is answered
#: by any figure but zero. Signed figures (net income, cash flow, income tax, which a
#: benefit makes negative) are not: "Did it have net income?" asks about a sign, not a
#: presence.
PRESENCE_FORMULAS = frozenset(
    {
        "capex",
        "dividends_paid",
        "buybacks",
        "interest_expense",
        "total_debt",
        "long_term_debt",
        "short_term_debt",
    }
)
#: Verbs by which a question asks whether the company pays, holds or spends the item at all.
_PRESENCE = re.compile(
    r"\b(?:pa(?:y|ys|id|ying)|ha(?:ve|s|d)|hold(?:s|ing)?|held|carr(?:y|ies|ied)|"
    r"report(?:s|ed)?|record(?:s|ed)?|incur(?:s|red)?|spen(?:d|ds|t)|distribut\w*|"
    r"declar\w*|owe[ds]?)\b",
    re.IGNORECASE,
)
#: Words that make it a comparison or a threshold, not a presence ("more dividends than").
_COMPARING = re.compile(
    r"\b(?:more|less|fewer|greater|higher|lower|above|below|over|under|exceed\w*|"
    r"at (?:least|most)|than|compared?|versus|vs\.?|relative|significant\w*|material\w*|"
    r"too much|a lot)\b",
    re.IGNORECASE,
)
#: A number standing alone ("$1", "5%", "10 million"), not a name's digits ("3M").
_THRESHOLD = re.compile(r"(?<![A-Za-z\d])\$?\d[\d,.]*(?![A-Za-z\d])")


def asks_presence(question: str, formula: str) -> bool:
    """Whether ``question`` asks yes or no on whether the company pays, holds or spends the
    item ``formula`` at all: not a comparison, a threshold, a direction or health, and not
    an item that may be signed. A line read by its printed label
    (:mod:`calculator.labelled_lines`: "Did it record any impairment loss?") is asked so
    only with "any", and its printed nil ("—") is a no."""
    item = single_item(formula)
    if item is None or not opens_yes_no(question):
        return False
    named = item in CONCEPTS or item in METRICS_BY_NAME  # else a line read by its label
    if named and item not in PRESENCE_FORMULAS:
        return False
    if not _PRESENCE.search(question) or _COMPARING.search(question):
        return False
    if any(p.search(question) for p in (RISES, FALLS, _BETTER, _WORSE, _HEALTH, _INVERTED)):
        return False
    return not _THRESHOLD.search(without_periods(question))  # "dividends above $1"


#: "Was it profitable?", "Did it turn a profit?", "Did net income turn positive?";
#: "unprofitable", "loss-making", "did it report a net loss?", "turn negative" ask the other
#: way. Net income's sign answers either ("turn negative in any year" is a series':
#: :mod:`programs.series_verdicts`).
_TURNED = (
    r"|\b(?:turn(?:ed|s)?|become|became|was|were|is|be)\s+{sign}\b"
    r"(?!\s+in\s+(?:any|every|each|all)\b)"
)
_PROFITABLE = re.compile(
    r"\bprofitable\b|\b(?:make|made|turn|turned)\s+a\s+profit\b"
    rf"|\b{RETURN_TO_PROFIT}\b" + _TURNED.format(sign="positive"),
    re.IGNORECASE,
)
_LOSS_MAKING = re.compile(
    r"\bunprofitable\b|\bloss-making\b"
    rf"|\b(?:{LOSS_VERBS})\s+a\s+(?:net\s+)?loss\b" + _TURNED.format(sign="negative"),
    re.IGNORECASE,
)
_NET_INCOME = frozenset({"net_income", "net_income_attributable", "net_income_to_common"})


def presence_verdict(
    question: str, formula: str, title: str, value: float, text: str
) -> str | None:
    """``Yes: dividends paid came to $4.05 million`` for a yes/no question on whether the
    company pays, holds or spends the item ``formula`` at all (:func:`asks_presence`); and
    ``Yes: net income … was $20,899 million`` for one on whether it was profitable (Intel's
    "Yes" had stood on a sentence about its memory products)."""
    if single_item(formula) in _NET_INCOME and opens_yes_no(question):
        profit, loss = bool(_PROFITABLE.search(question)), bool(_LOSS_MAKING.search(question))
        if profit and loss:  # "profitable or loss-making?"
            return (
                f"{'Profitable' if value > 0 else 'Loss-making'}: {lower_first(title)} was {text}"
            )
        if profit or loss:
            return f"{'Yes' if (value > 0) == profit else 'No'}: {lower_first(title)} was {text}"
    if not asks_presence(question, formula):
        return None
    return f"{'Yes' if value else 'No'}: {lower_first(title)} came to {text}"
