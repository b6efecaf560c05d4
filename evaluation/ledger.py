"""A ledger of finished examples: one JSON line per example, written as each one ends.

Why: on the embedded model one research run costs a minute or more, so an evaluation or
a compile on two cores takes hours. Each finished example is appended and fsynced at
once; the next run over the same ledger reads those rows back instead of running them
again, so killing a compile loses at most the example in flight. A torn last line (the
process died mid-write) is ignored and that example runs again.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from metrics._inputs import field as field_of


def example_id(example: Any) -> str:
    """An example's ``id``, or a hash of its question when it has none."""
    given = field_of(example, "id")
    if given:
        return str(given)
    question = str(field_of(example, "question", ""))
    return "q-" + hashlib.sha256(question.encode()).hexdigest()[:12]


class Ledger:
    """Rows by example id, read from ``path`` and appended to it.

    A missing key is looked up in the file again before it is reported missing, so two
    processes working through the same examples (say, from opposite ends) skip what the
    other has finished.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.rows: dict[str, dict[str, Any]] = {}
        self._read()

    def _read(self) -> None:
        if not self.path.exists():
            return
        for line in self.path.read_text().splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line torn by a kill: that example runs again
            if isinstance(row, dict) and "id" in row:
                self.rows[str(row["id"])] = row

    def get(self, key: str) -> dict[str, Any] | None:
        if key not in self.rows:
            self._read()
        return self.rows.get(key)

    def add(self, row: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a") as handle:
            handle.write(json.dumps(row, default=str) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        self.rows[str(row["id"])] = row
