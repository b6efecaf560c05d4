"""Choosing the formula for a question by reading it, deterministically.

Steps, each a general rule rather than a per-question case:

1. The question's own definitions ("X is defined as: ...", "Define X as ...") are read
   into formulas (:mod:`calculator.wording`); they win over the named metrics. A
   definition that cannot be read makes a question about that metric a refusal.
2. The asked clause (from "what is" / "how much" to the end of that sentence; statement
   names such as "cash flow statement" removed) is read for terms: a single concept or
   metric, or terms joined by operators ("EBITDA less capex").
3. Period modifiers apply to it: "growth" / "year-over-year change" / "% change" (relative
   change between the first and last year named, or FY-1 to FY), "CAGR" (compound rate
   over the span), "n year average" (the mean over the years named).
4. Presentation comes from the wording: percent ("as a %", "in units of percents"),
   decimals ("round to two decimal places"), scale ("in USD millions", "USD billions").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from calculator.concepts import CONCEPTS, concept_info
from calculator.definitions import METRICS_BY_NAME
from calculator.phrases import AGAINST, OUTFLOWS, QUALIFIED, QUALIFIED_BEFORE, longest_phrase
from calculator.wording import (
    ACCELERATION,
    GROWN_BY,
    RELATIVE_CHANGE,
    formula_from_words,
    share_against_level,
    share_spent_as_percentage,
    tokenize,
)
from domain.periods import Period

_STATEMENT_NAMES = re.compile(
    r"(?:consolidated )?(?:statements? of (?:cash flows?|income|operations|earnings|"
    r"financial position|comprehensive income)|(?:cash flows?|income|p&l) statements?|"
    r"balance sheets?)"
)
_QUESTION_START = re.compile(
    r"\b(?:what (?:is|was|were|are)|what's|how much|how many|by (?:what|how much))\b"
)
_INSTRUCTION_START = re.compile(r"\b(?:calculate|compute|find)\b")
#: A formula that is one line item, its size taken or not: ``capex``, ``abs(capex)``.
_SINGLE_ITEM = re.compile(r"(?:abs\()?([a-z_]+)\)?")


def single_item(formula: str) -> str | None:
    """The one line item or metric ``formula`` reads, ``abs(...)`` unwrapped ("abs(capex)"
    is capex), or None for a formula of several."""
    item = _SINGLE_ITEM.fullmatch(formula)
    return item.group(1) if item else None


_DEFINITION = re.compile(
    r"^(?P<name>[^.?:]+?)\s+(?:is|are)\s+(?:defined|calculated|computed)\s+as\b:?\s*"
    r"(?P<body>.+?)[.?]?$"
    r"|^(?:we |please )?define (?P<name2>[^.?:]+?) as\b:?\s*(?P<body2>.+?)[.?]?$"
)
_STATEMENT_HINT = re.compile(
    r"[\[(]\s*(?:(?:from|per|on|in) )?(?:the )?" + _STATEMENT_NAMES.pattern + r"\s*[\])]"
    r"|\b(?:from|per|on|in) (?:the )?" + _STATEMENT_NAMES.pattern
)
_WORD_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "ten": 10}
_SPAN = r"(\d+|one|two|three|four|five|ten)[- ]year"


@dataclass(frozen=True)
class Presentation:
    """How a figure is to be stated: display kind, decimals, scale for amounts."""

    display: str  # percent | points (a percentage's change) | ratio | amount | days | per_share
    decimals: int | None = None
    scale: float = 1e6
    scale_word: str = "million"


@dataclass(frozen=True)
class FormulaChoice:
    formula: str
    period: Period
    title: str
    presentation: Presentation
    definitions: dict[str, str] = field(default_factory=dict)
    how: str = ""  # "definition in the question", "named metric", "concept", ...


@dataclass(frozen=True)
class Refusal:
    reason: str


def normalise(question: str) -> str:
    text = question.lower().replace("’", "'").replace("–", "-").replace("—", "-")
    return re.sub(r"\s+", " ", text).strip()


def choose_formula(question: str, period: Period | None = None) -> FormulaChoice | Refusal:
    """The formula a question asks for, or a refusal saying what could not be read.

    ``period`` is the slice's period, used when the question names no year.
    """
    text = share_against_level(share_spent_as_percentage(normalise(question)))
    sentences = re.split(r"(?<=[.?!])\s+(?=[a-z(])", text)
    definitions, unreadable, phrases, rest = _definitions(sentences)
    asked = _asked_clause(" ".join(rest))
    if asked is None:
        return Refusal("no question ('what is ...', 'how much ...') found")
    years = [
        int(y)
        for y in re.findall(r"(?:fy|fiscal(?: year)?\s?)'?(\d{4})|\b((?:19|20)\d\d)\b", asked)
        for y in y
        if y
    ]
    years = sorted(set(years))
    base = Period(years[-1]) if years else period
    if years and period is not None and period.fq and period.fy == base.fy:
        # A quarter's slice keeps its quarter where the question names its year ("revenue
        # growth in Q2 2023", "in the first half of 2023": the year to date at Q2): the
        # year alone reads annual figures a 10-Q does not print.
        base = period
    if base is None:
        return Refusal("the question names no fiscal year")
    core = _core_formula(asked, phrases)
    if core is None:
        return Refusal(f"no metric or line item recognised in {asked!r}")
    if qualified := _qualified_item(asked, core[0], phrases):
        return Refusal(f"{qualified!r} is not a metric the calculator defines")
    formula, title = _refined_by_instruction(core, " ".join(rest), asked, phrases)
    for name in unreadable:
        if re.search(rf"\b{re.escape(name)}\b", asked):
            return Refusal(f"could not read the question's definition of {name!r}")
    defined = dict(definitions)
    if not re.fullmatch(r"[a-z_]+|abs\([a-z_]+\)", formula):
        defined["asked"] = formula  # a composite, so that a period can follow it
        formula = "asked"
    formula, how = _apply_modifiers(asked, formula, years, base)
    title = {
        "relative change": f"{title} growth",
        "change": f"Change in {title[:1].lower() + title[1:]}",
        "change in growth": f"Change in {title[:1].lower() + title[1:]} growth",
        "compound annual growth": f"{title} CAGR",
        "average over years": f"Average {title[:1].lower() + title[1:]}",
    }.get(how, title)
    if formula == "asked":
        formula = defined.pop("asked")
    presentation = _presentation(text, formula, defined, how)
    if presentation.display == "percent" and single_item(formula) in CONCEPTS:
        return Refusal(f"a percentage is asked, but only one line item was read ({formula})")
    if how == "as asked":
        how = "definition in the question" if formula in defined else "named metric or line item"
    return FormulaChoice(formula, base, title, presentation, defined, how)


def _qualified_item(asked: str, formula: str, phrases: tuple) -> str | None:
    """The words of ``asked`` that qualify its one item into another quantity ("revenue per
    employee", "book value per share", "unearned revenue") or set it against another item ("capex to
    depreciation"), or None: then the item is not the answer. Read where the tokenizer
    read the item."""
    item = single_item(formula)
    if item is None:
        return None
    for token in tokenize(asked, phrases):
        if token.kind != "term" or token.text != item:
            continue
        end, _ = longest_phrase(asked, token.start, phrases)
        if after := QUALIFIED.match(asked, end):
            return asked[token.start : after.end()]
        if before := QUALIFIED_BEFORE.search(asked, 0, token.start):
            return asked[before.start() : end]
        against = AGAINST.match(asked, end)
        if against and (other := _other_item(asked, against.end())):
            return asked[token.start : other]
    return None


#: Balance-sheet words a ratio is taken against that are no phrase of their own ("equity"
#: alone is also "equity method investments", "equity securities").
_BALANCE_WORDS = re.compile(r"(?:total\s+)?(?:equity|capital|assets|liabilities)\b")


def _other_item(asked: str, pos: int) -> int | None:
    """Where the item that ``asked`` names at ``pos`` ends, if one does."""
    if found := longest_phrase(asked, pos):
        return found[0]
    words = _BALANCE_WORDS.match(asked, pos)
    return words.end() if words else None


def _refined_by_instruction(
    core: tuple[str, str], text: str, asked: str, phrases: tuple
) -> tuple[str, str]:
    """A named metric that a later instruction asks for, when the question's own clause
    read only one of that metric's line items: "How many times has X sold its inventory?
    Calculate inventory turnover ratio" asks for the turnover, not the inventory."""
    formula, _ = core
    item = single_item(formula)
    if item not in CONCEPTS:
        return core
    for found in _INSTRUCTION_START.finditer(text):
        clause = text[found.start() :]
        end = re.search(r"\?|[.;](?:\s|$)", clause)
        clause = clause[: end.start()] if end else clause
        if clause in asked:
            continue
        refined = _core_formula(clause, phrases)
        metric = METRICS_BY_NAME.get(refined[0]) if refined else None
        if refined and metric and re.search(rf"\b{item}\b", metric.formula):
            return refined
    return core


def defined_name(name: str, phrases: tuple = ()) -> str:
    """The name a question's definition goes by: a named metric's own name when the phrase
    means one ("fixed asset turnover ratio" -> ``fixed_asset_turnover``), so the question's
    formula replaces the built-in one; otherwise a slug of the phrase."""
    tokens = tokenize(name, phrases)
    if len(tokens) == 1 and tokens[0].kind == "term" and tokens[0].text in METRICS_BY_NAME:
        return tokens[0].text
    return phrase_slug(name)


def phrase_slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "defined"


def _definitions(sentences: list[str]) -> tuple[dict[str, str], list[str], tuple, list[str]]:
    """(name -> formula, names whose definition is unreadable, phrase patterns, other text)."""
    definitions: dict[str, str] = {}
    unreadable: list[str] = []
    rest: list[str] = []
    phrases: list[tuple[re.Pattern[str], str]] = []
    for sentence in sentences:
        clauses = re.split(r"\?\s*", sentence)
        kept = []
        for clause in clauses:
            match = _DEFINITION.match(clause.strip())
            if not match or not (match["name"] or match["name2"]):
                kept.append(clause)
                continue
            name = _definition_name(match["name"] or match["name2"])
            body = _STATEMENT_HINT.sub(" ", match["body"] or match["body2"])
            formula = formula_from_words(body, tuple(phrases))
            if formula is None:
                unreadable.append(name)
                continue
            slug = defined_name(name, tuple(phrases))
            definitions[slug] = formula
            if slug == phrase_slug(name):
                pattern = re.compile(rf"(?<![\w&/]){re.escape(name)}(?![\w&/])")
                phrases.insert(0, (pattern, slug))
        rest.append("? ".join(kept))
    return definitions, unreadable, tuple(phrases), rest


def _definition_name(raw: str) -> str:
    name = re.sub(r"^(?:the|a|an)\s+", "", raw.strip())
    return re.sub(r"\s+\(.*?\)$", "", name)


def _asked_clause(text: str) -> str | None:
    text = _STATEMENT_NAMES.sub(" ", text)
    if "here's the question:" in text:
        text = text.split("here's the question:", 1)[1]
    found = _QUESTION_START.search(text) or _INSTRUCTION_START.search(text)
    if not found:
        return None
    clause = text[found.start() :]
    end = re.search(r"\?|\.(?:\s|$)", clause)
    return clause[: end.start()] if end else clause


#: "How much cash did Apple spend on capital expenditures?": cash is the unit of what was
#: spent, paid or returned, not the cash balance (which had been the answer).
_CASH_AS_UNIT = re.compile(
    r"\bcash\b(?=\s+(?:did|does|do|has|have|had|will|was|is)\s+(?:\S+\s+){0,4}?"
    r"(?:spen[dt]|pa(?:y|id)|return\w*|distribut\w*|allocat\w*)\b)"
)


def _core_formula(asked: str, phrases: tuple) -> tuple[str, str] | None:
    """The formula of the asked terms at the base period, and its title."""
    plain = re.sub(r"\s+", " ", re.sub(r"\([^)]*\)", " ", asked))  # "provided by investing"
    plain = _CASH_AS_UNIT.sub(" ", plain)
    for candidate in (plain, *re.findall(r"\(([^)]*)\)", asked)):
        tokens = [t for t in tokenize(candidate, phrases) if t.kind in ("term", "op")]
        runs: list[list[str]] = []
        current: list[str] = []
        for token in tokens:
            if token.kind == "term":
                if current and current[-1] not in "+-*/":
                    runs.append(current)
                    current = []
                current.append(token.text)
            elif current and current[-1] not in "+-*/":
                current.append(token.text)
        if current:
            runs.append(current)
        runs = [r[:-1] if r[-1] in "+-*/" else r for r in runs]
        if runs:
            best = max(runs, key=len)  # first of the longest: "operating income + D&A"
            formula = " ".join(f"abs({p})" if p in OUTFLOWS and len(best) > 1 else p for p in best)
            if len(best) == 1 and best[0] in OUTFLOWS:
                formula = f"abs({best[0]})"
            # "net income as a percent of revenue" is the net margin, and says so
            named = next((m.title for m in METRICS_BY_NAME.values() if m.formula == formula), None)
            return formula, named or _title(best)
    return None


def _title(parts: list[str]) -> str:
    """The figure's name: its items joined by their operators; an item over revenue is its
    share ("R&D as % of revenue", as "Capex as % of revenue" is named)."""
    if len(parts) == 3 and parts[1:] == ["/", "revenue"] and parts[0] in CONCEPTS:
        return f"{_title(parts[:1])} as % of revenue"
    names = []
    for part in parts:
        if part in "+-*/":
            names.append({"+": "+", "-": "−", "*": "×", "/": "÷"}[part])
        elif part in METRICS_BY_NAME:
            names.append(METRICS_BY_NAME[part].title)
        else:
            names.append(concept_info(part).title)
    title = " ".join(names)
    return title[:1].upper() + title[1:]


#: A period after "change in" / "increase in": "How did net debt change in FY2022?" asks
#: how the item moved, which the planner answers with each period's figure and the change,
#: not for the change alone ("the change in net debt" does).
_PERIOD_AFTER = (
    r"\s+(?:the\s+)?(?:fy\s*'?\d|fiscal\b|q[1-4]\b|(?:19|20)\d\d\b|"
    r"(?:first|second|third|fourth)\b)"
)


#: A yes/no clause on a figure's direction ("did it improve", "has revenue grown"), and the
#: words that name a growth or change figure itself rather than the basis of a comparison.
_DIRECTION_ASKED = re.compile(
    r"\b(?:did|has|have|is|was|were)\b[^?.;]*?\b(?:improv|increas|decreas|grow|grew|ris[ei]|rose"
    r"|declin|fell|fall|drop)",
)
_GROWTH_NAMED = re.compile(r"growth|(?:%|percent(?:age)?) change|(?:change|increase|decrease) in\b")


def _apply_modifiers(asked: str, formula: str, years: list[int], base: Period) -> tuple[str, str]:
    """``formula`` is one name or ``abs(name)``, so a period can be attached to it."""

    def at(year: int) -> str:
        return re.sub(r"([a-z_]+)(\)?)$", rf"\1[{Period(year, base.fq).label}]\2", formula)

    span = re.search(_SPAN, asked)
    n_years = int(_WORD_NUMBERS.get(span.group(1), span.group(1))) if span else None
    first = years[0] if len(years) > 1 else None
    if re.search(r"\bcagr\b|compound(?:ed)? annual growth", asked):
        start = first if first is not None else base.fy - (n_years or 1)
        n = base.fy - start
        if n <= 0:
            return formula, "as asked"
        return f"({at(base.fy)} / {at(start)}) ** (1 / {n}) - 1", "compound annual growth"
    if re.search(r"\baverage\b|\bavg\b", asked) and (n_years or first is not None):
        start = first if first is not None else base.fy - (n_years or 1) + 1
        return f"avg({', '.join(at(y) for y in range(start, base.fy + 1))})", "average over years"
    grown_by = bool(GROWN_BY.search(asked) and re.search(r"percent|%", asked))
    growth = grown_by or re.search(
        r"growth|year[- ]over[- ]year|\byoy\b|(?:%|percent(?:age)?) change|"
        rf"(?:change|increase|decrease) in(?!{_PERIOD_AFTER})",
        asked,
    )
    if growth and ACCELERATION.search(asked):  # this year's growth less last year's
        grew = [f"({at(y)} / {at(y - 1)} - 1)" for y in (base.fy, base.fy - 1)]
        return " - ".join(grew), "change in growth"
    if growth and _DIRECTION_ASKED.search(asked) and not (grown_by or _GROWTH_NAMED.search(asked)):
        # "What was the operating margin in Q2, and did it improve year over year?": the
        # figure, whose year-ago period gives the direction; not a growth of the margin.
        return formula, "as asked"
    if growth:
        start = first if first is not None else base.fy - 1
        if grown_by or RELATIVE_CHANGE.search(asked):
            return f"{at(base.fy)} / {at(start)} - 1", "relative change"
        return f"{at(base.fy)} - {at(start)}", "change"
    return formula, "as asked"


#: Words that ask for a percentage: "as a % of", "in percent", "as a share of revenue".
_PERCENT_WORDS = (
    r"\bpercent|%|percentage|in units of percents|"
    r"\b(?:as\s+an?|the)\s+(?:share|proportion|portion|fraction)\s+of\b"
)


def _measured(formula: str) -> str:
    """The first name ``formula`` reads, inside an average or absolute value: an average of
    operating margins (``avg(operating_margin[FY2021], …)``) is shown as a margin is."""
    found = re.match(r"(?:(?:avg|abs)\()*([a-z_]+)", formula)
    return found.group(1) if found else ""


def _presentation(text: str, formula: str, defined: dict[str, str], how: str) -> Presentation:
    decimals = None
    if found := re.search(r"round(?:ed)?[^.?]*?\b(one|two|three|four|\d) decimal", text):
        decimals = int(_WORD_NUMBERS.get(found.group(1), found.group(1)))
    elif re.search(r"nearest (?:whole|integer)|whole number", text):
        decimals = 0
    metric = METRICS_BY_NAME.get(_measured(formula))
    if how == "change in growth":
        return Presentation("points", decimals)  # 4.8% to 17.7%: +12.9 points
    if how == "change" and metric and metric.display == "percent":
        return Presentation("points", decimals)  # a margin's change: 20.8% to 19.1%, -1.7 points
    if re.search(_PERCENT_WORDS, text) or how in (
        "relative change",
        "compound annual growth",
    ):
        return Presentation("percent", decimals)
    if metric:
        if metric.display == "amount":
            return _amount(text, decimals)
        return Presentation(metric.display, decimals)
    if re.search(r"\bdays?\b", text) and re.search(r"365|days", formula + text):
        return Presentation("days", decimals)
    if re.search(r"usd|\$|dollars|millions|billions|thousands", text):
        return _amount(text, decimals)
    if re.search(r"ratio|turnover|coverage|\broa\b|\broe\b|return on", text):
        return Presentation("ratio", decimals)
    single = single_item(formula)
    if single in CONCEPTS:
        if CONCEPTS[single].unit == "USD/share":
            return Presentation("per_share", decimals)
        return _amount(text, decimals)
    return _amount(text, decimals) if how == "change" else Presentation("ratio", decimals)


def _amount(text: str, decimals: int | None) -> Presentation:
    if re.search(r"billions?\b", text):
        return Presentation("amount", decimals, 1e9, "billion")
    if re.search(r"thousands?\b", text):
        return Presentation("amount", decimals, 1e3, "thousand")
    return Presentation("amount", decimals, 1e6, "million")


def presentation_for(question: str, formula: str) -> Presentation:
    """How to state ``formula``'s value for ``question`` (for a formula chosen elsewhere)."""
    text = normalise(question)
    how = "relative change" if re.search(r"\bcagr\b|growth", text) else "as asked"
    return _presentation(text, formula.strip(), {}, how)
