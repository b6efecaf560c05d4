"""The slice planner's deterministic half: a pre-pass over the question, and the spec's rules.

The pre-pass finds what a regular expression can be sure of (tickers and company names the
grid or the company map knows, FY and quarter expressions, "last three years"); the LLM's
facets complement it. The rules then turn facets into slices:

1. no fiscal year -> the latest full FY the grid holds for that ticker;
2. no quarter -> Q4 (the FY-level cell); granularity "deep" -> Q1..Q4;
3. slices = tickers x FY x FQ, de-duplicated, in a stable order;
4. cells the grid does not hold are reported, never silently dropped.

Everything here is a pure function of its inputs, so the rules are property-tested.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from retrieval.companies import Company
from retrieval.store import GridCell
from signatures.daggers import SliceRef
from signatures.planner import Facets

ANNUAL_DOC_TYPES = frozenset({"10-K", "ANNUAL REPORT"})
_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10,
}  # fmt: skip
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4,
}  # fmt: skip
_SUFFIXES = (
    "incorporated", "corporation", "company", "holdings", "group", "corp", "inc", "co",
    "plc", "ltd", "the",
)  # fmt: skip

_YEAR = (
    r"(?:\b(?:fy|fiscal(?:\s+year)?)\s*'?(?:\d{4}|\d{2})\b"
    r"|(?<![\d$.,])(?:19|20)\d{2}(?![\d%]|[.,]\d))"
)
_YEAR_RE = re.compile(_YEAR, re.IGNORECASE)
_RANGE_RE = re.compile(
    rf"(?P<a>{_YEAR})\s*(?:-|–|—|to|through|thru|until)\s*(?P<b>{_YEAR}|\d{{2}}(?!\d))",
    re.IGNORECASE,
)
# "since 2019": every full FY from 2019 on. "versus the prior year": each year named and
# the one before it. Relative periods are read here, not left to the LLM, for the same
# reason explicit years are: a regular expression cannot resolve them against the wrong
# "today".
_SINCE_RE = re.compile(rf"\bsince\s+(?P<y>{_YEAR})", re.IGNORECASE)
_PRIOR_RE = re.compile(
    r"\b(?:prior|previous|preceding)\s+(?:fiscal\s+)?year\b|\byear\s+(?:before|earlier)\b",
    re.IGNORECASE,
)
_BETWEEN_RE = re.compile(rf"between\s+(?P<a>{_YEAR})\s+and\s+(?P<b>{_YEAR})", re.IGNORECASE)
_QUARTER_RE = re.compile(
    r"\b(?:f?q([1-4])|([1-4])q(?=\s*'?\d{2}\b|\b)|(first|second|third|fourth|1st|2nd|3rd|4th)"
    r"\s+(?:fiscal\s+)?quarter)",
    re.IGNORECASE,
)
_LAST_N_RE = re.compile(
    r"\b(?:last|past|previous|prior|recent|latest)\s+(\d{1,2}|one|two|three|four|five|six|"
    r"seven|eight|nine|ten)\s+(?:fiscal\s+|full\s+)?years?\b",
    re.IGNORECASE,
)
_DEEP_RE = re.compile(
    r"\b(?:quarterly|quarter[- ]by[- ]quarter|each\s+quarter|every\s+quarter|by\s+quarter|"
    r"per\s+quarter|all\s+(?:four\s+)?quarters|deep[- ]dive|in\s+depth)\b",
    re.IGNORECASE,
)
_TICKER_TOKEN_RE = re.compile(r"(?<![\w$])\$?([A-Z]{1,5})(?![\w&])")
# "Q5", "FQ0", "Q12": a quarter that does not exist (a typo the user should hear about).
_BAD_QUARTER_RE = re.compile(r"\bf?q(0|[5-9]|\d{2,})\b", re.IGNORECASE)
MIN_FY, MAX_FY = 1990, 2100
# Every prompt carries the question (probes x rounds), so its length bounds a run's cost;
# FinanceBench's longest question is 396 characters.
MAX_QUESTION_CHARS = 2000
# Control characters (NUL, terminal escapes), format characters (bidi overrides, zero-width
# spaces), lone surrogates (undecodable argv bytes) and private-use code points.
_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co"})
_ANSI_RE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")


def clean_question(text: str) -> str:
    """The question as agents, logs and files should see it: terminal escape sequences and
    invisible or control characters removed, whitespace runs collapsed to one space.

    Nothing unprintable then reaches a prompt, a run record or a terminal, and a lone
    surrogate from undecodable input cannot fail a write half-way through a run.
    """
    text = _ANSI_RE.sub("", text)
    kept = (
        " " if ch.isspace() else ch
        for ch in text
        if ch.isspace() or unicodedata.category(ch) not in _INVISIBLE
    )
    return " ".join("".join(kept).split())


def question_too_long(question: str) -> str | None:
    """The message for a question over :data:`MAX_QUESTION_CHARS`, or None if it fits."""
    if len(question) <= MAX_QUESTION_CHARS:
        return None
    return (
        f"The question is {len(question):,} characters long; the limit is "
        f"{MAX_QUESTION_CHARS:,}. Ask one focused question."
    )


def _year_value(text: str) -> int:
    digits = re.search(r"\d+", text).group()
    return int("20" + digits) if len(digits) == 2 else int(digits)


def normalise_name(name: str) -> str:
    """``"The Coca-Cola Company"`` -> ``"coca cola"``; ``"3M's"`` -> ``"3m"``."""
    text = name.lower().replace("&", " and ").replace("’", "'")
    text = re.sub(r"'s\b", "", text)
    text = re.sub(r"[^a-z0-9]+", " ", text)
    words = text.split()
    while words and words[-1] in _SUFFIXES:
        words.pop()
    while words and words[0] == "the":
        words.pop(0)
    return " ".join(words)


@dataclass
class PrePass:
    """What the regular expressions found in the question."""

    tickers: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    fiscal_years: list[int] = field(default_factory=list)
    fiscal_quarters: list[int] = field(default_factory=list)
    last_n_years: int | None = None
    since_fy: int | None = None
    deep: bool = False
    invalid: list[str] = field(default_factory=list)  # periods that cannot exist, as messages

    @property
    def found_period(self) -> bool:
        return bool(self.fiscal_years or self.last_n_years or self.since_fy)


def name_index(companies: Iterable[Company], cells: Sequence[GridCell]) -> dict[str, str]:
    """Normalised company name (and simple spellings of it) -> ticker."""
    index: dict[str, str] = {}
    pairs = [(c.name, c.ticker) for c in companies] + [(c.company, c.ticker) for c in cells]
    for name, ticker in pairs:
        norm = normalise_name(name)
        if not norm:
            continue
        for variant in {norm, norm.replace(" ", ""), norm.replace(" and ", " ")}:
            index.setdefault(variant, ticker.upper())
    return index


def resolve_name(name: str, index: dict[str, str]) -> str | None:
    """The ticker of a company name the map knows, or None (the LLM then gets a go)."""
    norm = normalise_name(name)
    return index.get(norm) or index.get(norm.replace(" ", ""))


def prepass(question: str, companies: Sequence[Company], cells: Sequence[GridCell]) -> PrePass:
    """Find tickers, known company names and period expressions in ``question``."""
    found = PrePass()
    grid = {c.ticker for c in cells}
    known = {c.ticker: c.name for c in companies} | {c.ticker: c.company for c in cells}
    hits: list[tuple[int, str]] = []
    for m in _TICKER_TOKEN_RE.finditer(question):
        if m.group(1) in known:
            hits.append((m.start(), m.group(1)))
    text = " " + re.sub(r"[^a-z0-9&']+", " ", question.lower().replace("’", "'")) + " "
    text = re.sub(r"'s\b", "", text).replace("'", " ")
    for name, ticker in name_index(companies, cells).items():
        if len(name) < 2:
            continue
        pos = text.find(f" {name} ")
        if pos >= 0:
            hits.append((pos, ticker))
    for _, ticker in sorted(hits):
        if ticker in grid:
            if ticker not in found.tickers:
                found.tickers.append(ticker)
        else:
            message = f"{known.get(ticker, ticker)} ({ticker}) is not in the grid"
            if message not in found.unknown:
                found.unknown.append(message)

    years: set[int] = set()
    spans: list[tuple[int, int]] = []
    for regex in (_BETWEEN_RE, _RANGE_RE):
        for m in regex.finditer(question):
            if any(s <= m.start() < e for s, e in spans):
                continue
            a, b = _year_value(m.group("a")), _year_value(m.group("b"))
            if len(re.sub(r"\D", "", m.group("b"))) == 2 and b < a:
                b = _year_value(str(a)[:2] + m.group("b")[-2:])
            lo, hi = min(a, b), max(a, b)
            if hi - lo <= 30:
                years.update(range(lo, hi + 1))
                spans.append((m.start(), m.end()))
    for m in _YEAR_RE.finditer(question):
        if not any(s <= m.start() < e for s, e in spans):
            years.add(_year_value(m.group()))
    # "Q3 23" / "3Q23": a two-digit year glued to a quarter.
    for m in re.finditer(r"\b(?:q[1-4]|[1-4]q)\s*'?(\d{2})\b", question, re.IGNORECASE):
        years.add(2000 + int(m.group(1)))
    if years and _PRIOR_RE.search(question):
        years |= {y - 1 for y in years}
    found.fiscal_years = sorted(y for y in years if MIN_FY <= y <= MAX_FY)
    if m := _SINCE_RE.search(question):
        found.since_fy = _year_value(m.group("y"))
    for m in _YEAR_RE.finditer(question):
        year = _year_value(m.group())
        if m.group()[0].isalpha() and not MIN_FY <= year <= MAX_FY:  # "FY1850", not "in 1950"
            found.invalid.append(
                f"FY{year} is outside the fiscal years this tool reads ({MIN_FY}-{MAX_FY})."
            )
    for m in _BAD_QUARTER_RE.finditer(question):
        found.invalid.append(f"{m.group()} is not a fiscal quarter (quarters are Q1-Q4).")

    quarters = set()
    for m in _QUARTER_RE.finditer(question):
        q = m.group(1) or m.group(2)
        quarters.add(int(q) if q else _ORDINALS[m.group(3).lower()])
    found.fiscal_quarters = sorted(quarters)
    if m := _LAST_N_RE.search(question):
        raw = m.group(1).lower()
        found.last_n_years = int(raw) if raw.isdigit() else _NUMBER_WORDS[raw]
    found.deep = bool(_DEEP_RE.search(question))
    return found


def merge_facets(pre: PrePass, llm: Facets | None, question: str | None = None) -> Facets:
    """Pre-pass facets, complemented by the LLM's where the pre-pass found nothing.

    Companies are a union (the LLM catches brands and spellings the map lacks). Periods
    come from the pre-pass when it found any, because a regular expression reading "FY2022"
    or "last three years" is exact, while an LLM may resolve "last three years" against its
    own idea of today; the LLM's periods are used only when the pre-pass found none.
    Given the ``question``, the LLM's facets are first checked against it (:func:`grounded`).
    """
    llm = grounded(llm or Facets(), question) if question is not None else (llm or Facets())
    tickers = list(pre.tickers)
    for t in llm.tickers:
        t = t.strip().upper().lstrip("$")
        if t and t not in tickers:
            tickers.append(t)
    since = pre.since_fy
    if pre.found_period:
        years, last_n = list(pre.fiscal_years), pre.last_n_years
    else:
        years = sorted({y for y in llm.fiscal_years if 1990 <= y <= 2100})
        last_n = llm.last_n_years if llm.last_n_years and llm.last_n_years > 0 else None
    quarters = pre.fiscal_quarters or sorted({q for q in llm.fiscal_quarters if 1 <= q <= 4})
    granularity = "deep" if pre.deep or llm.granularity == "deep" else llm.granularity
    return Facets(
        tickers=tickers,
        equities=list(llm.equities),
        fiscal_years=years,
        fiscal_quarters=quarters,
        last_n_years=last_n,
        since_fy=since,
        granularity=granularity,
    )


_QUARTERLY = re.compile(r"quarter|\bf?q[1-4]\b|\b[1-4]q(?:'?\d{2})?\b|\bdeep\b", re.IGNORECASE)


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def grounded(llm: Facets, question: str) -> Facets:
    """The LLM's facets that the question supports: a ticker written in it, a name it contains
    (or one of whose words of 3+ letters it contains), quarters and "deep" only if it speaks
    of quarters.

    A small or careless model invents companies and granularity; reporting "X is not in the
    grid" for a name the user never wrote, or researching Q1-Q3 nobody asked for, is worse
    than missing a paraphrase.
    """
    words = {w.lower() for w in re.findall(r"[A-Za-z0-9&.$]+", question)}
    squashed = _squash(question)
    tickers = [t for t in llm.tickers if t.strip().lstrip("$").lower() in words]
    equities = [
        e
        for e in llm.equities
        if len(e) <= 60
        and (
            (_squash(e) and _squash(e) in squashed)
            or any(_squash(w) in squashed for w in re.findall(r"[A-Za-z0-9&]{3,}", e))
        )
    ]
    granularity = llm.granularity
    quarters = list(llm.fiscal_quarters)
    if not _QUARTERLY.search(question):  # quarters nobody asked for ("FY2020 to FY2022" -> Q3)
        granularity = None if granularity == "deep" else granularity
        quarters = []
    return llm.model_copy(
        update={
            "tickers": tickers,
            "equities": equities,
            "granularity": granularity,
            "fiscal_quarters": quarters,
        }
    )


def latest_full_fy(ticker: str, cells: Sequence[GridCell]) -> int | None:
    """The latest FY with an annual filing (10-K) for ``ticker``; else its latest FY at all."""
    own = [c for c in cells if c.ticker == ticker]
    annual = [c.fy for c in own if c.fq == 4 and ANNUAL_DOC_TYPES & set(c.doc_types)]
    if annual:
        return max(annual)
    return max((c.fy for c in own), default=None)


def full_fys(ticker: str, cells: Sequence[GridCell]) -> list[int]:
    """FYs with an annual filing for ``ticker``, newest first."""
    own = {c.fy for c in cells if c.ticker == ticker and c.fq == 4}
    own |= {c.fy for c in cells if c.ticker == ticker and ANNUAL_DOC_TYPES & set(c.doc_types)}
    return sorted(own, reverse=True)


@dataclass
class SlicePlan:
    """The rules' output: slices to research, cells asked for but not held, and notes."""

    slices: list[SliceRef]
    missing: list[str]
    notes: list[str]


def plan_slices(facets: Facets, cells: Sequence[GridCell]) -> SlicePlan:
    """Apply the planner rules to validated facets (``facets.tickers`` all in the grid)."""
    held = {(c.ticker, c.fy, c.fq) for c in cells}
    slices: list[SliceRef] = []
    missing: list[str] = []
    notes: list[str] = []
    deep = facets.granularity == "deep"
    for ticker in dict.fromkeys(facets.tickers):
        if facets.since_fy is not None:
            held_since = [y for y in full_fys(ticker, cells) if y >= facets.since_fy]
            years = sorted(held_since) or [facets.since_fy]
        elif facets.fiscal_years:
            years = sorted(set(facets.fiscal_years))
        elif facets.last_n_years:
            years = sorted(full_fys(ticker, cells)[: facets.last_n_years])
            if len(years) < facets.last_n_years:
                notes.append(
                    f"{ticker}: the grid holds {len(years)} full fiscal year(s), "
                    f"not the {facets.last_n_years} asked for"
                )
        elif facets.fiscal_quarters and not deep:
            # A quarter with no year: the latest FY that holds one of those quarters.
            with_q = [c.fy for c in cells if c.ticker == ticker and c.fq in facets.fiscal_quarters]
            latest = max(with_q, default=latest_full_fy(ticker, cells))
            years = [latest] if latest is not None else []
            if latest is not None:
                notes.append(f"{ticker}: no fiscal year given, using FY{latest}")
        else:
            latest = latest_full_fy(ticker, cells)
            years = [latest] if latest is not None else []
            if latest is not None:
                notes.append(f"{ticker}: no fiscal year given, using the latest full FY{latest}")
        if facets.fiscal_quarters:
            quarters = sorted(set(facets.fiscal_quarters))
        elif deep:
            quarters = [1, 2, 3, 4]
        else:
            quarters = [4]
        for fy in years:
            for fq in quarters:
                ref = SliceRef(ticker=ticker, fy=fy, fq=fq)
                if (ticker, fy, fq) in held:
                    if ref not in slices:
                        slices.append(ref)
                elif ref.label not in missing:
                    missing.append(ref.label)
    return SlicePlan(slices=slices, missing=missing, notes=notes)


def coverage_text(cells: Sequence[GridCell]) -> str:
    """``KO (Coca-Cola): FY2019, FY2020; MMM (3M): …`` for messages to the user."""
    from retrieval.coverage import describe_coverage

    names = {c.ticker: c.company for c in cells}
    return "; ".join(
        f"{t} ({names[t]}): {', '.join(labels)}"
        for t, labels in sorted(describe_coverage(list(cells)).items())
    )
