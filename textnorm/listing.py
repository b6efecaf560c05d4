"""Items as a sentence lists them."""

from __future__ import annotations

from collections.abc import Sequence


def listed(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` (no serial comma, as the answers write)."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"
