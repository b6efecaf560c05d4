"""The note's review pass, by code: three failure modes a reader of research should not meet.

No language model writes a note, so none is asked to review one either; these are plain
rules over a built :class:`~notes.model.ResearchNote`, run in the same order every time,
and each finding is one line. Text inside quotation marks (“…” or "…") is the source's own
words (a 10-K sentence, a risk-factor heading, a headline) and is never checked; dates
(``2023-06-30``) and labels such as ``FY2022``, ``Q2``, ``1M`` or ``20d`` are not figures.

**Precision the source does not state** (``precision``)

- A money or per-share figure (``34,229 million USD``, ``10.18 USD/share``) in a sentence
  that carries statement facts is matched to the nearest cited fact of its kind. The fact's
  printed value (``retrieval.facts.display.printed_value``: the scale the statement uses,
  to the digit it prints) sets the source's precision. The figure is a finding when it is
  written to a finer digit than that (``34,229.0 million`` against a printed ``34,229``),
  or when it is not the fact rounded to the coarser of the two digits at all (no cited
  fact states it). Writing a figure more coarsely than the source (``34.2 billion``) is
  fine. A statement printed in thousands that this scale reads as exact millions would be
  flagged for a trailing zero; the fact keeps no record of the printed scale.
- A computed figure (a change, a margin, a ratio, an indicator, a multiple) has no printed
  value, so it is held to the precision the code that computes it states: at most
  :data:`CHANGE_DECIMALS` decimal for a percentage in a sentence about statement facts
  (changes and margins, ``notes.financials``) and at most :data:`COMPUTED_DECIMALS` for
  any other figure in a sentence that cites facts or a price series (``market``'s prices,
  returns, volatility and multiples). A sentence citing only filing prose or a web page
  holds no figure the note computed, and is left to the hedging check.

**One-sided framing** (``one-sided``)

- The results or trends state an improvement (``up``, ``rose``, ``increased``, ``improved``,
  ``higher``, ``grew``, …) while the Risks section is missing or lists no risk factor,
  although the grid holds the 10-K that prints them (``ResearchNote.annual_year``, or a
  10-K among the Sources).
- A sentence claims an improvement without the prior-period figure: in the results and
  trends (or any sentence carrying facts), an improvement word needs facts of at least two
  periods and at least two figures stated besides the change itself (the figure right
  after ``up``/``down``, …), so the reader sees what it improved from.

**Hedging that hides missing data** (``hedging``)

- A section with no sentences and no table and no one-line reason (``unavailable``, the
  "not configured" / "no data" / "not found" line every section builder writes): an empty
  section read without its reason looks like "nothing to report".
- A hedge on a figure (``approximately``, ``about``, ``around``, ``roughly``, ``nearly``,
  ``almost``, ``some``, ``circa``, ``close to``, ``estimated``, ``~`` right before it)
  whose source is absent: in a section's uncited lines; for a money or per-share figure,
  when no cited fact states it; for any other figure, when the sentence cites neither
  facts nor a price series; or when a citation number has no entry in the Sources.
- A hedge on a claim (``may``, ``might``, ``could``, ``likely``, ``probably``, ``possibly``,
  ``perhaps``, ``appears to``, ``seems to``, ``expected to``) outside quotes, unless the
  sentence rests on prose (a filing page cited without facts, or a web document) that may
  itself say so: facts and price series state what was, never what may be, and an uncited
  line states nothing a reader can check.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from citations.markup import Citation
from notes.model import CitedSentence, Finding, ResearchNote, Section
from notes.sources import PriceCitation, Source, WebCitation
from retrieval.facts.display import printed_value
from retrieval.facts.model import Fact

#: Decimals ``notes.financials`` prints a change or an operating margin with.
CHANGE_DECIMALS = 1
#: Decimals ``market`` states prices, returns, volatility and multiples with.
COMPUTED_DECIMALS = 2
#: The sections whose sentences state statement facts.
FACT_SECTIONS = ("results", "trends")

_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
_QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"")
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_FIGURE = re.compile(
    r"(?<![\w.,/])(?P<sign>[-+−])?\$?(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<dec>\d+))?"
    r"(?:(?P<pct>%)|(?P<times>x)\b|(?!\w))"
    r"(?:\s+(?P<scale>thousand|million|billion)\b)?"
    r"(?:\s+(?P<unit>USD/share|USD per share|USD|shares|percentage points?)\b)?"
)
_FIGURE_HEDGE = re.compile(
    r"(?:\b(?:approximately|approx\.|about|around|roughly|nearly|almost|some|circa|close to"
    r"|an estimated|estimated)|~)\s*(?:USD\s+)?$",
    re.I,
)
_CLAIM_HEDGE = re.compile(
    r"\b(?:may|might|could(?!\s+not)|likely|probably|possibly|perhaps|presumably"
    r"|appears? to|seems? to|expected to)\b",
    re.I,
)
_IMPROVEMENT = re.compile(
    r"\b(?:up|rose|risen|rises?|rising|increased?|increases|increasing|grew|grown|growth|improved?"
    r"|improves|improving|improvement|higher|expanded|gained|stronger|strengthened|better)\b",
    re.I,
)
_DIRECTION_BEFORE = re.compile(
    r"\b(?:up|down|rose|fell|increased|decreased|grew|declined|dropped|improved|gained|lost)"
    r"(?:\s+by)?\s+$",
    re.I,
)
_UNEXPLAINED = "is empty and does not say why (no “not configured” or “no data” line)"


@dataclass(frozen=True)
class Figure:
    """A number as a sentence writes it: its size in base units, the size of its last
    written digit (``ulp``), its decimals and its kind."""

    text: str
    start: int
    value: float  # absolute, in base units (USD, shares, USD/share, percent points)
    ulp: float
    decimals: int
    kind: str  # "money", "per_share", "percent", "multiple", "bare"


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group())


def plain_text(text: str) -> str:
    """``text`` with quoted spans and dates blanked (same length, so offsets hold)."""
    return _DATE.sub(_blank, _QUOTED.sub(_blank, text))


def figures(text: str) -> list[Figure]:
    """The figures of ``text`` outside quotes (years and labels are figures with no decimals
    and no unit, and count only as ``bare``)."""
    found = []
    for m in _FIGURE.finditer(plain_text(text)):
        decimals = len(m["dec"] or "")
        factor = _SCALES.get(m["scale"] or "", 1.0)
        number = float(m["int"].replace(",", "") + (f".{m['dec']}" if m["dec"] else ""))
        unit = m["unit"] or ""
        if m["pct"] or unit.startswith("percentage"):
            kind = "percent"
        elif m["times"]:
            kind = "multiple"
        elif unit in ("USD/share", "USD per share"):
            kind = "per_share"
        elif m["scale"] or unit in ("USD", "shares"):
            kind = "money"
        else:
            kind = "bare"
        ulp = factor * 10.0**-decimals
        found.append(Figure(m.group().strip(), m.start(), number * factor, ulp, decimals, kind))
    return found


def _printed(fact: Fact) -> Figure | None:
    shown = figures(printed_value(fact))
    return shown[0] if shown else None


def _same_kind(figure: Figure, fact: Fact) -> bool:
    if figure.kind == "per_share":
        return fact.unit == "USD/share"
    return figure.kind == "money" and fact.unit in ("USD", "shares")


def matched_fact(figure: Figure, facts: Iterable[Fact]) -> tuple[Fact, Figure] | None:
    """The cited fact ``figure`` writes (rounded to the coarser of the two last digits), with
    the fact as printed; None when no fact of its kind is that number."""
    best = None
    for fact in facts:
        printed = _printed(fact)
        if printed is None or not _same_kind(figure, fact):
            continue
        gap = abs(figure.value - abs(fact.value))
        tolerance = max(figure.ulp, printed.ulp) / 2 * (1 + 1e-9)
        if gap <= tolerance and (best is None or gap < best[0]):
            best = (gap, fact, printed)
    return (best[1], best[2]) if best else None


def _cited(note: ResearchNote, sentence: CitedSentence) -> list[Source | None]:
    """The sources ``sentence`` cites (None for a number the Sources list does not hold)."""
    held = note.sources
    return [held[n - 1] if 1 <= n <= len(held) else None for n in sentence.sources]


def _precision(section: Section, sentence: CitedSentence, cited: list) -> list[str]:
    has_price = any(isinstance(s, PriceCitation) for s in cited)
    out = []
    for figure in figures(sentence.text):
        if figure.kind in ("money", "per_share") and sentence.facts:
            found = matched_fact(figure, sentence.facts)
            if found is None:
                out.append(f"“{figure.text}” is not what any of its cited facts prints")
            elif figure.ulp < found[1].ulp * (1 - 1e-9):
                fact = found[0]
                out.append(
                    f"“{figure.text}” has more digits than the source prints "
                    f"({printed_value(fact)}, {fact.doc_label} p.{fact.page_index + 1})"
                )
        elif sentence.facts or has_price:
            fact_change = figure.kind == "percent" and (
                sentence.facts or section.key in FACT_SECTIONS
            )
            cap = CHANGE_DECIMALS if fact_change else COMPUTED_DECIMALS
            if figure.decimals > cap:
                out.append(
                    f"“{figure.text}” has {figure.decimals} decimals; the computed figure is "
                    f"stated to {cap}"
                )
    return out


def _improves(sentence: CitedSentence) -> bool:
    return _IMPROVEMENT.search(plain_text(sentence.text)) is not None


def _without_prior(sentence: CitedSentence) -> bool:
    """Whether an improvement claim lacks the figure it improved from."""
    text = plain_text(sentence.text)
    levels = [
        f
        for f in figures(sentence.text)
        if f.kind != "bare" and not _DIRECTION_BEFORE.search(text[: f.start])
    ]
    periods = {(f.fy, f.fq) for f in sentence.facts}
    return len(periods) < 2 or len(levels) < 2


def _sourced(figure: Figure, sentence: CitedSentence, cited: list) -> bool:
    if any(s is None for s in cited):
        return False
    if figure.kind in ("money", "per_share"):
        if sentence.facts:
            return matched_fact(figure, sentence.facts) is not None
        return any(isinstance(s, PriceCitation) for s in cited)
    return bool(sentence.facts) or any(isinstance(s, PriceCitation) for s in cited)


def _hedged_figures(text: str) -> list[Figure]:
    """The figures of ``text`` a hedge word sits right before."""
    plain = plain_text(text)
    return [f for f in figures(text) if _FIGURE_HEDGE.search(plain[: f.start])]


def _claim_hedge(text: str) -> str | None:
    found = _CLAIM_HEDGE.search(plain_text(text))
    return found.group() if found else None


def _rests_on_prose(sentence: CitedSentence, cited: list) -> bool:
    return not sentence.facts and any(isinstance(s, (Citation, WebCitation)) for s in cited)


def _hedging(sentence: CitedSentence, cited: list) -> list[str]:
    out = []
    for figure in _hedged_figures(sentence.text):
        if not _sourced(figure, sentence, cited):
            out.append(f"“{figure.text}” is hedged and no cited source states it")
    word = _claim_hedge(sentence.text)
    if word and (any(s is None for s in cited) or not _rests_on_prose(sentence, cited)):
        out.append(f"“{word}” hedges a claim its cited sources do not make: {_short(sentence)}")
    return out


def _uncited_hedging(section: Section) -> list[str]:
    out = []
    for line in [*section.context, section.unavailable or ""]:
        hedged = _hedged_figures(line)
        word = _claim_hedge(line)
        if hedged:
            out.append(f"“{hedged[0].text}” is hedged in an uncited line: {_clip(line)}")
        elif word:
            out.append(f"“{word}” hedges a claim in an uncited line: {_clip(line)}")
    return out


def _short(sentence: CitedSentence) -> str:
    return _clip(sentence.text)


def _clip(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    return f"“{text}”" if len(text) <= limit else f"“{text[: limit - 1].rstrip()}…”"


def _annual_available(note: ResearchNote) -> bool:
    if note.annual_year is not None:
        return True
    return any(isinstance(s, Citation) and "10-K" in s.doc_label for s in note.sources)


def _one_sided(note: ResearchNote) -> list[Finding]:
    out = []
    positive = [
        s
        for section in note.sections
        for s in section.sentences
        if (section.key in FACT_SECTIONS or s.facts) and _improves(s)
    ]
    risks = next((s for s in note.sections if s.key == "risks"), None)
    if positive and _annual_available(note) and (risks is None or not risks.sentences):
        state = "is missing" if risks is None else "lists no risk factor"
        where = f"FY{note.annual_year} 10-K" if note.annual_year else "10-K"
        out.append(
            Finding(
                "one-sided",
                "note",
                f"{len(positive)} statement(s) of improvement (first: {_short(positive[0])}) "
                f"but the Risks section {state}, although the {where} is in the grid",
            )
        )
    for section in note.sections:
        for sentence in section.sentences:
            fact_claim = section.key in FACT_SECTIONS or sentence.facts
            if fact_claim and _improves(sentence) and _without_prior(sentence):
                out.append(
                    Finding(
                        "one-sided",
                        section.title,
                        f"claims an improvement without the prior-period figure: "
                        f"{_short(sentence)}",
                    )
                )
    return out


def review_note(note: ResearchNote) -> list[Finding]:
    """Every finding of the three checks on ``note``, in section order (precision and
    hedging per section, then the one-sided framing of the whole note)."""
    findings: list[Finding] = []
    for section in note.sections:
        if not section.sentences and not section.table and not section.unavailable:
            findings.append(Finding("hedging", section.title, f"the section {_UNEXPLAINED}"))
        for message in _uncited_hedging(section):
            findings.append(Finding("hedging", section.title, message))
        for sentence in section.sentences:
            cited = _cited(note, sentence)
            for message in _precision(section, sentence, cited):
                findings.append(Finding("precision", section.title, message))
            for message in _hedging(sentence, cited):
                findings.append(Finding("hedging", section.title, message))
    findings += _one_sided(note)
    return findings
