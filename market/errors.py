"""The two ways getting prices fails, kept apart because a user fixes them differently."""

from __future__ import annotations


class PriceDataError(ValueError):
    """The prices asked for are not there or cannot be read: an unknown ticker file, a
    malformed CSV, an empty series. The message names the file or ticker and what is wrong."""


class ProviderUnavailableError(RuntimeError):
    """The online provider could not be asked or did not answer with prices (unreachable, an
    HTTP error, an HTML page instead of CSV). The message names the provider and address."""
