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
from itertools import pairwise

from retrieval.pages import Page
from retrieval.passages import query_stems
from retrieval.query import PreparedQuery

_WORD = re.compile(r"[a-z0-9]+")
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


def _pair_patterns(query: PreparedQuery) -> list[re.Pattern[str]]:
    """One regex per adjacent pair of query words, each word matched by its 6-letter stem:
    the page is scanned in C instead of being tokenised in Python for every candidate.
    The word boundary is checked by :func:`_has_pair`: in the pattern it defeats the regex
    engine's literal-prefix scan and costs 15×."""
    stems = _stems(" ".join(query.terms))
    return [
        re.compile(rf"{re.escape(a)}[a-z0-9]*[^a-z0-9]+{re.escape(b)}")
        for a, b in dict.fromkeys(pairwise(stems))
    ]


def _has_pair(pattern: re.Pattern[str], text: str) -> bool:
    for match in pattern.finditer(text):
        start = match.start()
        if start == 0 or not text[start - 1].isalnum():
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


def page_features(
    query: PreparedQuery,
    page: Page,
    head_chars: int = 400,
    pair_patterns: list[re.Pattern[str]] | None = None,
    passage: float = 0.0,
) -> PageFeatures:
    """The structural signals of one page for one query, each in [0, 1]."""
    lowered = page.text.lower()
    patterns = _pair_patterns(query) if pair_patterns is None else pair_patterns
    phrases = sum(_has_pair(p, lowered) for p in patterns) / len(patterns) if patterns else 0.0
    return PageFeatures(
        heading=_heading_score(lowered[:head_chars], query.headings),
        phrases=phrases,
        figures=_figure_density(page.text) if _QUANTITATIVE.search(query.original) else 0.0,
        boilerplate=1.0 if _is_boilerplate(lowered, head_chars) else 0.0,
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
    """Where each stem starts a word of ``text`` (lower-cased), found by a C-speed scan:
    ranking calls this for every candidate page."""
    lowered = text.lower()
    found: dict[str, list[int]] = {}
    for stem in stems:
        hits = [
            m.start()
            for m in re.finditer(re.escape(stem), lowered)
            if m.start() == 0 or not lowered[m.start() - 1].isalnum()
        ]
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


def _passage_scores(query: PreparedQuery, pages: list[Page], w: RerankWeights) -> list[float]:
    """Each page's best stretch of ``passage_chars`` by weighted query-word coverage; a word
    weighs more the fewer candidate pages hold it (the pool is its own corpus)."""
    stems = query_stems(query.terms)
    positions = [term_positions(page.text, stems) for page in pages]
    n = len(pages)
    weights = {}
    for stem in stems:
        df = sum(1 for found in positions if stem in found)
        weights[stem] = math.log(1 + n / (df + 0.5)) if df else 0.0
    return [best_window_coverage(found, weights, w.passage_chars) for found in positions]


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
    patterns = _pair_patterns(query)
    passages = _passage_scores(query, [page for page, _ in ranked], w) if w.passage else None
    rescored = [
        (
            page,
            combine(
                score,
                top,
                page_features(
                    query, page, w.head_chars, patterns, passages[i] if passages else 0.0
                ),
                w,
            ),
        )
        for i, (page, score) in enumerate(ranked)
    ]
    return sorted(rescored, key=lambda ps: -ps[1])
