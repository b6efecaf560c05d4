"""Which news items a query asks for: every query word in the item's title or summary.

Its own module so the news search and each provider share it without importing each other.
"""

from __future__ import annotations

import re


def query_words(query: str) -> list[str]:
    """The words of ``query``, case-folded: what an item's title or summary must contain."""
    return re.findall(r"\w+", query.casefold())


def matches(words: list[str], *texts: str) -> bool:
    """Whether every word occurs in ``texts`` (case-folded, as a substring: "apple" finds
    "Apple's")."""
    haystack = " ".join(texts).casefold()
    return all(word in haystack for word in words)
