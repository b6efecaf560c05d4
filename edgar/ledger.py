"""The fetch ledger: which filings a fetch has finished, one JSON line each.

Why a ledger beside the store: the store knows every filing stored (its ``doc_name``
ends in the accession number), but not the filings that gave no document (a primary
document without text). Those are noted here so a later fetch does not download them
again; a stored filing is skipped by what the store holds, so a ledger kept after its
store was deleted never hides a filing the new store lacks. A line is appended (and
synced) after its document's transaction commits; a fetch killed while writing a line
leaves a torn last line, which is ignored, and at most the document in flight is lost.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import platformdirs

STORED, EMPTY = "stored", "empty"


@dataclass(frozen=True)
class LedgerEntry:
    accession: str
    ticker: str
    form: str
    status: str  # STORED | EMPTY
    doc_name: str = ""
    pages: int = 0
    facts: int = 0
    fetched_at: str = ""


def ledger_path_for(store: Any) -> Path:
    """``<store file>.edgar-ledger.jsonl`` for a SQLite store; for a server store, a file in
    the user data folder named by a hash of its address (without its password)."""
    path = getattr(store, "path", None)
    if path is not None:
        return Path(f"{path}.edgar-ledger.jsonl")
    location = str(getattr(store, "location", "store"))
    digest = hashlib.sha1(location.encode()).hexdigest()[:12]
    return Path(platformdirs.user_data_dir("wissen-research")) / f"edgar-ledger-{digest}.jsonl"


class Ledger:
    """Reads the ledger once; appends an entry per finished filing."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries: dict[str, LedgerEntry] = {}
        if path.exists():
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                try:
                    entry = LedgerEntry(**json.loads(line))
                except (ValueError, TypeError):
                    continue  # a torn last line from a killed fetch, or a foreign line
                self.entries[entry.accession] = entry

    def status(self, accession: str) -> str | None:
        entry = self.entries.get(accession)
        return entry.status if entry else None

    def add(self, entry: LedgerEntry) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(asdict(entry), ensure_ascii=False) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        self.entries[entry.accession] = entry
