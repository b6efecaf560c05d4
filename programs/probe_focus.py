"""Which of the model's probes belong to the question: code, not a prompt, decides.

The user's question is always researched as asked (its own probe); the model's probes may
only add angles to it. A small model asked for up to five probes writes five whatever the
question, and read on the train split's judgement questions its extras were of two kinds
that cost a run minutes and add nothing an analyst asked for:

- *drift*: a subject the question does not name ("Cash flow statement", "Operating
  activities" for a question about working capital; "Capital expenditures" for one about
  which segment grew fastest), whose findings then crowd the report;
- *paraphrase*: the question again in other words ("Highest net income segment" for "which
  segment had the highest net income"), researched a second time;
- *another statement's figure*: "Net cash provided by operating activities" for "What
  drove operating margin change?", on topic by the word "operating" alone. A probe whose
  title names a figure the calculator knows is kept only when that figure's statement is
  one the question's figure is read from (:func:`programs.figure_formulas.statements_named`).

A probe's *subject* is the content words of its title (the angle, in the model's words),
or of its question when the title says nothing of its own ("Drivers"): words that are not
function words, the slice's company, a period, or analysis words that fit any subject
("net", "trend", "breakdown"). A probe is kept when its subject shares a word with the
question's (on topic) and adds one (not a paraphrase). A question whose only subject is how
the business is doing ("is the business healthy?", "what are the risks?") is an open one:
its angles are the model's to choose, and the probes that add something are kept. Angles a
desk requires on every slice (``mandatory_angles``) are on topic whatever the question.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from domain.periods import MIN_FY, Period
from programs.figure_formulas import figures_named, formula_asked, statements_named
from retrieval.search.query import drop_instructions, prepare_query
from signatures.probes import Probe
from textnorm.stemming import stem
from textnorm.stopwords import QUERY_STOPWORDS

#: Analysis words that fit any subject, so they tell no subject apart.
_ANY_SUBJECT = frozenset(
    """
    across among analyse analysis analyze annual anticipate anticipated assessment associated
    breakdown business cause causes change changed changes compare compared comparison
    current data detail different driver drivers end ending evaluate evaluation excluding
    expect expectation expectations expected expecting expects experience factor factors
    financial financials forecast forecasted forecasts highlight highlights impact including
    information key latest main metric metrics net overall overview past performance period
    periods position potential previous prior projected quarter quarterly quarters reason
    reasons relative respective specific statement statements summary trend trends various
    versus vs within year-over-year yoy
    """.split()
)


def _term(word: str) -> str:
    """The shared stem, with a final ``y`` off, so ``category`` meets ``categories``."""
    term = stem(word)
    return term[:-1] if term.endswith("y") and len(term) > 4 else term


_IGNORED_STEMS = frozenset(_term(w) for w in QUERY_STOPWORDS | _ANY_SUBJECT)

#: What an open question asks of a business as a whole: its angles are the model's to pick.
_EVALUATIVE_STEMS = frozenset(
    _term(w)
    for w in """
    attractive bad concern concerns good health healthy outlook prospects quality risk risks
    risky shape solid sound stability stable strength strengths strong sustainable
    sustainability weak weakness weaknesses
    """.split()
)
_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|\S*\d\S*")


def subject_terms(text: str, company_words: Iterable[str] = ()) -> frozenset[str]:
    """Stems of the words in ``text`` that name what it is about (see the module doc)."""
    ignored = _IGNORED_STEMS | {_term(w) for w in company_words}
    terms = set()
    for word in _WORD_RE.findall(drop_instructions(text)):
        if any(ch.isdigit() for ch in word):
            continue  # a period, a year, a threshold
        for part in re.split(r"[-’']", word.lower()):
            if len(part) > 1 and (term := _term(part)) not in ignored:
                terms.add(term)
    return frozenset(terms)


def company_words(*names: str) -> set[str]:
    """The words of a company's ticker and names, which say nothing of a probe's subject."""
    return {w.lower() for name in names for w in re.findall(r"[A-Za-z0-9&]+", name)}


def probe_subject(probe: Probe, company: Iterable[str] = ()) -> frozenset[str]:
    """The probe's title's subject, or its question's when the title has none of its own."""
    words = set(company)
    return subject_terms(probe.probe_title, words) or subject_terms(probe.probe_question, words)


def _probe_topic(probe: Probe, subject: frozenset[str], company: Iterable[str]) -> frozenset[str]:
    """The subject with the line items its shorthand stands for (the search glossary's
    expansions: "capex" is capital expenditures), so a probe titled "Capex funding" is on
    topic for a question that spells capital expenditure out."""
    text = probe.probe_title if subject_terms(probe.probe_title, company) else probe.probe_question
    return subject | subject_terms(" ".join(prepare_query(text).expansions), company)


#: A probe about other companies: a slice's filings cannot answer it, and comparison across
#: companies is the composer's, from each slice's cited figures.
_OTHER_COMPANIES = re.compile(
    r"\b(?:competitors?|competition's|peers?|peer group|rivals?|other\s+(?:companies|firms|"
    r"players|carriers|retailers|banks)|(?:industry|sector)\s+(?:average|peers|benchmarks?|"
    r"norms?)|(?:others|companies)\s+in\s+(?:its|the)\s+(?:industry|sector))\b",
    re.IGNORECASE,
)


def about_other_companies(probe: Probe) -> bool:
    """Whether the probe asks about competitors, peers or an industry average."""
    return bool(_OTHER_COMPANIES.search(f"{probe.probe_title} {probe.probe_question}"))


def _figure_asked(probe: Probe) -> str:
    """The title of the figure the calculator reads the probe as asking (its question's,
    else its title's), lower-cased; empty when it reads none."""
    for text in (probe.probe_question, probe.probe_title):
        if (choice := formula_asked(text, Period(MIN_FY))) is not None:
            return choice.title.lower()
    return ""


def _on_the_statements(probe: Probe, statements: frozenset[str], question: str) -> bool:
    """Whether the probe names no statement figure, one of ``statements``, or one the
    question names too ("… interest expense" beside a question's current ratio)."""
    text, named = probe.probe_title, statements_named(probe.probe_title)
    if not named:  # the title names no figure: its question may
        text, named = probe.probe_question, statements_named(probe.probe_question)
    return (
        not named or bool(named & statements) or bool(figures_named(text) & figures_named(question))
    )


def focused_probes(
    probes: Sequence[Probe],
    question: str,
    company: Iterable[str] = (),
    also: str = "",
    computed: str = "",
) -> list[Probe]:
    """The model's ``probes`` that add an angle to ``question`` (its own probe is separate),
    in the model's order, each subject once. ``also``: angles a desk requires on every slice
    (``mandatory_angles``), on topic whatever the question. ``computed``: the title of the
    figure code computed for the slice; a probe the calculator reads as asking that figure
    asks it again ("Net Cash Provided by Operating Activities" beside code's cash from
    operations: the reviewer found it unanswered, and its dagger fell on code's figure), or
    the question again ("What drove the decline in operating cash flow?"), whose own probe
    is researched anyway."""
    if computed:
        probes = [p for p in probes if _figure_asked(p) != computed.lower()]
    words = set(company)
    asked, mandated = subject_terms(question, words), subject_terms(also, words)
    topic = asked | mandated
    subjects = [(p, probe_subject(p, words)) for p in probes]
    adding = [(p, s) for p, s in subjects if s and not s <= asked]
    on_topic = [(p, s) for p, s in adding if _probe_topic(p, s, words) & topic]
    kept = adding if asked <= _EVALUATIVE_STEMS else on_topic
    if statements := statements_named(question):  # a desk's angle stays, whatever it reads
        kept = [
            (p, s)
            for p, s in kept
            if _probe_topic(p, s, words) & mandated or _on_the_statements(p, statements, question)
        ]
    seen: set[frozenset[str]] = set()
    result = []
    for probe, subject in kept:
        if subject not in seen:
            seen.add(subject)
            result.append(probe)
    return result
