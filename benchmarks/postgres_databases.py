"""A throw-away database on a PostgreSQL server, for benchmarks that build a grid from scratch."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit

import psycopg


def with_database(uri: str, database: str) -> str:
    """``uri`` pointing at ``database`` on the same server."""
    parts = urlsplit(uri)
    return urlunsplit((parts.scheme, parts.netloc, "/" + database, parts.query, ""))


@contextmanager
def temporary_database(server_uri: str) -> Iterator[str]:
    """The address of a new, empty database on ``server_uri``'s server; dropped afterwards."""
    name = f"wissen_bench_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server_uri, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield with_database(server_uri, name)
    finally:
        with psycopg.connect(server_uri, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
