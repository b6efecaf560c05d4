"""An optional, cheap rerank of the fused pool using page structure.

Fusion ranks by topical similarity; analysts' questions mostly want the page that
*reports* the figure. Three general signals lift such pages:

- **heading**: a statement heading the query asked for (e.g. "consolidated statements
  of cash flows") printed near the top of the page;
- **phrases**: query word pairs (line items such as "property plant") found on the page;
- **figures**: numeric density, when the question asks for an amount or ratio;

and one lowers pages that are filing boilerplate (certifications, signatures, exhibit
indexes), which match many queries and answer none.

The bonuses are added to the fused score scaled to [0, 1]; weights were tuned on one
half of the benchmark questions and checked on the other (see README).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from retrieval.pages import Page
from retrieval.query import PreparedQuery

_WORD = re.compile(r"[a-z0-9]+")
_NUMBER = re.compile(r"\d[\d,.]*")
_QUANTITATIVE = re.compile(
    r"\b(how much|how many|what (?:is|was|were) the|amount|total|ratio|margin|percent|%|"
    r"rate|growth|change|increase|decrease|usd|\$|million|billion|calculate|compute)\b",
    re.IGNORECASE,
)


_BOILERPLATE_HEAD = re.compile(
    r"certifications?\b|section 1350|section 302|\bsignatures?\b|exhibit index|"
    r"power of attorney|consent of independent|subsidiaries of",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class RerankWeights:
    heading: float = 0.3
    phrases: float = 1.0
    figures: float = 0.15
    boilerplate: float = 0.3
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


def _heading_score(head: str, headings: tuple[str, ...]) -> float:
    """1 when the page opens with a statement heading the query asked for (or implied)."""
    return 1.0 if any(h in head for h in headings) else 0.0


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


def page_features(
    query: PreparedQuery,
    page: Page,
    head_chars: int = 400,
    pair_patterns: list[re.Pattern[str]] | None = None,
) -> PageFeatures:
    """The structural signals of one page for one query, each in [0, 1]."""
    lowered = page.text.lower()
    patterns = _pair_patterns(query) if pair_patterns is None else pair_patterns
    phrases = sum(_has_pair(p, lowered) for p in patterns) / len(patterns) if patterns else 0.0
    return PageFeatures(
        heading=_heading_score(" ".join(lowered[:head_chars].split()), query.headings),
        phrases=phrases,
        figures=_figure_density(page.text) if _QUANTITATIVE.search(query.original) else 0.0,
        boilerplate=1.0 if _BOILERPLATE_HEAD.search(lowered[:head_chars]) else 0.0,
    )


def combine(score: float, top: float, f: PageFeatures, w: RerankWeights) -> float:
    return (
        score / top
        + w.heading * f.heading
        + w.phrases * f.phrases
        + w.figures * f.figures
        - w.boilerplate * f.boilerplate
    )


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
    rescored = [
        (page, combine(score, top, page_features(query, page, w.head_chars, patterns), w))
        for page, score in ranked
    ]
    return sorted(rescored, key=lambda ps: -ps[1])
