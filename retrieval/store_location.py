"""Where a grid lives, parsed once: a SQLite file or a PostgreSQL server address.

``--store``, ``$WISSEN_STORE``, a config file's ``store`` and a run record's stored store all
become a :class:`StoreLocation` (``StoreLocation.parse``); every later step takes that type,
never a ``str`` here and a ``Path`` there. A server address keeps its password for
connecting (:attr:`StoreLocation.address`) and never shows it: ``str()``, ``repr()`` and the
JSON form (:meth:`StoreLocation.stored`) all hold ``***`` in its place.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

#: A PostgreSQL address (one that went through ``pathlib`` has lost a slash: it is put back).
_POSTGRES = re.compile(r"(?i)^(postgres(?:ql)?(?:\+psycopg)?):/*")
#: Its password: ``user:PASSWORD@`` in the address, or ``password=`` in its query.
_PASSWORD = re.compile(r"(?i)^([a-z+]+:/+[^:/@?#]*:)[^@/?#]+(?=@)|(password=)[^&#]+")
#: What a shown or stored address holds in place of its password.
STORE_SECRET = "***"


def without_password(address: str) -> str:
    """A PostgreSQL address with its password replaced by ``***``."""
    return _PASSWORD.sub(lambda m: (m.group(1) or m.group(2)) + STORE_SECRET, address)


class StoreLocation:
    """A grid's location: ``path`` for a SQLite file, ``address`` for a PostgreSQL server
    (immutable; equal when they name the same file or address)."""

    __slots__ = ("address", "path")

    def __init__(self, path: Path | None = None, address: str | None = None) -> None:
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "address", address)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a StoreLocation cannot be changed")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, StoreLocation):
            return NotImplemented
        return (self.path, self.address) == (other.path, other.address)

    def __hash__(self) -> int:
        return hash((self.path, self.address))

    @classmethod
    def parse(cls, value: StoreLocation | str | os.PathLike[str]) -> StoreLocation:
        """``value`` as typed: a ``postgresql://`` (``postgres://``, ``postgresql+psycopg://``)
        address, or else a SQLite file path (``~`` expanded). ValueError when empty."""
        if isinstance(value, StoreLocation):
            return value
        text = os.fspath(value) if isinstance(value, os.PathLike) else str(value)
        if not text.strip():
            raise ValueError("a store location is a SQLite file or a postgresql:// address")
        found = _POSTGRES.match(text)
        if found:
            return cls(address=f"{found.group(1)}://{text[found.end() :]}")
        return cls(path=Path(text).expanduser())

    @classmethod
    def chosen(cls, value: StoreLocation | str | os.PathLike[str] | None = None) -> StoreLocation:
        """``value``, else ``$WISSEN_STORE``, else the default SQLite file."""
        if value is not None and str(value) != "":
            return cls.parse(value)
        if env := os.environ.get("WISSEN_STORE"):
            return cls.parse(env)
        from retrieval.store import default_store_path

        return cls(path=default_store_path())

    @property
    def is_postgres(self) -> bool:
        return self.address is not None

    @property
    def has_secret(self) -> bool:
        """Whether the address holds a password (or the ``***`` stored in its place)."""
        return self.address is not None and without_password(self.address) != self.address

    @property
    def target(self) -> str | Path:
        """What a store backend opens: the file, or the address with its password."""
        return self.address if self.address is not None else self.path  # type: ignore[return-value]

    def stored(self) -> str:
        """The location as a record keeps it, findable from anywhere: a SQLite file's absolute
        path, a server's address without its password."""
        if self.address is not None:
            return without_password(self.address)
        return str(self.path.resolve())  # type: ignore[union-attr]

    def __str__(self) -> str:
        return without_password(self.address) if self.address is not None else str(self.path)

    def __repr__(self) -> str:
        return f"StoreLocation({str(self)!r})"

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        """A pydantic field of this type: parsed from text or a path, dumped (JSON) as
        :meth:`stored`, so a model's JSON never holds the password."""
        from pydantic_core import core_schema

        return core_schema.no_info_plain_validator_function(
            cls._validate,
            serialization=core_schema.plain_serializer_function_ser_schema(
                lambda v: v.stored(), when_used="json"
            ),
        )

    @classmethod
    def _validate(cls, value: Any) -> StoreLocation:
        if not isinstance(value, StoreLocation | str | os.PathLike):
            raise ValueError("a store location is a SQLite file or a postgresql:// address")
        return cls.parse(value)
