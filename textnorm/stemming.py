"""One stemmer: suffix stripping light enough to keep digits, tickers and short words intact."""

from __future__ import annotations

from functools import lru_cache

_SUFFIXES = (
    "ational", "ations", "ation", "ating", "ated", "ates", "ments", "ment", "ings", "ing",
    "ities", "ity", "ies", "ied", "ed", "es", "ly", "al", "s", "e",
)  # fmt: skip


@lru_cache(maxsize=16384)
def stem(word: str) -> str:
    """Stemming-lite: ``operating``, ``operations``, ``operational`` -> ``oper``.

    At most two suffixes come off, and never below three letters, so ``sales`` and
    ``sale`` meet while ``gas`` stays ``gas``.
    """
    word = word.lower().strip("'’").removesuffix("'s").removesuffix("’s")
    for _ in range(2):
        for suffix in _SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                word = word[: -len(suffix)]
                break
    return word
