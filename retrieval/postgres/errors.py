"""What can go wrong between the grid and a PostgreSQL server, said in one line.

Every message names the server by its redacted address (never the password) and says what
to do. :class:`StoreUnavailable` is the one a search raises when the server goes away
mid-run; under the agents' tools it and the other faults of the store itself
(:func:`store_fault_message`) become ``retrieval.search.tools.StoreFault``, which stops the run
(marked failed, resumable once the server is back) rather than spending LM calls on
searches that cannot succeed.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

import psycopg
import psycopg_pool

POSTGRES_SCHEMES = ("postgresql://", "postgres://", "postgresql+psycopg://")


class StoreError(RuntimeError):
    """The grid's server refused or failed an operation; the message says why and what to do."""


class StoreUnavailable(StoreError):
    """The server cannot be reached, or went away during an operation."""


class StoreConfigurationError(StoreError):
    """The server answers but the grid cannot live there as it is (credentials, extension,
    schema version)."""


def is_postgres_uri(location: object) -> bool:
    return isinstance(location, str) and location.lower().startswith(POSTGRES_SCHEMES)


def connection_uri(location: str) -> str:
    """The URI libpq takes: SQLAlchemy's ``postgresql+psycopg://`` spelling is accepted too."""
    if location.lower().startswith("postgresql+psycopg://"):
        return "postgresql://" + location[len("postgresql+psycopg://") :]
    return location


def redact(uri: str) -> str:
    """``uri`` with any password replaced by ``***`` (in the netloc and in a query string)."""
    try:
        parts = urlsplit(uri)
    except ValueError:
        return "<unreadable PostgreSQL address>"
    netloc = parts.netloc
    if "@" in netloc:
        credentials, _, host = netloc.rpartition("@")
        user = credentials.split(":", 1)[0]
        netloc = f"{user}:***@{host}" if ":" in credentials else f"{user}@{host}"
    query = re.sub(r"(?i)(password=)[^&]*", r"\1***", parts.query)
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def _password(uri: str) -> str | None:
    try:
        parts = urlsplit(uri)
        found = re.search(r"(?i)password=([^&]*)", parts.query)
        return parts.password or (found.group(1) if found else None)
    except ValueError:
        return None


def _scrub(message: str, uri: str) -> str:
    """The server's message on one line, without the password if it ever appears in it."""
    secret = _password(uri)
    text = " ".join(str(message).split()).replace(uri, redact(uri))
    text = re.sub(r'(?i)\bURI: ".*?"', "URI", text)  # libpq quotes a malformed address whole
    if secret:
        text = text.replace(secret, "***")
    return text[:300]


INSTALL_VECTOR = (
    "install pgvector on the server (https://github.com/pgvector/pgvector#installation: "
    "e.g. `apt install postgresql-16-pgvector`, or the pgvector/pgvector Docker image) and "
    "run `CREATE EXTENSION vector;` in the database as a superuser"
)


def translate(exc: BaseException, uri: str, doing: str) -> StoreError:
    """The typed one-line error for a psycopg failure while ``doing`` (e.g. "searching")."""
    where = redact(uri)
    message = _scrub(str(exc), uri)
    sqlstate = getattr(exc, "sqlstate", None) or ""
    if isinstance(exc, psycopg.ProgrammingError) and not sqlstate:
        return StoreConfigurationError(
            f"the store address {where} is not a PostgreSQL address libpq can read ({message}); "
            "write it as postgresql://USER:PASSWORD@HOST:PORT/DATABASE"
        )
    if isinstance(exc, psycopg_pool.PoolTimeout):
        return StoreUnavailable(
            f"the grid server {where} did not answer while {doing}: is it running and reachable?"
        )
    if sqlstate in ("28P01", "28000"):
        return StoreConfigurationError(
            f"the grid server {where} refused the credentials: check the user and password "
            "in the store address (or PGPASSWORD / ~/.pgpass)"
        )
    if sqlstate == "3D000":
        return StoreConfigurationError(
            f"the database in {where} does not exist: create it (createdb) or fix the address"
        )
    if "vector" in message and (
        sqlstate in ("0A000", "58P01", "42704") or "extension" in message.lower()
    ):
        return StoreConfigurationError(
            f"the database {where} has no `vector` extension: {INSTALL_VECTOR}"
        )
    if sqlstate == "42501":
        return StoreConfigurationError(
            f"the user in {where} may not do this while {doing} ({message}): grant it, or have "
            "an owner create the grid's schema once"
        )
    if isinstance(exc, psycopg.OperationalError) or sqlstate.startswith(("08", "57P")):
        if "password authentication failed" in message or "no password supplied" in message:
            return StoreConfigurationError(
                f"the grid server {where} refused the credentials: check the user and password "
                "in the store address (or PGPASSWORD / ~/.pgpass)"
            )
        return StoreUnavailable(f"the grid server {where} is unavailable while {doing}: {message}")
    return StoreError(f"the grid server {where} failed while {doing}: {message}")


def store_fault_message(exc: BaseException, doing: str) -> str | None:
    """``exc``'s one-line message if it is a fault of the store itself, else None.

    A fault is what no other query could avoid: the server unreachable, gone or shutting
    down (psycopg's ``OperationalError``: connection, resource and operator-intervention
    states), a connection that broke, a pool with no connection to give, or a grid the
    server no longer lets this user read. Any other error (a value the server refuses)
    belongs to the call that made it. Raw psycopg errors come from a store that did not
    translate them; their message is scrubbed of any ``user:password@``.
    """
    if isinstance(exc, (StoreUnavailable, StoreConfigurationError)):
        return str(exc)
    connection_faults = (psycopg.OperationalError, psycopg.InterfaceError, psycopg_pool.PoolTimeout)
    if isinstance(exc, connection_faults):
        text = re.sub(r"(://[^:/@\s]*):[^@\s]*@", r"\1:***@", " ".join(str(exc).split()))
        return f"the grid server is unavailable while {doing}: {text[:300] or type(exc).__name__}"
    return None
