"""Answers that compare statement figures, written by code: which of several is the largest
(:mod:`programs.figure_choice` reads the question), and whether one covers another.

"Did Intel's operating cash flow cover its capital expenditure in FY2022?" names two
figures the statements print, and "cover" compares their sizes. Researched, the 1.5B draft
answered "Yes, … had no additions to property, plant and equipment", where Intel's release
prints (24,844) against $15,433 million from operations. Code reads both figures, cited,
and says whether the first is at least the second: `No: cash from operations of $15,433
million did not cover capital expenditure of $24,844 million¹.`

"Did Apple's revenue grow faster than its operating expenses in FY2022?" races two
figures' growth: each is read for the year and the year before, and code says which grew
faster, with both years' amounts (`No: revenue grew 7.8% (from $365,817 million to $394,328
million) in FY2022, slower than operating expenses, which grew 17.0% …`). Researched, the
answer gave revenue alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from calculator.result import Calculation, fact_citation
from citations.markup import CitedAnswer, Footnote, ReferenceList, render_marker
from programs.figure_choice import ChoiceQuestion
from signatures.probes import FROM_THE_STATEMENTS, Probe
from signatures.synthesiser import Figure
from textnorm.casing import lower_first
from textnorm.listing import listed

#: What follows a figure's name when the question goes on to its period ("in FY2022").
_PERIOD_AFTER = r"\s+(?:in|for|during|as\s+of|at|over|through)\s+"
#: "Did <a figure> cover <another>": a yes/no question, what covers, what is covered, and the
#: rest (the company's period) after it.
_COVER_RE = re.compile(
    r"^\W*(?:did|does|do|can|could|was|were|is|are|has|have|will|would)\s+(?P<source>.+?)\s+"
    r"(?:(?:fully|sufficiently|more\s+than)\s+)?(?:(?:enough|sufficient)\s+to\s+)?"
    r"(?:cover|covers|covered|fund|funds|funded)\s+"
    rf"(?:all\s+of\s+)?(?P<use>.+?)(?:{_PERIOD_AFTER}[^?]*)?\?",
    re.IGNORECASE,
)
#: The same asked the other way round: "Is <a figure> covered by <another>?".
_COVERED_BY_RE = re.compile(
    r"^\W*(?:is|are|was|were|has|have|had)\s+(?:been\s+)?(?P<use>.+?)\s+"
    r"(?:(?:fully|sufficiently)\s+)?(?:covered|funded)\s+by\s+"
    rf"(?P<source>.+?)(?:{_PERIOD_AFTER}[^?]*)?\?",
    re.IGNORECASE,
)
#: A figure asked, then whether it covered another: "What was FedEx's free cash flow in
#: FY2023, and did it cover its dividends?", "… and was it enough to cover its dividends?"
#: (the figure is stated in the cover's answer).
_FIGURE_THEN_COVER_RE = re.compile(
    r"^\W*(?:what|how\s+much)\s+(?:was|were|is|are)\s+(?P<source>.+?)"
    rf"(?:{_PERIOD_AFTER}[^,?]*)?,?\s+and\s+"
    r"(?:did|does|do|was|is|has|could|can)\s+(?:it|that|this|they)\s+"
    r"(?:(?:fully|sufficiently)\s+)?(?:(?:enough|sufficient)\s+to\s+)?(?:cover|fund)\s+"
    rf"(?P<use>.+?)(?:{_PERIOD_AFTER}[^?]*)?\?",
    re.IGNORECASE,
)
#: "Did <the company> pay more in <a figure> than it spent on <another>?", "Was <a figure>
#: larger than <another>?": a yes/no question on which of two figures is the larger.
_MORE_RE = re.compile(
    r"^\W*(?:did|does|do|has|have|had)\s+(?:\S+\s+){1,4}?(?:pay|pays|paid|spend|spends|spent"
    r"|return|returns|returned|earn|earns|earned|generate|generates|generated|invest|invests"
    r"|invested)\s+more\s+(?:in|on|as|for|from)?\s*(?P<source>.+?)\s+than\s+"
    r"(?:(?:it|they|the\s+company)\s+)?(?:(?:did|does|spent|spends|paid|pays|returned"
    r"|earned|generated|invested)\s+)?(?:(?:in|on|as|for|from)\s+)?"
    rf"(?P<use>.+?)(?:{_PERIOD_AFTER}[^?]*)?\?"
    r"|^\W*(?:was|were|is|are)\s+(?P<larger>.+?)\s+(?:larger|greater|higher|bigger|more)\s+"
    rf"than\s+(?P<smaller>.+?)(?:{_PERIOD_AFTER}[^?]*)?\?"
    # "Did Intel's capital expenditure exceed its depreciation?" had got the capex alone
    r"|^\W*(?:did|does|do|has|have|had)\s+(?P<over>.+?)\s+(?:exceed|surpass|outstrip|top)\w*\s+"
    rf"(?P<under>.+?)(?:{_PERIOD_AFTER}[^?]*)?\?",
    re.IGNORECASE,
)
#: The growth verbs of a race between two figures ("grow faster than").
_GROW = r"(?:grow|grows|grew|grown|growing|rise|rises|rose|risen|increase|increases|increased)"
#: "Did <a figure> grow faster (slower) than <another>?", and "Did <a figure> outpace
#: <another>?": a yes/no question on which of two figures grew the more.
_RACE_RES = (
    re.compile(
        r"^\W*(?:did|does|do|has|have|had|was|were|is|are)\s+(?P<source>.+?)\s+"
        rf"{_GROW}\s+(?P<how>faster|more\s+(?:quickly|rapidly)|slower|more\s+slowly"
        r"|less\s+(?:quickly|rapidly))\s+than\s+(?:(?:did|does|that\s+of)\s+)?"
        rf"(?P<use>.+?)(?:\s+(?:did|does|{_GROW}))?(?:{_PERIOD_AFTER}[^?]*)?\?",
        re.IGNORECASE,
    ),
    re.compile(
        r"^\W*(?:did|does|do|has|have|had)\s+(?:the\s+growth\s+(?:of|in)\s+)?"
        r"(?P<source>.+?)(?:\s+growth)?\s+(?P<how>out(?:pace|grow|grew|strip)\w*)\s+"
        r"(?:(?:that\s+of|the\s+growth\s+(?:of|in))\s+)?(?P<use>.+?)(?:['’]s)?"
        rf"(?:\s+growth)?(?:{_PERIOD_AFTER}[^?]*)?\?",
        re.IGNORECASE,
    ),
)
#: The relations a race asks: the first figure grew faster, or slower, than the second.
RACES = frozenset({"faster", "slower"})
#: A company's possessive or a pronoun before a figure's name ("Intel's", "its").
_OWNER_RE = re.compile(r"^(?:(?:\w[\w.&-]*\s+){0,3}\w[\w.&-]*['’]s|its|their|the)\s+", re.I)


@dataclass(frozen=True)
class CoverQuestion:
    """The figure that covers (``source``) and the one it covers (``use``), as written, and
    the ``relation`` asked: ``cover`` (at least as large) or ``more`` (larger)."""

    source: str
    use: str
    relation: str = "cover"


def read_cover(question: str) -> CoverQuestion | None:
    """The two figures a "did A cover B?" (or "is B covered by A?") or a "did it pay more in
    A than B?" question compares, or None for any other question. A level ("more than $40
    billion") is no second figure: :mod:`programs.threshold_verdicts` reads it."""
    text = question.strip()
    for race in _RACE_RES:
        if m := race.match(text):
            slower = re.match(r"slower|more\s+slowly|less", m["how"], re.IGNORECASE)
            return _asked(m["source"], m["use"], "slower" if slower else "faster")
    if (
        m := _COVERED_BY_RE.match(text)
        or _COVER_RE.match(text)
        or _FIGURE_THEN_COVER_RE.match(text)
    ):
        return _asked(m["source"], m["use"], "cover")
    if m := _MORE_RE.match(text):
        use = m["use"] or m["smaller"] or m["under"]
        source = m["source"] or m["larger"] or m["over"]
        return None if re.search(r"\d", use) else _asked(source, use, "more")
    return None


def _asked(source: str, use: str, relation: str) -> CoverQuestion | None:
    """The two figures as the question names them, less whose they are ("Intel's", "its")."""
    source, use = (_OWNER_RE.sub("", text.strip()) for text in (source, use))
    return CoverQuestion(source, use, relation) if source and use else None


def millions(value: float) -> str:
    """``$25,867 million`` (a negative as ``-$231 million``): an amount in base units as a
    sentence states it."""
    sign = "-" if value < 0 else ""
    return f"{sign}${abs(value) / 1e6:,.0f} million"


def summed_text(text: str, formula: str, calculation: Calculation) -> str:
    """``text`` (a figure's amount as written) with its parts after it when the figure is a
    sum of listed figures (:func:`programs.figure_formulas.size_asked`): "$25,549 million
    ($10,708 million and $14,841 million)", so the reader sees what was added."""
    if " + " not in formula or len(calculation.inputs) < 2:
        return text
    return f"{text} ({listed([millions(abs(fact.value)) for fact in calculation.inputs])})"


def numbered_footnotes(
    calculations: Sequence[Calculation],
) -> tuple[dict[str, int], list[Footnote]]:
    """The figures' pages (uid -> number) numbered from 1 in order of first use, and their
    footnotes: how every answer code writes from statement figures cites them."""
    uids = list(dict.fromkeys(uid for c in calculations for uid in c.citations))
    numbers = {uid: n for n, uid in enumerate(uids, 1)}
    by_uid = {f.uid: f for c in calculations for f in c.inputs}
    return numbers, [
        Footnote(number=n, citation=fact_citation(by_uid[uid])) for uid, n in numbers.items()
    ]


def _figure(
    calc: Calculation, text: str, uids: list[str], inputs: list[str], verdict: str
) -> Figure:
    """The figure a comparison answers with, for the table and the notes."""
    return Figure(
        title=calc.title,
        period=calc.period.label,
        value=calc.value,
        unit=calc.unit,
        text=text,
        uids=uids,
        inputs=inputs,
        verdict=verdict,
    )


def choice_answer(
    asked: ChoiceQuestion, calculations: Sequence[Calculation], texts: Sequence[str]
) -> tuple[CitedAnswer, Figure]:
    """The option whose figure wins, said first, then every option's figure (``texts``, as
    written), each cited."""
    values = [c.value for c in calculations]
    best = values.index(max(values) if asked.largest else min(values))
    numbers, footnotes = numbered_footnotes(calculations)

    def cited(c: Calculation, text: str) -> str:
        marker = render_marker([numbers[uid] for uid in c.citations])
        return f"{lower_first(c.title)} was {text}{marker}"

    winner = calculations[best]
    option = asked.options[best]
    verdict = f"{option[:1].upper()}{option[1:]} {asked.predicate} in {winner.period.label}"
    figures = "; ".join(cited(c, t) for c, t in zip(calculations, texts, strict=True))
    # The verdict cites every option's page, as the composer's opening line of it does.
    body = f"{verdict}{render_marker(list(numbers.values()))}. {figures[:1].upper()}{figures[1:]}."
    answer = CitedAnswer(body=body, references=ReferenceList(footnotes=footnotes))
    inputs = [line for c in calculations for line in c.input_lines()]
    return answer, _figure(winner, texts[best], list(numbers), inputs, verdict)


def cover_answer(
    source: Calculation,
    source_text: str,
    use: Calculation,
    use_text: str,
    relation: str = "cover",
) -> tuple[CitedAnswer, Figure]:
    """Whether ``source`` (a positive figure) is at least the size of ``use`` (an outflow,
    often printed negative), or with ``relation`` ``more`` whether the first is the larger
    of the two (outflows by their size), said first, each figure cited to its page; with a
    race's relation (:data:`RACES`) the two are growths (:func:`race_answer`)."""
    if relation in RACES:
        return race_answer(source, use, relation)
    if relation == "more":
        holds = abs(source.value) > abs(use.value)
        did = "exceeded" if holds else "did not exceed"
    else:
        holds = source.value > 0 and source.value >= abs(use.value)
        did = "covered" if holds else "did not cover"
    numbers, footnotes = numbered_footnotes([source, use])
    marker = render_marker(list(numbers.values()))
    verdict = (
        f"{'Yes' if holds else 'No'}: {lower_first(source.title)} of {source_text} {did} "
        f"{lower_first(use.title)} of {use_text} in {source.period.label}"
    )
    answer = CitedAnswer(body=f"{verdict}{marker}.", references=ReferenceList(footnotes=footnotes))
    inputs = [*source.input_lines(), *use.input_lines()]
    return answer, _figure(source, source_text, list(numbers), inputs, verdict)


def choice_probe(asked: ChoiceQuestion, period: str) -> Probe:
    """The probe code answers for a choice among statement figures."""
    options = ", ".join(asked.options)
    return Probe(
        probe_title=f"{options}{FROM_THE_STATEMENTS}",
        probe_question=f"Which of {options} {asked.predicate} in {period}?",
    )


def _grown(title: str) -> str:
    """The figure a growth is of: "Revenue growth" -> "revenue"."""
    return lower_first(title.removesuffix(" growth"))


def _moved(growth: Calculation) -> str:
    """``grew 7.8% (from $365,817 million to $394,328 million)``: a growth and the two
    years' amounts it is computed from (outflows by their size), earlier first."""
    rate = f"{'grew' if growth.value >= 0 else 'fell'} {abs(growth.value) * 100:.1f}%"
    years = sorted(growth.inputs, key=lambda fact: (fact.fy, fact.fq or 0))
    if len(years) != 2 or any(fact.unit != "USD" for fact in years):
        return rate  # per-share amounts are no millions
    return f"{rate} (from {millions(abs(years[0].value))} to {millions(abs(years[1].value))})"


def race_answer(
    source: Calculation, use: Calculation, relation: str = "faster"
) -> tuple[CitedAnswer, Figure]:
    """Whether ``source``'s growth beat ``use``'s (``relation`` ``faster``) or trailed it
    (``slower``), said first, then each growth with its two years' amounts, cited."""
    faster = source.value > use.value
    holds = faster if relation == "faster" else source.value < use.value
    numbers, footnotes = numbered_footnotes([source, use])
    marker = render_marker(list(numbers.values()))
    if source.value >= 0 and use.value >= 0:
        other = f"{'faster' if faster else 'slower'} than {_grown(use.title)}, which {_moved(use)}"
    else:
        other = f"while {_grown(use.title)} {_moved(use)}"
    verdict = (
        f"{'Yes' if holds else 'No'}: {_grown(source.title)} {_moved(source)} in "
        f"{source.period.label}, {other}"
    )
    answer = CitedAnswer(body=f"{verdict}{marker}.", references=ReferenceList(footnotes=footnotes))
    inputs = [*source.input_lines(), *use.input_lines()]
    text = f"{source.value * 100:.1f}%"
    return answer, _figure(source, text, list(numbers), inputs, verdict)


def comparison_probe(source: Calculation, use: Calculation, relation: str, period: str) -> Probe:
    """The probe code answers for a comparison of two statement figures."""
    if relation in RACES:
        first, second = _grown(source.title), _grown(use.title)
        return Probe(
            probe_title=f"{first[:1].upper()}{first[1:]} and {second} growth{FROM_THE_STATEMENTS}",
            probe_question=f"Did {first} grow {relation} than {second} in {period}?",
        )
    verb = "exceed" if relation == "more" else "cover"
    return Probe(
        probe_title=f"{source.title} and {lower_first(use.title)}{FROM_THE_STATEMENTS}",
        probe_question=f"Did {lower_first(source.title)} {verb} {lower_first(use.title)} in "
        f"{period}?",
    )
