"""Choices among a statement's rows that code makes, so the figure probe and its answer
ask one place: the largest liability (:mod:`programs.largest_items`) and the operating
expense line that grew most or is largest (:mod:`programs.expense_lines`)."""

from __future__ import annotations

from collections.abc import Sequence

from citations.markup import CitedAnswer
from domain.cells import SliceRef
from programs.expense_lines import (
    asks_expense_lines,
    compares_years,
    expense_answer,
    expense_probe,
)
from programs.largest_items import largest_answer, largest_probe, read_largest_ask
from retrieval.facts.model import Fact
from signatures.probes import Probe
from signatures.synthesiser import Figure

__all__ = ["asks_row_choice", "compares_years", "row_choice_answer", "row_choice_probe"]


def asks_row_choice(question: str) -> bool:
    """Whether ``question`` asks for a choice among a statement's rows that code makes."""
    return read_largest_ask(question) is not None or asks_expense_lines(question)


def row_choice_probe(question: str, facts: Sequence[Fact], ref: SliceRef) -> Probe | None:
    """The figure probe for such a choice, when the slice's statements give it."""
    return largest_probe(question, facts, ref) or expense_probe(question, facts, ref)


def row_choice_answer(
    question: str, facts: Sequence[Fact], ref: SliceRef
) -> tuple[CitedAnswer, Figure] | None:
    """Code's answer to such a choice from the slice's facts, or None."""
    return largest_answer(question, facts, ref) or expense_answer(question, facts, ref)
