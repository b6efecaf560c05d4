"""What ``research grid`` says about the backend: where the grid lives and its index state."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import platformdirs


def backend_lines(store: Any) -> list[str]:
    """One line for the backend and one for its indexes, for either store."""
    if hasattr(store, "index_state"):
        indexes = store.index_state()
        hnsw = [f"{name} ({size})" for name, kind, size in indexes if kind == "hnsw"]
        text = [f"{name} ({size})" for name, kind, size in indexes if kind == "gin"]
        return [
            f"backend: PostgreSQL {store.server_version} + pgvector at {store.location}",
            "indexes: full text "
            + (", ".join(text) or "missing")
            + "; vectors (HNSW, cosine) "
            + (", ".join(hnsw) or "not built yet: dense search scans exactly"),
        ]
    size = store.path.stat().st_size if store.path.exists() else 0
    return [
        f"backend: SQLite file {store.path} ({size / 1e6:.1f} MB)",
        "indexes: full text FTS5 (BM25); vectors scanned exactly (no vector index)",
    ]


def embed_job_setting(store: Any) -> tuple[Path, dict[str, str]]:
    """(log file, environment) for a background ``research embed`` on ``store``.

    The store reaches the child through ``$WISSEN_STORE``, not its command line, where any
    user of the machine could read a server password.
    """
    env = {**os.environ}
    if hasattr(store, "uri"):
        env["WISSEN_STORE"] = store.uri
        log = Path(platformdirs.user_data_dir("wissen-research")) / "embed-postgresql.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        return log, env
    env["WISSEN_STORE"] = str(store.path)
    return store.path.with_suffix(".embed.log"), env
