"""A title or label set inside a sentence: its first letter lowered, an acronym kept.

Code writes figure titles and printed row labels into prose ("the capital expenditure
rose", "Revenue (total net revenue) …"); both the calculator and the programs do, so the one
rule lives here, below both.
"""

from __future__ import annotations


def lower_first(text: str) -> str:
    """``Capital expenditure`` -> ``capital expenditure``; an acronym (``EBITDA``) stays."""
    return text[:1].lower() + text[1:] if text[1:2].islower() else text
