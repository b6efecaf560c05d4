"""Which companies a text names: tickers written as such, and company names in their spellings.

One finder for the planner (which companies a question is about, in the order it names
them) and for soft search scoping (the one company an unfiltered query is about). Names
come from the company map and the grid's own cells; a name is matched as whole words after
normalising case, punctuation, possessives and legal suffixes (``The Coca-Cola Company``
and ``Coca Cola's`` are both ``coca cola``), a ticker as an upper-case token (``MMM``,
``$PEP``). It also reads the names a question sets beside a known company as its peers
(``Compare Nike and Adidas``) that neither knows, so the plan can say they are not held.
Nothing here is tuned to particular questions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from domain.periods import read_periods
from retrieval.companies import Company
from retrieval.store import GridCell

#: Words of a company name that say what kind of company it is, not which one.
LEGAL_SUFFIXES = (
    "incorporated", "corporation", "company", "holdings", "group", "corp", "inc", "co",
    "plc", "ltd", "the",
)  # fmt: skip
_TICKER_TOKEN_RE = re.compile(r"(?<![\w$])\$?([A-Z]{1,5})(?![\w&])")


def normalise_name(name: str) -> str:
    """``"The Coca-Cola Company"`` -> ``"coca cola"``; ``"3M's"`` -> ``"3m"``."""
    text = name.lower().replace("&", " and ").replace("’", "'")
    text = re.sub(r"'s\b", "", text)
    text = re.sub(r"[^a-z0-9]+", " ", text)
    words = text.split()
    while words and words[-1] in LEGAL_SUFFIXES:
        words.pop()
    while words and words[0] == "the":
        words.pop(0)
    return " ".join(words)


def name_index(companies: Iterable[Company], cells: Sequence[GridCell] = ()) -> dict[str, str]:
    """Normalised company name (and simple spellings of it) -> ticker."""
    index: dict[str, str] = {}
    pairs = [(c.name, c.ticker) for c in companies] + [(c.company, c.ticker) for c in cells]
    pairs += [(alias, c.ticker) for c in companies for alias in c.aliases]
    for name, ticker in pairs:
        norm = normalise_name(name)
        if not norm:
            continue
        variants = {norm, norm.replace(" ", ""), norm.replace(" and ", " ")}
        if m := re.fullmatch(r"(\w+) and (\w+)", norm):  # "Johnson & Johnson": J&J, JnJ
            a, b = m.group(1)[0], m.group(2)[0]
            variants |= {f"{a} and {b}", f"{a}n{b}", f"{a}&{b}"}
        for variant in variants:
            index.setdefault(variant, ticker.upper())
    return index


def resolve_name(name: str, index: dict[str, str]) -> str | None:
    """The ticker of a company name the map knows, or None."""
    norm = normalise_name(name)
    return index.get(norm) or index.get(norm.replace(" ", ""))


def company_mentions(
    text: str, companies: Sequence[Company], cells: Sequence[GridCell] = ()
) -> list[tuple[int, str]]:
    """``(position, ticker)`` of every ticker and company name ``text`` contains, in order of
    position (a company named twice, or by name and ticker, appears each time)."""
    known = {c.ticker for c in companies} | {c.ticker for c in cells}
    hits = [(m.start(), m.group(1)) for m in _TICKER_TOKEN_RE.finditer(text) if m.group(1) in known]
    # "&" is read as "and", as names are normalised: "Johnson & Johnson", "PG&E", "J&J".
    lowered = text.lower().replace("’", "'").replace("&", " and ")
    spaced = " " + re.sub(r"[^a-z0-9']+", " ", lowered) + " "
    # Two readings of an apostrophe: a possessive ("3M's" is 3M) and part of the name
    # ("McDonald's" is the map's McDonalds).
    readings = (re.sub(r"'s\b", "", spaced).replace("'", " "), spaced.replace("'", ""))
    for name, ticker in name_index(companies, cells).items():
        if len(name) < 2:
            continue
        found = [pos for words in readings if (pos := words.find(f" {name} ")) >= 0]
        if found:
            hits.append((min(found), ticker))
    return sorted(set(hits))  # two spellings of one name at one place are one mention


def mentioned_tickers(text: str, companies: Sequence[Company]) -> list[str]:
    """The tickers of the companies ``text`` names, each once, in the company map's order."""
    found = {ticker for _, ticker in company_mentions(text, companies)}
    return [c.ticker for c in companies if c.ticker in found]


#: "Nike and Adidas", "Adidas vs. Nike": two names of one to three capitalised words joined
#: as peers (a spaced "&" joins the words of one name, "Johnson & Johnson", so is left out).
_NAME = r"[A-Z0-9][\w.&'’-]*(?:\s+[A-Z0-9][\w.&'’-]*){0,2}"
_PEERS_RE = re.compile(
    rf"\b(?P<a>{_NAME})\s+(?P<join>and|vs\.?|versus|or|against|with|to)\s+(?P<b>{_NAME})"
    # "How did 3M('s capex) compare with Honeywell": the verb between the two names
    rf"|\b(?P<c>{_NAME})(?:\s+[a-z][\w'’-]*){{0,3}}?\s+compar\w*\s+"
    rf"(?P<verb_join>with|to|against)\s+(?P<d>{_NAME})"
)
#: "with" and "to" join peers only in a comparison ("compare 3M with Honeywell").
_COMPARING_RE = re.compile(r"\bcompar", re.IGNORECASE)
#: Capitalised words a question uses that name no company: periods, measures, question words.
_NOT_A_NAME = frozenset(
    "fy cy q1 q2 q3 q4 h1 h2 gaap eps ebit ebitda sg&a r&d us u.s. emea apac latam ceo cfo "
    "form compare how what which who why is are did does was were the in for between".split()
)


def _is_period(name: str) -> bool:
    found = read_periods(name)
    return bool(found.fiscal_years or found.fiscal_quarters or found.invalid)


def unrecognised_peers(
    text: str, companies: Sequence[Company], cells: Sequence[GridCell] = ()
) -> list[str]:
    """Names ``text`` sets beside a company it names ("Compare Nike and Adidas") that are no
    company the map or the grid knows. A comparison would otherwise drop them unsaid: the
    map holds only its companies, and nothing else tells such a name from any capitalised
    word, so only a name joined to a known company as its peer is read as one."""
    index = name_index(companies, cells)
    tickers = {c.ticker for c in companies} | {c.ticker for c in cells}

    def known(words: list[str]) -> bool:
        name = re.sub(r"['’]s$", "", " ".join(words))
        return name in tickers or resolve_name(name, index) is not None

    found: list[str] = []
    for m in _PEERS_RE.finditer(text):
        if m.group("join") in ("with", "to") and not _COMPARING_RE.search(text):
            continue
        a, b = (m.group("a") or m.group("c")).split(), (m.group("b") or m.group("d")).split()
        # the words next to the "and" are the peers: a's last words, b's first
        a_known = any(known(a[-n:]) for n in range(1, len(a) + 1))
        b_known = any(known(b[:n]) for n in range(1, len(b) + 1))
        if a_known == b_known:
            continue
        words = b if a_known else a
        while words and words[0].lower() in _NOT_A_NAME:
            words = words[1:]
        name = re.sub(r"['’]s$", "", " ".join(words))
        if name and name.lower() not in _NOT_A_NAME and not _is_period(name) and name not in found:
            found.append(name)
    return found
