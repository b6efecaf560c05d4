"""A figure the statement facts hold is checked against the fact by code.

The composer's model writes prose around figures that code computed from the statements;
a small model swaps them between companies, or writes a neighbouring number from the same
page, and digit grounding passes it because the digits are on some cited page. A sentence
that names one company and a figure's title ("3M's capital expenditure …") must state that
company's figure (for some period the report holds) if it states an amount of that kind
at all; otherwise it is removed, never printed. Sentences stating changes or gaps
("rose $146 million") are left to the change and comparison lines code writes itself, so
they are removed too when their amount is not a figure: the computed lines say it right.
A sentence that opens with the other yes/no than code's verdict on a figure
(:mod:`programs.verdicts`) goes too, and so does one that moves a figure the other way than
its periods' values do ("increased to 67.3%" of a margin that fell from 68.2%; "The increase
was driven by …" where only that figure moved), or that
ranks two companies the other way than their figures do ("Boeing had the higher operating
margin" of Boeing's -5.3% beside 3M's 19.1%), or that gives a ratio's value a percent sign.

The composer reads only the slices' findings, so a number it writes that no finding states
is its own: arithmetic (a gap, a share, a sum) or a neighbouring figure recalled wrongly.
:func:`drop_unfounded` removes such sentences; the differences and ratios a reader needs
are the calculator's lines, appended by code.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence

from citations.markup import CitedAnswer
from citations.sentences import split_sentences, without_units, without_units_and_followers
from domain.period_patterns import BARE_YEAR_RE
from metrics.numbers import NumberIndex, NumberToken, close, extract_numbers, readings
from programs.figure_table import slice_figures
from programs.verdicts import names_figure, opposes, wrong_way
from retrieval.companies import Company
from retrieval.mentions import company_mentions
from signatures.synthesiser import Figure, SliceReport

_WORD = re.compile(r"[a-z]{3,}")
#: How code states a ratio ("1.33", "84.33"): a number with no unit.
_BARE_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
#: A number right after these is a benchmark the figure is compared with ("a quick ratio
#: below 1"), not a statement of the figure.
THRESHOLD = re.compile(
    r"\b(?:below|above|under|over|less than|more than|greater than|exceeds?|exceeding|"
    r"at least|at most|at or (?:above|below)|threshold of|benchmark of)\s*\$?$",
    re.IGNORECASE,
)
#: A number the size of an effect on the figure, not the figure: "declines in respirator
#: demand impacted operating margins by 0.3 percent" answers what drove a margin that fell
#: 1.7 points; so does "a 40 basis point headwind".
_EFFECT_BEFORE = re.compile(
    r"\b(?:impact(?:s|ed|ing)?|headwinds?|tailwinds?|contribut\w+|benefit(?:s|ed|ing)?|"
    r"weigh(?:s|ed|ing)? on|hurt|drag(?:s|ged|ging)?)\b[^.;]{0,60}$",
    re.IGNORECASE,
)
_EFFECT_AFTER = re.compile(
    r"^\s*(?:percentage\s+points?|points?|pts|bps|basis\s+points)?\s*(?:of\s+)?"
    r"(?:headwinds?|tailwinds?|impact|drag|benefit|contribution)\b",
    re.IGNORECASE,
)


def stated_values(text: str, figures: Sequence[Figure]) -> list[NumberToken]:
    """The numbers ``text`` states of the kind of one of ``figures`` (a % for a %), benchmarks
    and effects on a figure aside (years are no numbers to
    :func:`metrics.numbers.extract_numbers`): what may state or contradict a figure."""
    return [
        t
        for t in extract_numbers(text)
        if any(same_kind(t, f) for f in figures) and not _not_the_figure(text, t)
    ]


def _not_the_figure(text: str, token: NumberToken) -> bool:
    """Whether ``token`` gives something else than a figure ``text`` names: a benchmark the
    figure is compared with ("a quick ratio below 1"), or the size of an effect on it."""
    before = text[: token.start]
    return bool(
        THRESHOLD.search(before)
        or _EFFECT_BEFORE.search(before)
        or _EFFECT_AFTER.match(text[token.end :])
    )


def _title_words(title: str) -> set[str]:
    return set(_WORD.findall(title.lower())) - {"and", "the", "from", "for", "total"}


def states_figure(token: NumberToken, figure: Figure) -> bool:
    """Whether the number, read as written (format and scale), is the figure's value, within
    the rounding it was written to (at most 5%): "-1.7%" states a change of -0.0174 and
    "$1.7 billion" capex of $1,749 million, which 1% relative would not cover. A margin's
    change is written in percentage points ("-1.7 percentage points" of -0.0174)."""
    target = abs(figure.value) * (100 if figure.text.endswith(" percentage points") else 1)
    for reading in readings(token):
        shift = round(math.log10(abs(token.value) / reading)) if reading and token.value else 0
        if close(reading, target, decimals=token.decimals + shift):
            return True
    return False


def same_kind(token: NumberToken, figure: Figure) -> bool:
    """An amount for an amount, a percentage for a percentage."""
    return token.percent == ("%" in figure.text)


def drop_contradicting(
    answer: CitedAnswer, slices: Sequence[SliceReport], companies: Sequence[Company]
) -> tuple[CitedAnswer, int]:
    """``answer`` less the prose sentences that give a company's figure a value the facts
    do not hold; and how many were removed."""
    figures = _figures_by_company(slices)
    if not figures:
        return answer, 0
    dropped = []
    for sentence in split_sentences(answer.body):
        if sentence.in_table:
            continue
        mentions = company_mentions(sentence.text, companies)
        named = {t for _, t in mentions}
        if len(named) == 1:
            about = figures.get(next(iter(named)), [])
        else:  # a sentence naming no company (or several) is about the only one, if one
            about = next(iter(figures.values())) if len(figures) == 1 else []
        one = next(iter(named)) if len(named) == 1 else None
        wrong = (one is not None and _contradicts(sentence.text, about)) or _misranked(
            sentence.text, mentions, figures
        )
        if wrong or _opposes(sentence.text, about) or _misdirected(sentence.text, about):
            dropped.append(sentence)
    body = without_units_and_followers(answer.body, dropped)
    return answer.model_copy(update={"body": body}), len(dropped)


#: A comparative that ranks the named company against the other: "higher", "the larger".
_ABOVE = r"higher|greater|larger|bigger"
_BELOW = r"lower|smaller"
#: "higher than in FY2021", "higher than the prior year": a change over time, not a ranking.
_OVER_TIME = re.compile(
    r"\bthan\s+(?:in\s+|the\s+|a\s+|its\s+)*(?:prior|previous|preceding|last|year|"
    r"(?:fy)?\s*'?\d{2,4}|fiscal)",
    re.IGNORECASE,
)


def _misranked(
    text: str, mentions: Sequence[tuple[int, str]], figures: dict[str, list[Figure]]
) -> bool:
    """Whether ``text`` ranks a company against the one other company the other way than
    their computed figures do: "Boeing had the higher operating margin" of Boeing's -5.3%
    beside 3M's 19.1%. The comparative must sit next to the figure's title ("higher
    operating margin", "margin was lower"); with one kind of figure in the report, its last
    word is enough ("Boeing's higher margins"). The company ranked is the one named last
    before that phrase, else the first named after it (``mentions``: positions and
    tickers). Two companies only: with more, "higher" does not say than whom. A change
    over time ("higher than in FY2021") is not a ranking."""
    if len(figures) != 2 or not mentions or _OVER_TIME.search(text):
        return False
    first, second = figures
    titles = {f.title for f in figures[first]} & {f.title for f in figures[second]}
    one_kind = len({f.title for fs in figures.values() for f in fs}) == 1
    for title in titles:
        words = title.lower().split()
        noun = r"\s+".join(map(re.escape, words)) + r"s?"
        if one_kind:
            noun = rf"(?:{noun}|{re.escape(words[-1])}s?)"
        rank = rf"({_ABOVE}|{_BELOW})"
        # (?![a-z]), not \b: a citation mark (²) is a word character to Python's regex.
        before = rf"\b{rank}\s+(?:\w+\s+){{0,2}}?{noun}(?![a-z])"
        after = rf"\b{noun}\s+(?:\w+\s+){{0,3}}?{rank}(?![a-z])"
        match = re.search(f"{before}|{after}", text, re.IGNORECASE)
        if match is None:
            continue
        before_it = [t for at, t in mentions if at < match.start()]
        ticker = before_it[-1] if before_it else mentions[0][1]
        if ticker not in figures:
            continue
        other = second if ticker == first else first
        claims_above = re.fullmatch(_ABOVE, (match.group(1) or match.group(2)).lower())
        mine, theirs = _latest_common(figures[ticker], figures[other], title)
        if mine is None or theirs is None or mine.value == theirs.value:
            continue
        if bool(claims_above) != (mine.value > theirs.value):
            return True
    return False


def _latest_common(
    mine: Sequence[Figure], theirs: Sequence[Figure], title: str
) -> tuple[Figure | None, Figure | None]:
    """Both companies' figures with ``title`` for the latest period both have."""
    by_period = {f.period: f for f in theirs if f.title == title}
    common = sorted((f for f in mine if f.title == title and f.period in by_period),
                    key=lambda f: f.period)  # fmt: skip
    return (common[-1], by_period[common[-1].period]) if common else (None, None)


def _figures_by_company(slices: Sequence[SliceReport]) -> dict[str, list[Figure]]:
    figures: dict[str, list[Figure]] = {}
    for report in slices:
        figures.setdefault(report.slice.ticker, []).extend(slice_figures(report))
    return figures


def drop_misranked(
    answer: CitedAnswer, slices: Sequence[SliceReport], companies: Sequence[Company]
) -> CitedAnswer:
    """``answer`` (a slice's findings) less the prose sentences that rank two companies the
    other way than their figures do (:func:`_misranked`). A slice's researcher sees only its
    own company, so its draft's "Boeing had the higher margin" can only be checked here,
    where both companies' figures are known."""
    figures = _figures_by_company(slices)
    dropped = [
        sentence
        for sentence in split_sentences(answer.body)
        if not sentence.in_table
        and _misranked(sentence.text, company_mentions(sentence.text, companies), figures)
    ]
    if not dropped:
        return answer
    body = without_units_and_followers(answer.body, dropped)
    return answer.model_copy(update={"body": body})


def drop_contradicting_in_slice(
    answer: CitedAnswer, figures: Sequence[Figure]
) -> tuple[CitedAnswer, int]:
    """A researched probe's draft less the sentences that give its slice's computed figure
    another value ("the quick ratio was 1.87" beside a computed 0.54): within a slice every
    sentence is about the slice's company, named or not. A draft that opens with the other
    yes/no than code's verdict argues for it throughout ("Yes. … This indicates a healthy
    liquidity profile"), so all of its prose goes."""
    prose = [s for s in split_sentences(answer.body) if not s.in_table]
    if prose and _opposes(prose[0].text, figures):
        dropped = prose
    else:
        dropped = [s for s in prose if _contradicts(s.text, figures) or _opposes(s.text, figures)]
    body = without_units_and_followers(answer.body, dropped)
    return answer.model_copy(update={"body": body}), len(dropped)


def _opposes(text: str, figures: Sequence[Figure]) -> bool:
    """Whether ``text`` opens with the other yes/no than code's verdict on a figure."""
    return any(f.verdict and opposes(text, f.verdict) for f in figures)


def _misdirected(text: str, figures: Sequence[Figure]) -> bool:
    """Whether ``text`` moves a figure the other way than its periods' values do: "it
    increased to 67.3%" or "improved … to 67.3%" of a gross margin that fell from 68.2% to
    67.3% (:func:`programs.verdicts.wrong_way`). Only a movement that lands on the later
    figure ("… to 67.3%"), follows it (:func:`_moved_after`), follows the figure's name
    (:func:`_moved_outright`) or is the subject of a sentence in a report where only that
    figure moved (:func:`_moved_as_subject`) is read, so a sentence on something else that
    rose (costs, while the margin fell) is left alone."""
    series: dict[str, list[Figure]] = {}
    for figure in figures:
        series.setdefault(figure.title, []).append(figure)
    for points in series.values():
        points = sorted(points, key=lambda f: f.period)
        for before, after in itertools.pairwise(points):
            if before.value == after.value:
                continue
            rose = after.value > before.value
            words = wrong_way(after.title, rose)
            for word in (w for pattern in words for w in pattern.finditer(text)):
                clause = re.split(r"[.;]\s|,\s(?:while|but|and|whereas)\b", text[word.end() :])[0]
                landing = re.search(r"\bto\s+", clause[:80])
                if landing is None:
                    continue
                stated = extract_numbers(clause[landing.end() :])
                lands = stated and stated[0].start <= 1 and same_kind(stated[0], after)
                if lands and states_figure(stated[0], after):
                    return True
            if _moved_after(text, after, words) or _moved_outright(text, after, rose):
                return True
    moving = [points for points in series.values() if len({f.value for f in points}) > 1]
    return len(moving) == 1 and _moved_as_subject(text, sorted(moving[0], key=lambda f: f.period))


#: A sentence whose subject is a movement, named by no figure: "The increase was driven by
#: higher services revenues", "This decline reflects …". A noun that some words qualify
#: ("The increase in receivables was …") is another figure's movement, so the verb (or
#: "of $…", the movement's size) must follow the noun at once.
_MOVEMENT_SUBJECT = re.compile(
    r"^\W*(?:the|this|that|such|its)\s+(?:(?:year[- ]over[- ]year|annual|overall|significant|"
    r"slight|sharp|substantial|modest|large)\s+)*(?P<movement>[a-z]+)\s*[⁰¹²³⁴⁵⁶⁷⁸⁹,]*\s+"
    r"(?:of\s+\$?\d|was|is|were|has|had|came|can|could|arose|occurred|primarily|mainly|"
    r"largely|mostly|partly|partially|reflect\w*|result\w*|stemm\w*|attribut\w*|driven|due)\b",
    re.IGNORECASE,
)


def _moved_as_subject(text: str, points: Sequence[Figure]) -> bool:
    """Whether ``text`` opens on a movement the other way than the report's one moving
    figure (``points``, in period order) went: "The increase was driven by higher services
    revenues" of cash from operations that fell from $15,887 million to $9,539 million. With
    one figure that moved, the movement a sentence speaks of without naming it is that
    figure's; with two, it could be either's, and is left alone."""
    subject = _MOVEMENT_SUBJECT.match(text)
    if subject is None:
        return False
    rose = points[-1].value > points[0].value
    movement = subject.group("movement")
    return any(p.fullmatch(movement) for p in wrong_way(points[-1].title, rose))


#: A word read as an adjective, not a movement: "affected by increased tax payments".
_ADJECTIVAL = re.compile(r"\b(?:by|of|from|with|the|an?|to|for|on)\s+$", re.IGNORECASE)


def _moved_outright(text: str, after: Figure, rose: bool) -> bool:
    """Whether ``text`` says the figure itself moved the other way than it did (``rose``),
    its name right before the word ("Oracle's operating cash flow increased in FY2022 by
    $9,539 million" of a figure that fell to $9,539 million), in the later figure's year or
    none, and says no movement the right way too (a sentence with both is not code's)."""
    words = wrong_way(after.title, rose)
    if any(p.search(text) for p in wrong_way(after.title, not rose)):
        return False
    years, its_year = set(BARE_YEAR_RE.findall(text)), set(BARE_YEAR_RE.findall(after.period))
    if years and not years & its_year:
        return False
    for word in (w for pattern in words for w in pattern.finditer(text)):
        clause = re.split(r"[.;,]\s", text[: word.start()])[-1]
        if not _ADJECTIVAL.search(clause) and names_figure(
            " ".join(clause.split()[-6:]), after.title
        ):
            return True
    return False


def _moved_after(text: str, after: Figure, words: Sequence[re.Pattern[str]]) -> bool:
    """Whether ``text`` states the later figure and then, in the same clause, moves it the
    wrong way: "the FY2023 effective tax rate was 25.9%, which decreased from FY2022" of a
    rate that rose from 21.9%."""
    for number in extract_numbers(text):
        if not (same_kind(number, after) and states_figure(number, after)):
            continue
        lead = _SAID_OF_IT.match(text, number.end)
        if lead and any(pattern.match(text, lead.end()) for pattern in words):
            return True
    return False


#: What joins a figure to a word said of it: "25.9%, which decreased", "25.9% (down".
#: Citation marks between them are skipped ("25.9%¹, which").
_SAID_OF_IT = re.compile(
    r"[\s,(⁰¹²³⁴⁵⁶⁷⁸⁹˒†]*(?:(?:which|that)\s+(?:has\s+|had\s+|was\s+|is\s+)?)?"
)


#: "Capex" as prose spells it out: "total capital expenditure as a percentage of revenue"
#: names the figure "Capex as % of revenue".
_CAPEX_SPELLED_OUT = re.compile(r"\bcapital\s+(?:expenditures?|spending)\b", re.IGNORECASE)


def _contradicts(text: str, figures: Sequence[Figure]) -> bool:
    """Whether ``text`` names a figure's title and states an amount of its kind that is not
    the figure."""
    words = set(_WORD.findall(text.lower()))
    if _CAPEX_SPELLED_OUT.search(text):
        words.add("capex")
    about = [f for f in figures if _title_words(f.title) <= words]
    if not about:
        return False
    amounts = stated_values(text, about)
    wrong = bool(amounts) and not all(any(states_figure(t, f) for f in about) for t in amounts)
    return wrong or _ratio_as_percent(text, about)


def _ratio_as_percent(text: str, figures: Sequence[Figure]) -> bool:
    """Whether ``text`` gives a ratio's value a percent sign: "a debt-to-equity ratio of
    84.33%" of a ratio of 84.33 (84 times, not 0.84). The value is the figure's, so a check
    of amounts alone passes it, and the grounding metric reads numbers without their unit."""
    ratios = [f for f in figures if _BARE_NUMBER.fullmatch(f.text)]
    return any(
        t.percent and any(close(abs(t.value), abs(f.value), decimals=t.decimals) for f in ratios)
        for t in extract_numbers(text)
        if not _not_the_figure(text, t)
    )


def drop_unfounded(answer: CitedAnswer, source: str) -> tuple[CitedAnswer, int]:
    """``answer`` less the prose sentences that state a number ``source`` (the text the
    writer read) does not, a benchmark it is compared with ("below 1") aside; and how many
    were removed. Numbers match as the grounding metric reads them: format and scale
    normalised, within the precision the writer rounded to."""
    index = NumberIndex.from_text(source)
    dropped = [
        s
        for s in split_sentences(answer.body)
        if not s.in_table
        and any(
            not index.matches(t) and not THRESHOLD.search(s.text[: t.start])
            for t in extract_numbers(s.text)
        )
    ]
    body = without_units(answer.body, dropped)
    return answer.model_copy(update={"body": body}), len(dropped)
