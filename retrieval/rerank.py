"""An optional, cheap rerank of the fused pool using page structure.

Fusion ranks by topical similarity; analysts' questions mostly want the page that
*reports* the figure. Four general signals lift such pages:

- **heading**: a statement heading the query asked for (e.g. "consolidated statements
  of cash flows") printed near the top of the page;
- **phrases**: query word pairs (line items such as "property plant") found on the page;
- **figures**: numeric density, when the question asks for an amount or ratio;
- **passage**: the best 1,000-character stretch of the page by query-word coverage, each
  word weighted by how few candidate pages hold it: the answer's words sit together;

and one lowers pages that are filing boilerplate (certifications, signatures, exhibit
indexes, auditor's reports, tables of contents, indexes to the financial statements),
which match many queries and answer none.

The bonuses are added to the fused score scaled to [0, 1]; weights were tuned on one
half of the benchmark questions and checked on the other (see README).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from retrieval.pages import Page
from retrieval.passages import query_stems
from retrieval.query import PreparedQuery

_WORD = re.compile(r"[a-z0-9]+")
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


@dataclass(frozen=True)
class RerankWeights:
    heading: float = 0.3
    phrases: float = 1.0
    figures: float = 0.15
    boilerplate: float = 0.3
    passage: float = 0.5
    passage_chars: int = 1000
    head_chars: int = 400


def _stems(text: str) -> list[str]:
    return [w[:6] for w in _WORD.findall(text.lower())]


def _pairs(query: PreparedQuery) -> list[tuple[str, str]]:
    """Adjacent pairs of query words, each word as its 6-letter stem."""
    return list(dict.fromkeys(pairwise(_stems(" ".join(query.terms)))))


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


@lru_cache(maxsize=8192)
def _page_constants(text: str, head_chars: int) -> tuple[bool, float]:
    """(boilerplate?, figure density): what ranking reads from a page whatever the query,
    kept for the pages searched most (an agent searches its slice again and again)."""
    return _is_boilerplate(text.lower(), head_chars), _figure_density(text)


def page_features(
    query: PreparedQuery,
    page: Page,
    head_chars: int = 400,
    positions: dict[str, list[int]] | None = None,
    passage: float = 0.0,
    lowered: str | None = None,
) -> PageFeatures:
    """The structural signals of one page for one query, each in [0, 1]; ``positions``
    are the page's :func:`term_positions` for the query's words and ``lowered`` its text
    lower-cased (each found if not given: the rerank has them already)."""
    lowered = page.text.lower() if lowered is None else lowered
    pairs = _pairs(query)
    if positions is None:
        positions = _word_starts(lowered, [w for pair in pairs for w in pair])
    found = sum(
        _has_pair(lowered, positions[a], len(a), set(positions[b]))
        for a, b in pairs
        if a in positions and b in positions
    )
    boilerplate, figures = _page_constants(page.text, head_chars)
    return PageFeatures(
        heading=_heading_score(lowered[:head_chars], query.headings),
        phrases=found / len(pairs) if pairs else 0.0,
        figures=figures if _QUANTITATIVE.search(query.original) else 0.0,
        boilerplate=1.0 if boilerplate else 0.0,
        passage=passage,
    )


def combine(score: float, top: float, f: PageFeatures, w: RerankWeights) -> float:
    return (
        score / top
        + w.heading * f.heading
        + w.phrases * f.phrases
        + w.figures * f.figures
        - w.boilerplate * f.boilerplate
        + w.passage * f.passage
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


def _passage_scores(
    query: PreparedQuery, positions: list[dict[str, list[int]]], w: RerankWeights
) -> list[float]:
    """Each page's best stretch of ``passage_chars`` by weighted query-word coverage; a word
    weighs more the fewer candidate pages hold it (the pool is its own corpus)."""
    stems = query_stems(query.terms)
    n = len(positions)
    weights = {}
    for stem in stems:
        df = sum(1 for found in positions if stem in found)
        weights[stem] = math.log(1 + n / (df + 0.5)) if df else 0.0
    return [
        best_window_coverage({s: found[s] for s in stems if s in found}, weights, w.passage_chars)
        for found in positions
    ]


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
    words = list(dict.fromkeys([*query_stems(query.terms), *_stems(" ".join(query.terms))]))
    lowered = [page.text.lower() for page, _ in ranked]  # once a page, for every signal
    positions = [_word_starts(text, words) for text in lowered]
    passages = _passage_scores(query, positions, w) if w.passage else None
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
                ),
                w,
            ),
        )
        for i, (page, score) in enumerate(ranked)
    ]
    return sorted(rescored, key=lambda ps: -ps[1])
