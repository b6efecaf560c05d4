"""What ``research eval`` and ``research optimise`` share: the ``--set`` option, the examples
a grid can answer, and the table of metric means."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.table import Table

from cli.errors import fail, say
from cli.terminal_text import plain

SetOption = Annotated[
    str, typer.Option("--set", help="golden set: financebench, planner or reports")
]


def metric_table(title: str, columns: dict[str, dict[str, float]]) -> Table:
    """One row per metric, one column per program/split (means, 0-1)."""
    table = Table(title=plain(title), title_justify="left")  # it names the model: plain text
    table.add_column("metric")
    for name in columns:
        table.add_column(name, justify="right")
    metrics: list[str] = []
    for values in columns.values():
        metrics += [m for m in values if m not in metrics]
    for metric in metrics:
        table.add_row(
            metric, *(f"{v[metric]:.3f}" if metric in v else "-" for v in columns.values())
        )
    return table


def answerable_examples(task: Any, name: str, split: str | None, grid: Any, limit: int | None):
    """:func:`evaluation.examples.answerable_examples`, its errors as one line (exit 2)."""
    from evaluation.examples import answerable_examples as answerable

    try:
        return answerable(task, name, split, grid, limit, say)
    except ValueError as exc:
        raise fail(str(exc)) from None
