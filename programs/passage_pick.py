"""The passage the answer step reads first: a compiled choice among the first search's hits.

On the embedded 1.5B model the answer step leans on the block behind ``[1]``. With the gold
evidence page moved to ``[1]`` (an oracle, on the train and dev judgement questions whose
first search found it further down), two of five wrong or refused answers became right
(docs/evaluation.md). Search order is a fair first guess, right for 9 of the 15 such
questions; a model asked with no demos which passage answers picked right 5 times, and
with three demos from other companies 7 of 8. So the choice is a predictor
(:class:`signatures.researcher.PickAnsweringPassage`) that runs only once compiled (it has
demos); without them the search's own order stands.

What it decides is one number; code does the rest: the chosen hit is shown first and the
search's hit numbers are dealt again in that order, so the answer step reads it behind
``[1]``, as the oracle showed it, and cites every page by the number it is shown with.
"""

from __future__ import annotations

from typing import Any

from retrieval.search.tools import EquitySearchTool


def hit_number(mark: str) -> int | None:
    """``3`` for the mark ``[3]``; None for anything else."""
    text = str(mark).strip()
    inner = text[1:-1] if text.startswith("[") and text.endswith("]") else ""
    return int(inner) if inner.isdigit() else None


def put_first(observation: list[Any], tool: EquitySearchTool, chosen: int) -> list[Any]:
    """``observation`` (one search's hits, as the tool returned them) with the hit numbered
    ``chosen`` moved first and the search's hit numbers dealt again in the new order (in
    ``tool``: the same numbers, so no other page's changes); unchanged when ``chosen`` is not
    one of its hits or is already first."""
    pages = [item for item in observation if isinstance(item, dict) and "uid" in item]
    picked = next((p for p in pages if hit_number(p.get("cite", "")) == chosen), None)
    if picked is None or picked is pages[0]:
        return observation
    order = [picked, *(page for page in pages if page is not picked)]
    numbers = sorted(tool.numbers[page["uid"]] for page in order)
    for page, number in zip(order, numbers, strict=True):
        tool.numbers[page["uid"]] = number
    rest = [item for item in observation if item not in pages]
    return [{**page, "cite": tool.mark(page["uid"])} for page in order] + rest
