"""Reading formulas written in words: "FY2019 revenue / (average PP&E between FY2018 and
FY2019)" becomes ``revenue[FY2019] / (avg(ppe_net[FY2018], ppe_net[FY2019]))``.

A tokenizer turns lower-cased text into terms (concepts and metrics, by
:mod:`calculator.phrases`), years, numbers, operators (``/ * + -``, "divided by", "less",
"plus", ...), parentheses and the two period constructions FinanceBench-style definitions
use: "average X between FYa and FYb" and "change in X between FYa and FYb". Anything it
cannot read makes the whole translation fail (``None``): a definition half understood is
not used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from calculator.phrases import OUTFLOWS, longest_phrase

_YEAR = re.compile(r"(?:fy|fiscal(?: year)?)\s?'?(\d{4}|\d{2})(?!\d)|(?<!\d)((?:19|20)\d\d)(?!\d)")
_NUMBER = re.compile(r"\d+(?:\.\d+)?(?!\d)")
_OPERATORS = (
    (re.compile(r"divided by|over(?= )|/|÷"), "/"),
    (re.compile(r"as (?:a )?(?:%|percent(?:age)?|share|proportion|fraction) of"), "/"),
    (re.compile(r"multiplied by|times(?= )|\*|×"), "*"),
    (re.compile(r"plus|added to|\+"), "+"),
    (re.compile(r"minus|less(?= )|subtract(?:ing)?|-|−|–"), "-"),
)
_KEYWORDS = (
    (re.compile(r"(?:the )?average(?: of)?|avg\.?|mean"), "avg"),
    (re.compile(r"(?:the )?(?:change|increase) in"), "change"),
    (re.compile(r"between|from"), "between"),
    (re.compile(r"and|to"), "and"),
)
FILLER = frozenset(
    "the a an of its their total unadjusted reported amount value figure company's "
    "fiscal year end year-end for all is as at on balance".split()
)


@dataclass(frozen=True)
class Token:
    kind: str  # term | year | num | op | ( | ) | avg | change | between | and | word
    text: str
    start: int


def tokenize(text: str, extra: tuple = ()) -> list[Token]:
    """Tokens of lower-cased ``text``; unknown words become ``word`` tokens."""
    tokens: list[Token] = []
    pos = 0
    while pos < len(text):
        char = text[pos]
        if char.isspace() or char in ",:;":
            pos += 1
            continue
        if char in "()[]":
            tokens.append(Token("(" if char in "([" else ")", char, pos))
            pos += 1
            continue
        at_word = pos == 0 or not (text[pos - 1].isalnum() or text[pos - 1] == "&")
        if at_word and (year := _YEAR.match(text, pos)):
            digits = year.group(1) or year.group(2)
            tokens.append(
                Token("year", str(int("20" + digits) if len(digits) == 2 else int(digits)), pos)
            )
            pos = year.end()
            continue
        if at_word and (phrase := longest_phrase(text, pos, extra)):
            tokens.append(Token("term", phrase[1], pos))
            pos = phrase[0]
            continue
        if number := _NUMBER.match(text, pos):
            tokens.append(Token("num", number.group(), pos))
            pos = number.end()
            continue
        matched = False
        for pattern, kind in (*_OPERATORS, *_KEYWORDS):
            found = pattern.match(text, pos)
            if found and (kind in "/*+-" or at_word) and _ends_word(text, found.end(), kind):
                tokens.append(Token("op" if kind in "/*+-" else kind, kind, pos))
                pos = found.end()
                matched = True
                break
        if matched:
            continue
        word = re.match(r"[\w'&.%$]+|.", text[pos:])
        assert word is not None
        if word.group().strip(".") not in FILLER:
            tokens.append(Token("word", word.group(), pos))
        pos += len(word.group())
    return tokens


def _ends_word(text: str, end: int, kind: str) -> bool:
    return kind in "/*+-" or end >= len(text) or not text[end].isalnum()


def reference(name: str, year: str | None) -> str:
    """``capex`` read from words: ``abs(capex)``, with ``[FY2018]`` when a year is attached."""
    ref = f"{name}[FY{year}]" if year else name
    return f"abs({ref})" if name in OUTFLOWS else ref


def formula_from_words(text: str, extra: tuple = ()) -> str | None:
    """The formula a definition in words states, or ``None`` if any part is unreadable."""
    tokens = tokenize(text.lower(), extra)
    if not tokens or any(t.kind == "word" for t in tokens):
        return None
    reader = _Reader(tokens)
    try:
        formula = reader.expression()
    except _Unreadable:
        return None
    return formula if reader.done() else None


class _Unreadable(Exception):
    pass


class _Reader:
    """Recursive descent over tokens; emits formula text and leaves precedence to ``ast``."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.i = 0

    def done(self) -> bool:
        return self.i == len(self.tokens)

    def peek(self, kind: str) -> bool:
        return self.i < len(self.tokens) and self.tokens[self.i].kind == kind

    def take(self, kind: str) -> Token:
        if not self.peek(kind):
            raise _Unreadable
        self.i += 1
        return self.tokens[self.i - 1]

    def expression(self) -> str:
        parts = [self.operand()]
        while self.peek("op"):
            parts.append(self.take("op").text)
            parts.append(self.operand())
        return " ".join(parts)

    def operand(self) -> str:
        if self.peek("("):
            self.take("(")
            inner = self.expression()
            self.take(")")
            return f"({inner})"
        if self.peek("num"):
            return self.take("num").text
        if self.peek("avg") or self.peek("change"):
            kind = self.take(self.tokens[self.i].kind).kind
            wrapped = self.peek("(")
            if wrapped:
                self.take("(")
            name = self.take("term").text
            self.take("between")
            first = self.take("year").text
            self.take("and")
            last = self.take("year").text
            if wrapped:
                self.take(")")
            a, b = reference(name, first), reference(name, last)
            return f"avg({a}, {b})" if kind == "avg" else f"({b} - {a})"
        year = self.take("year").text if self.peek("year") else None
        name = self.take("term").text
        if year is None and self.peek("year"):
            year = self.take("year").text
        return reference(name, year)


#: "What percentage of Oracle's FY2021 revenue was spent on R&D?", "What share of revenue
#: did Apple spend on R&D?", "What proportion of sales went to capital expenditures?": an
#: item's share of a base, asked with the base first. Read as "what was ITEM as a percentage
#: of BASE", the form the tokens already compute.
_SHARE_SPENT = re.compile(
    r"\bwhat (?:percentage|percent|share|proportion|portion|fraction) of (?P<base>[^?.]+?)"
    r"\s+(?:(?:was|were|is|are|has been|had been) (?:spent|used|devoted|allocated|invested)"
    r"|(?:did|does|do) (?P<subject>[^?.]+?) (?:spend|use|devote|allocate|invest)"
    r"|went|goes|go) (?:on|to|for|in|into|towards?) (?P<item>[^?.]+)"
)


def share_spent_as_percentage(text: str) -> str:
    """``text`` with a share asked base-first reworded item-first (:data:`_SHARE_SPENT`)."""

    def reword(found: re.Match) -> str:
        subject = f"{found['subject']}'s " if found["subject"] else ""
        return f"what was {subject}{found['item']} as a percentage of {found['base']}"

    return _SHARE_SPENT.sub(reword, text)


#: "Was Intel's R&D spending above 15% of its revenue?": the item's share of a base, set
#: against a level. Read as "R&D spending as a percentage of its revenue"; the level is the
#: verdict's (:mod:`programs.threshold_verdicts` reads it from the question as written).
_SHARE_AGAINST_LEVEL = re.compile(
    r"\s(?:above|below|over|under|(?:more|less|greater|lower|higher) than|at (?:least|most)"
    r"|in excess of|exceed(?:s|ed|ing)?)\s+\d+(?:\.\d+)?\s*(?:%|percent)\s+of\b"
)


def share_against_level(text: str) -> str:
    """``text`` with a share set against a level read as that share (:data:`_SHARE_AGAINST_LEVEL`)
    alone."""
    return _SHARE_AGAINST_LEVEL.sub(" as a percentage of", text)


#: "How much did revenue grow …, in percent?", "By what percent did revenue grow …?": the
#: growth asked by its verb and a percent, which names the figure as "growth" does.
GROWN_BY = re.compile(
    r"^(?:how much|by (?:what|how much))\b[^?]*?\b(?:grow|grew|increas|decreas|ris[ei]|rose"
    r"|declin|fell|fall|drop|chang)"
)


#: Words that ask a change relative to its start: "growth", "% change", "in percent". Not
#: "percentage" alone, which names a margin ("gross margin percentage") whose change is in
#: points, nor "percentage points".
RELATIVE_CHANGE = re.compile(
    r"growth|%|percent(?!age\b)|percentage (?:change|increase|decrease|growth)"
    r"|year[- ]over[- ]year|\byoy\b"
)


#: Growth asked to speed up or slow down: "Is revenue growth accelerating?", "Did sales growth
#: slow down in FY2023?". Its answer is the change in the growth rate, in points.
SPEEDS_UP = re.compile(r"\baccelerat\w*|\b(?:speed|sped|pick)\w*\s+up\b", re.IGNORECASE)
SLOWS_DOWN = re.compile(
    r"\bdecelerat\w*|\bslow(?:s|ed|ing)?\s+down\b|\bslow(?:s|ed|ing)\b", re.IGNORECASE
)
ACCELERATION = re.compile(f"{SPEEDS_UP.pattern}|{SLOWS_DOWN.pattern}", re.IGNORECASE)
