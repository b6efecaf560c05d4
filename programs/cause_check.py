"""A cause quoted from a page belongs to the figure the page gives it to.

Asked what drove a figure, a small model finds a "primarily due to …" clause on its page
and hangs it on the figure asked: "SG&A expenses increased 17.3% …, primarily due to
leverage of fixed costs, favorable channel mix shifts, and strong growth in other revenue"
quotes the page's reasons for *gross profit*, and PepsiCo's operating-profit drivers came
back as its gross margin's. Citation verification sees a real page and real words, and
numeric grounding real digits. So a draft sentence whose cause clause is a page's, while
the page sentence it comes from gives that cause to another figure, is removed (counted).
PG&E's 10-K gives "higher interest rates earned on regulatory balancing accounts" to its
interest income; asked why net income rose, the draft gave it to net income.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citations.markup import CitedAnswer
from citations.sentences import is_abbreviation, split_sentences, without_units

#: How much of a change a cause explains, said between its words: "due primarily to".
_HOW_MUCH = r"(?:(?:primarily|mainly|largely|principally|partly|partially|in\s+part)\s+)?"
#: Words that join a figure to its cause: "…, primarily due to …", "… driven by …", and
#: with the adverb inside, as Apple writes it: "was higher … due primarily to …".
_CAUSE = re.compile(
    rf"\b(?:due\s+{_HOW_MUCH}to|driven\s+{_HOW_MUCH}by|attributable\s+{_HOW_MUCH}to"
    rf"|as\s+a\s+result\s+of|resulting\s+{_HOW_MUCH}from|because\s+of|reflecting"
    rf"|owing\s+to)\b",
    re.IGNORECASE,
)
#: The figures a cause is given to: the words filings and drafts name each by, and looser
#: words a draft may still answer it in. A draft using none of the looser ones speaks of
#: another figure ("EPS" asked, "operational sales growth of 4.6%" answered), where one
#: saying "margin" alone for a gross margin may still answer it.
_FIGURE_WORDS: dict[str, tuple[str, str]] = {
    "gross profit": (r"\bgross\s+(?:profit|margin)s?\b", r"\bgross\b|\bmargins?\b"),
    "operating profit": (
        r"(?<!non-)\boperating\s+(?:profit|income|margin|earnings)s?\b",  # not non-operating
        r"\boperating\b|\bmargins?\b|\bprofit|\bEBITD?A?\b",
    ),
    "SG&A": (
        r"\bSG&A\b|\bselling,?\s+general\s+and\s+administrative\b",
        r"\bSG&A\b|\bselling\b|\badministrative\b|\bexpenses?\b",
    ),
    "net income": (r"\bnet\s+(?:income|earnings)\b", r"\bincome\b|\bearnings\b|\bprofit"),
    "cost of sales": (
        r"\bcost\s+of\s+(?:net\s+)?(?:sales|goods\s+sold|revenues?|products\s+sold)\b",
        r"\bcosts?\b",
    ),
    "EPS": (r"\bEPS\b|\bearnings\s+per\s+share\b", r"\bEPS\b|\bper\s+share\b|\bearnings\b"),
    "cash flow": (r"\bcash\s+(?:flows?|provided|used)\b", r"\bcash\b|\bFCF\b"),
    "inventory": (r"\binventor(?:y|ies)\b", r"\binventor"),
    "interest income": (r"\binterest\s+income\b", r"\binterest\b"),
    "interest expense": (r"\binterest\s+expenses?\b", r"\binterest\b"),
    "tax rate": (r"\btax\s+rate\b", r"\btax"),
    "dividends": (r"\bdividends?\b", r"\bdividend"),
    "buybacks": (
        r"\b(?:share|stock)\s+repurchases?\b|\bbuy-?backs?\b|\brepurchases?\s+of\s+"
        r"(?:its\s+|our\s+)?(?:common\s+)?(?:stock|shares)\b",
        r"\brepurchas|\bbuy-?back",
    ),
    # What a company paid for another: "the purchase of Slack … for $4 billion" is not
    # the page's "$4.0 billion from repurchases of common stock".
    "acquisitions": (r"\bacqui(?:sitions?|red|res?|ring)\b", r"\bacqui"),
}
_FIGURES = {name: re.compile(named, re.IGNORECASE) for name, (named, _) in _FIGURE_WORDS.items()}
_MENTIONS = {name: re.compile(loose, re.IGNORECASE) for name, (_, loose) in _FIGURE_WORDS.items()}
#: The names of the figures :func:`measures_named` finds, and the patterns it finds them by.
MEASURES = tuple(_FIGURE_WORDS)
MEASURE_PATTERNS = tuple(_FIGURES.values())
_WORD = re.compile(r"[a-z][a-z&-]{3,}")
_STOP = frozenset(
    "with that this from were have been also which their than they them into over more less "
    "year years fiscal quarter compared prior period higher lower partially offset primarily "
    "mainly largely".split()
)
#: Words that say a figure fell, and words that say it changed at all.
_FALL_WORDS = r"decreas|declin|fell\b|fall|lower|reduc|down\b"
_FALL = re.compile(rf"\b(?:{_FALL_WORDS})", re.IGNORECASE)
_CHANGE = re.compile(
    rf"\b(?:{_FALL_WORDS}|increas|ris[ei]|rose\b|grew\b|grow|higher|up\b|chang|improv|wors"
    r"|impact|affect|offset)",
    re.IGNORECASE,
)
#: A sentence opening on what the one before it said ("This was due to …") explains that.
_ANAPHOR = re.compile(r"\s*(?:this|that|these|those|it|they|which)\b", re.IGNORECASE)
#: Share of a draft's cause words a page sentence must hold to be where it was copied from.
_COPIED = 0.75
#: Fewer cause words than this say too little to tell where they came from.
_MIN_WORDS = 4
#: A sentence ends at a stop, or at a stop inside a closing quote ("… on “Net Revenues.” The …"),
#: and one begins after a table's last figure with no stop between ("… 24.7 % 23.4 % The
#: increase in cost of net revenues in 2020 …", eBay's 10-K).
_PAGE_SENTENCE = re.compile(
    r"(?<=[.;!?])\s+|(?<=[.;!?][”\"])\s+|(?<=[\d%)])\s+(?=(?:The|This|These)\s+[a-z])"
)


def page_sentences(page: str) -> list[str]:
    """A page's sentences. PDF text wraps a sentence over lines ("… primarily due to
    leverage of fixed costs,\nfavorable channel mix shifts …"): each is read as one. A stop
    after an abbreviation ("the impact to U.S. foreign tax credits") or before a word in
    lower case ends none: Apple's tax-rate cause had been quoted up to "U.S."."""
    sentences: list[str] = []
    for piece in _PAGE_SENTENCE.split(" ".join(page.split())):
        last = sentences[-1] if sentences else ""
        if last.endswith(".") and (piece[:1].islower() or is_abbreviation(last, len(last) - 1)):
            sentences[-1] = f"{last} {piece}"
        else:
            sentences.append(piece)
    return sentences


#: A cause told of the change the sentence before it states: "During 2022, net cash
#: provided by operating activities increased by $1.4 billion … This increase was
#: partially due to an increase in base revenues …" (PG&E's 10-K).
_THIS_CHANGE = re.compile(
    r"^\W*(?:this|that|the)\s+(?:increase|decrease|decline|change|improvement|reduction"
    r"|growth)\b",
    re.IGNORECASE,
)


#: A change that names what changed: "The increase in product development expenses".
_OWN_FIGURE = re.compile(r"\s+(?:in|of)\s+(?![$\d])", re.IGNORECASE)


#: "The operating profit was driven by …" right after "NSG had an operating profit of
#: $361 million, …" (Intel's 10-K, under its NSG heading): the figure the sentence before
#: states, whoever's it is.
_THE = re.compile(r"^\W*the\s+", re.IGNORECASE)


def _said_of_the_one_before(before: str, sentence: str) -> bool:
    """Whether ``sentence`` opens on "The <figure>" that ``before`` names too."""
    the = _THE.match(sentence)
    if the is None:
        return False
    return any(p.match(sentence, the.end()) and p.search(before) for p in _FIGURES.values())


def told_with_its_change(sentences: Sequence[str], at: int) -> str | None:
    """The sentence at ``at`` with the one before it, when it gives the cause of "this
    increase" (naming no figure of its own: "The increase in …" does) or of "the operating
    profit" the one before names, and that one states the change without a cause of its
    own; else None."""
    if at == 0:
        return None
    before, sentence = sentences[at - 1], sentences[at]
    change = _THIS_CHANGE.match(sentence)
    if change is None and not _said_of_the_one_before(before, sentence):
        return None
    if change is not None and _OWN_FIGURE.match(sentence, change.end()):
        return None  # "The increase in cost of net revenues … was due to": its own figure
    if split_at_cause(before) is not None:
        return None
    return f"{before} {sentence}"


def measures_named(text: str) -> set[str]:
    """The statement measures ``text`` names (gross profit, SG&A, EPS, …), by their names."""
    return {name for name, pattern in _FIGURES.items() if pattern.search(text)}


def mentions_measure(measure: str, text: str) -> bool:
    """Whether ``text`` speaks of ``measure`` (a name :func:`measures_named` gives) at all,
    even loosely ("margin" for gross margin, "earnings" for EPS)."""
    return bool(_MENTIONS[measure].search(text))


def _cause_words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP}


def split_at_cause(text: str) -> tuple[str, str] | None:
    """(what the sentence explains, its cause), at the first cause connective."""
    match = _CAUSE.search(text)
    return (text[: match.start()], text[match.end() :]) if match else None


def given_to(cause: str, page: str) -> set[str]:
    """The figures ``page`` gives ``cause`` to: those named before the cause connective of
    each page sentence whose cause holds most of ``cause``'s words (empty when none does),
    a cause of "this increase" read with the sentence before it that names the figure."""
    words = _cause_words(cause)
    if len(words) < _MIN_WORDS:
        return set()
    owners: set[str] = set()
    sentences = page_sentences(page)
    for at, sentence in enumerate(sentences):
        parts = split_at_cause(told_with_its_change(sentences, at) or sentence)
        if parts and len(words & _cause_words(parts[1])) >= _COPIED * len(words):
            owners |= measures_named(parts[0])
    return owners


def _explains_falls_only(cause: str, pages: Sequence[str]) -> bool:
    """Whether every page sentence whose cause holds most of ``cause``'s words gives it to
    a fall ("Capital expenditures decreased $141 million … due to …"), and one does."""
    words = _cause_words(cause)
    if len(words) < _MIN_WORDS:
        return False
    explained = [
        parts[0]
        for page in pages
        for sentence in page_sentences(page)
        if (parts := split_at_cause(sentence))
        and len(words & _cause_words(parts[1])) >= _COPIED * len(words)
    ]
    return bool(explained) and all(_FALL.search(text) for text in explained)


def misattributed_cause(sentence: str, pages: Sequence[str], question: str = "") -> str | None:
    """Why ``sentence`` gives a cause to the wrong figure (None when it does not): the
    figure it explains is not among those ``pages`` give that cause to. A sentence that
    names no figure ("The change was primarily driven by …") explains the one figure
    ``question`` names, if it names exactly one. Nor does a page's cause of a fall explain
    a figure's size: McDonald's 10-K gives Russia's sale as why capital expenditures
    *decreased*; the draft said its "significant capital expenditures … are primarily due
    to closures in Russia", in a sentence that states no change at all."""
    parts = split_at_cause(sentence)
    if parts is None:
        return None
    states_size = len(_cause_words(parts[0])) >= 3 and not _CHANGE.search(parts[0])
    if states_size and not _ANAPHOR.match(parts[0]) and _explains_falls_only(parts[1], pages):
        return "the page gives these causes to a fall, not to the figure's size"
    asked = measures_named(question)
    explained = measures_named(parts[0]) or (asked if len(asked) == 1 else set())
    owners = set().union(*(given_to(parts[1], page) for page in pages)) if pages else set()
    if explained and owners and explained.isdisjoint(owners):
        given, named = ", ".join(sorted(owners)), ", ".join(sorted(explained))
        return f"the page gives these causes to {given}, not to {named}"
    return None


def drop_misattributed_causes(
    answer: CitedAnswer, pages: Sequence[str], question: str = ""
) -> tuple[CitedAnswer, int]:
    """``answer`` less its sentences that give a cause to another figure than ``pages`` (the
    texts of every page the probe read) give it to, with the footnotes only they marked; and
    how many went. ``question`` is the probe's: the figure a sentence naming none explains.
    Every page, not only the cited ones: the model that moves a cause to another figure
    also cites another page than the one it copied from."""
    dropped = [
        sentence
        for sentence in split_sentences(answer.body)
        if not sentence.in_table
        and sentence.markers
        and misattributed_cause(sentence.text, pages, question)
    ]
    if not dropped:
        return answer, 0
    body = without_units(answer.body, dropped)
    return answer.model_copy(update={"body": body}).cited_only(), len(dropped)
