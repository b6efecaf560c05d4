"""``research runs``: past research runs, newest first, with status and progress.

Run directories and their statuses are ``runs.run_dir``'s; this command only lays them out,
one greppable line per run (or JSON).
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console

from cli.errors import say
from cli.terminal_text import printable
from runs.meta_shape import UNREADABLE
from runs.paths import runs_dir
from runs.run_dir import FAILED, INCOMPLETE, INTERRUPTED, RUNNING, list_runs

console = Console(soft_wrap=True)

MODEL_WIDTH, QUESTION_MIN_WIDTH = 32, 20
STATUS_STYLE = {
    FAILED: "red",
    INCOMPLETE: "yellow",
    INTERRUPTED: "yellow",
    RUNNING: "cyan",
    UNREADABLE: "red",
}


def runs_command(
    as_json: Annotated[bool, typer.Option("--json", help="print the runs as JSON")] = False,
) -> None:
    """List past research runs, newest first."""
    rows = list_runs()
    if as_json:
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    if not rows:
        say(f"no runs yet in {runs_dir()}")
        return
    # Fixed columns, then the question in whatever width is left: one greppable line per run.
    rows_text = [
        [
            row["run_id"],
            row["started_at"][:16].replace("T", " "),
            row["status"],
            f"{row['slices_done']}/{row['slices']}",
            f"{row['probes_done']}/{row['probes']}",
            _clip(printable(row["model"]), MODEL_WIDTH),
        ]
        for row in rows
    ]
    header = ["RUN", "DATE", "STATUS", "SLICES", "PROBES", "MODEL"]
    widths = [max(len(r[k]) for r in [header, *rows_text]) for k in range(len(header))]
    room = max(console.width - sum(widths) - 2 * len(widths), QUESTION_MIN_WIDTH)
    console.print(_line(header, widths) + "QUESTION", style="bold", highlight=False)
    for cells, row in zip(rows_text, rows, strict=True):
        shown = row["error"] if row["status"] == UNREADABLE else row["question"]  # why
        line = _line(cells, widths) + _clip(printable(shown), room)
        console.print(line, style=STATUS_STYLE.get(row["status"]), highlight=False, markup=False)


def _line(cells: list[str], widths: list[int]) -> str:
    return "".join(cell.ljust(width + 2) for cell, width in zip(cells, widths, strict=True))


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def register(app: typer.Typer) -> None:
    app.command("runs")(runs_command)
