"""An optional, cheap rerank of the fused pool using page structure.

Fusion ranks by topical similarity; analysts' questions mostly want the page that
*reports* the figure. Five general signals lift such pages:

- **heading**: a statement heading the query asked for (e.g. "consolidated statements
  of cash flows") printed in the page's **title** (its first few short lines: a page that
  only mentions "the consolidated balance sheets" in its prose is not the statement);
- **title**: the query's words in that title, each weighted by how few candidate pages
  hold it, the way a search engine weighs a title field above the body ("Segment
  results", "Income taxes", "Dividend policy" name what the page reports);
- **phrases**: query word pairs (line items such as "property plant") found on the page;
- **figures**: numeric density, when the question asks for an amount or ratio, and not
  for the causes of one ("what drove the margin change" is answered in prose);
- **passage**: the best 1,000-character stretch of the page's words by query-word
  coverage, each word weighted by how few candidate pages hold it: the answer's words sit
  together. A table's figures are left out of the stretch, so a row label and the column
  heading above it count as near, as they are for a reader;

and one lowers pages that are filing boilerplate (certifications, signatures, exhibit
indexes, auditor's reports, tables of contents, indexes to the financial statements),
which match many queries and answer none.

The bonuses are added to the fused score scaled to [0, 1]. Weights were first tuned on
one hash half of the benchmark questions; the title signal, the title-only heading and
the figure-free passage were designed on the train and dev companies of the evalsets'
company-grouped split and reported once on its test companies (docs/grid.md).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from retrieval.pages import Page
from retrieval.search.query import PreparedQuery
from retrieval.search.rows import query_stems

_WORD = re.compile(r"[a-z0-9]+")
_LETTER = re.compile(r"[a-z]")
_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_NUMBER = re.compile(r"\d[\d,.]*")
_NOT_ALNUM = re.compile(r"[^a-z0-9]+")
_TOC_ENTRY = re.compile(r"\bitem \d{1,2}[a-c]?\b")
_TOC_ENTRIES = 8  # distinct items; a 10-K's contents list 15 or more
_STATEMENT_NAME = re.compile(
    r"balance sheets?|statements? of (?:financial position|operations|income|earnings|"
    r"comprehensive (?:income|loss)|cash flows|(?:stockholders|shareholders|changes in)\S* equity)"
)
_INDEX_STATEMENTS = 4
_INDEX_CHARS = 1000
_QUANTITATIVE = re.compile(
    r"\b(how much|how many|what (?:is|was|were) the|amount|total|ratio|margin|percent|%|"
    r"rate|growth|change|increase|decrease|usd|\$|million|billion|calculate|compute)\b",
    re.IGNORECASE,
)


_BOILERPLATE_HEAD = re.compile(
    r"certifications?\b|section 1350|section 302|\bsignatures?\b|exhibit index|"
    r"power of attorney|consent of independent|subsidiaries of|"
    r"report of independent registered public accounting firm",
    re.IGNORECASE,
)


#: Running headers that open many pages and name none of them.
_RUNNING_HEAD = re.compile(
    r"^(?:table of contents|index|page \d+(?: of \d+)?|exhibit [\d.]+|\(?continued\)?|"
    r"part [iv]+\.?)$"
)
#: A note's own title ("Note 7. Supplemental Balance Sheet Information") ends the title:
#: a note about a statement is not the statement.
_NOTE_TITLE = re.compile(r"^note\s*\d")
#: A page's title: at most this many opening lines with letters, each at most this long
#: (a wrapped line of prose is longer; statement and section titles are shorter).
TITLE_LINES = 3
TITLE_LINE_CHARS = 100


@dataclass(frozen=True)
class RerankWeights:
    heading: float = 0.3
    phrases: float = 1.0
    figures: float = 0.15
    boilerplate: float = 0.3
    passage: float = 0.5
    title: float = 0.6
    passage_chars: int = 1000
    head_chars: int = 400


def _stems(text: str) -> list[str]:
    return [w[:6] for w in _WORD.findall(text.lower())]


def _pairs(query: PreparedQuery) -> list[tuple[str, str]]:
    """Adjacent pairs of query words, each word as its 6-letter stem, taken within the
    question and within each expansion: the last word of the question and the first of a
    glossary expansion appended after it ("change", "profit") are no line item."""
    kept = set(query.terms)
    question = query.dense_text.lower()
    for expansion in query.expansions:
        question = question.replace(expansion.lower(), " ")
    pairs: list[tuple[str, str]] = []
    for source in (question, *query.expansions):
        words = [w for w in _WORD.findall(source.lower()) if w in kept]
        pairs += pairwise(w[:6] for w in words)
    return list(dict.fromkeys(pairs))


def _has_pair(lowered: str, starts_a: list[int], len_a: int, starts_b: set[int]) -> bool:
    """Whether a word starting with stem ``a`` (at one of ``starts_a``) is followed, past
    the rest of its word and the separators after it, by a word starting with stem ``b``:
    a line item such as "property, plant". Positions come from :func:`term_positions`, so
    the page is scanned once for all the query's words."""
    n = len(lowered)
    for start in starts_a:
        at = start + len_a
        while at < n and lowered[at] in _ALNUM:
            at += 1
        gap = at
        while at < n and lowered[at] not in _ALNUM:
            at += 1
        if at > gap and at in starts_b:
            return True
    return False


def _is_boilerplate(lowered: str, head_chars: int) -> bool:
    """Certifications, signatures, auditor's reports, indexes: pages that name everything
    and report nothing. A table of contents is known by its many "Item N." entries, an
    index to the financial statements by naming most of the statements (a statement page
    names itself, and may carry "Index to ..." as a running link)."""
    if _BOILERPLATE_HEAD.search(lowered[:head_chars]):
        return True
    if len(set(_TOC_ENTRY.findall(lowered))) >= _TOC_ENTRIES:
        return True
    return len(set(_STATEMENT_NAME.findall(lowered[:_INDEX_CHARS]))) >= _INDEX_STATEMENTS


def title_zone(lowered: str) -> str:
    """The page's title: its first few short lines with letters, past running headers
    ("Table of Contents", "Page 3 of 15") and bare figures, up to the first line of prose
    or a note's own title. Statement and section pages print their name there; a page of
    prose that mentions a statement in passing has none."""
    kept: list[str] = []
    for line in lowered[:600].splitlines():
        line = " ".join(line.split())
        if not line or not _LETTER.search(line) or _RUNNING_HEAD.match(line):
            continue
        if len(line) > TITLE_LINE_CHARS or _NOTE_TITLE.match(line):
            break
        kept.append(line)
        if len(kept) >= TITLE_LINES:
            break
    return " ".join(kept)


def prose_words(lowered: str) -> str:
    """The page's words without its figures: a table's numbers between a row label and
    its column heading no longer push them a passage apart."""
    return " ".join(token for token in lowered.split() if _LETTER.search(token))


def _squash(text: str) -> str:
    return _NOT_ALNUM.sub("", text)


def _heading_score(head: str, headings: tuple[str, ...]) -> float:
    """1 when the page opens with a statement heading the query asked for (or implied).

    Compared without spaces and punctuation: PDF text splits and joins words
    ("Statement of Cash Flow s", "STATEMENTSOFINCOME")."""
    squashed = _squash(head)
    return 1.0 if any(_squash(h) in squashed for h in headings) else 0.0


def _figure_density(text: str) -> float:
    tokens = text.split()
    if not tokens:
        return 0.0
    return min(1.0, 3 * len(_NUMBER.findall(text)) / len(tokens))


@dataclass(frozen=True)
class PageFeatures:
    heading: float
    phrases: float
    figures: float
    boilerplate: float
    passage: float = 0.0
    title: float = 0.0


@dataclass(frozen=True)
class _PageShape:
    """What ranking reads from a page whatever the query."""

    boilerplate: bool
    figures: float
    title: str  # lower-cased, see :func:`title_zone`
    prose: str  # lower-cased, see :func:`prose_words`


@lru_cache(maxsize=4096)
def _page_shape(text: str, head_chars: int) -> _PageShape:
    """A page's query-independent signals, kept for the pages searched most (an agent
    searches its slice again and again). Boilerplate is read with runs of spaces closed
    up: PDF text prints "Report  of Independent ...", which a pattern with one space
    missed."""
    lowered = text.lower()
    return _PageShape(
        boilerplate=_is_boilerplate(" ".join(lowered.split()), head_chars),
        figures=_figure_density(text),
        title=title_zone(lowered),
        prose=prose_words(lowered),
    )


def page_features(
    query: PreparedQuery,
    page: Page,
    head_chars: int = 400,
    positions: dict[str, list[int]] | None = None,
    passage: float = 0.0,
    lowered: str | None = None,
    title: float = 0.0,
) -> PageFeatures:
    """The structural signals of one page for one query, each in [0, 1]; ``positions``
    are the page's :func:`term_positions` for the query's words and ``lowered`` its text
    lower-cased (each found if not given: the rerank has them already). ``passage`` and
    ``title`` are scored against the other candidates, so the rerank passes them in."""
    lowered = page.text.lower() if lowered is None else lowered
    pairs = _pairs(query)
    if positions is None:
        positions = _word_starts(lowered, [w for pair in pairs for w in pair])
    found = sum(
        _has_pair(lowered, positions[a], len(a), set(positions[b]))
        for a, b in pairs
        if a in positions and b in positions
    )
    shape = _page_shape(page.text, head_chars)
    wants_figures = _QUANTITATIVE.search(query.original) and not query.explanatory
    return PageFeatures(
        heading=_heading_score(shape.title, query.headings),
        phrases=found / len(pairs) if pairs else 0.0,
        figures=shape.figures if wants_figures else 0.0,
        boilerplate=1.0 if shape.boilerplate else 0.0,
        passage=passage,
        title=title,
    )


def combine(score: float, top: float, f: PageFeatures, w: RerankWeights) -> float:
    return (
        score / top
        + w.heading * f.heading
        + w.phrases * f.phrases
        + w.figures * f.figures
        - w.boilerplate * f.boilerplate
        + w.passage * f.passage
        + w.title * f.title
    )


def term_positions(text: str, stems: Sequence[str]) -> dict[str, list[int]]:
    """Where each stem starts a word of ``text`` (lower-cased), found by ``str.find`` (a C
    scan with no pattern to compile): ranking calls this for every candidate page."""
    return _word_starts(text.lower(), stems)


def _word_starts(lowered: str, stems: Sequence[str]) -> dict[str, list[int]]:
    """:func:`term_positions` over text already lower-cased."""
    found: dict[str, list[int]] = {}
    for stem in stems:
        if not stem:
            continue
        hits = []
        at = lowered.find(stem)
        while at >= 0:
            if at == 0 or not lowered[at - 1].isalnum():
                hits.append(at)
            at = lowered.find(stem, at + 1)
        if hits:
            found[stem] = hits
    return found


def best_window_coverage(
    positions: dict[str, list[int]], weights: dict[str, float], width: int
) -> float:
    """The largest weighted share of the query's words that one ``width``-character
    stretch of the page holds, in [0, 1]: a page that answers has its words together,
    where a page-level score also rewards words scattered over a long page."""
    total = sum(weights.values())
    if not total or not positions:
        return 0.0
    events = sorted((p, s) for s, ps in positions.items() if weights.get(s) for p in ps)
    counts: dict[str, int] = {}
    covered = best = 0.0
    left = 0
    for pos, stem in events:
        counts[stem] = counts.get(stem, 0) + 1
        if counts[stem] == 1:
            covered += weights[stem]
        while events[left][0] < pos - width:
            gone = events[left][1]
            counts[gone] -= 1
            if counts[gone] == 0:
                covered -= weights[gone]
            left += 1
        best = max(best, covered)
    return min(1.0, best / total)


def _stem_weights(stems: Sequence[str], positions: list[dict[str, list[int]]]) -> dict[str, float]:
    """Each query stem's weight: higher the fewer candidate pages hold it (the pool is its
    own corpus), none for a stem no candidate holds."""
    n = len(positions)
    weights = {}
    for stem in stems:
        df = sum(1 for found in positions if stem in found)
        weights[stem] = math.log(1 + n / (df + 0.5)) if df else 0.0
    return weights


def _passage_scores(
    stems: Sequence[str],
    positions: list[dict[str, list[int]]],
    weights: dict[str, float],
    w: RerankWeights,
) -> list[float]:
    """Each page's best stretch of ``passage_chars`` by weighted query-word coverage;
    ``positions`` are found in the pages' words without their figures."""
    return [
        best_window_coverage({s: found[s] for s in stems if s in found}, weights, w.passage_chars)
        for found in positions
    ]


def _title_scores(
    stems: Sequence[str], titles: list[str], weights: dict[str, float]
) -> list[float]:
    """The weighted share of the query's stems that each page's title holds, in [0, 1]."""
    total = sum(weights.values())
    if not total:
        return [0.0] * len(titles)
    return [sum(weights[s] for s in _word_starts(title, stems)) / total for title in titles]


def rerank(
    query: PreparedQuery,
    ranked: list[tuple[Page, float]],
    weights: RerankWeights | None = None,
) -> list[tuple[Page, float]]:
    """Re-sort ``ranked`` (page, fused score) by fused score plus structural bonuses."""
    if not ranked:
        return ranked
    w = weights or RerankWeights()
    top = max(score for _, score in ranked) or 1.0
    stems = query_stems(query.terms)
    words = list(dict.fromkeys([*stems, *_stems(" ".join(query.terms))]))
    lowered = [page.text.lower() for page, _ in ranked]  # once a page, for every signal
    shapes = [_page_shape(page.text, w.head_chars) for page, _ in ranked]
    positions = [_word_starts(text, words) for text in lowered]
    stem_weights = _stem_weights(stems, positions)
    passages = (
        _passage_scores(stems, [_word_starts(s.prose, stems) for s in shapes], stem_weights, w)
        if w.passage
        else None
    )
    titles = _title_scores(stems, [s.title for s in shapes], stem_weights) if w.title else None
    rescored = [
        (
            page,
            combine(
                score,
                top,
                page_features(
                    query,
                    page,
                    w.head_chars,
                    positions[i],
                    passages[i] if passages else 0.0,
                    lowered[i],
                    titles[i] if titles else 0.0,
                ),
                w,
            ),
        )
        for i, (page, score) in enumerate(ranked)
    ]
    return sorted(rescored, key=lambda ps: -ps[1])
