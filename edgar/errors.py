"""The errors a fetch can end in, split by who can fix them.

Why two kinds: the command line exits 2 for input the user can correct (no User-Agent,
an unknown ticker, a bad ``--forms``) and 1 for a fetch that failed on the way (the SEC
server kept failing, a document could not be read), as every ``research`` command does.
"""

from __future__ import annotations


class EdgarError(Exception):
    """A fetch failed on the way (network, server, a document that cannot be read)."""


class EdgarInputError(EdgarError):
    """Input the user can correct: a missing User-Agent, an unknown ticker, a bad option."""


class EdgarHTTPError(EdgarError):
    """A request that still failed after its retries (or failed in a way not worth retrying).

    ``status`` is the HTTP status, or None when no response came (timeout, refused).
    """

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class DocumentError(EdgarError):
    """A primary document that cannot be turned into pages (empty, damaged, unknown type)."""
