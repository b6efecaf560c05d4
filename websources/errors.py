"""The ways reading the web can fail, each a one-line message a user can act on.

Every failure is a :class:`WebSourceError`, so a caller (the command line, an agent tool)
catches one type and shows its message; none of them should ever surface as a traceback.
"""

from __future__ import annotations


class WebSourceError(Exception):
    """Reading a web source failed; ``str(exc)`` says why in one line."""


class RefusedURL(WebSourceError):
    """The URL itself is not allowed: not http(s), no host, credentials in it."""


class RefusedAddress(WebSourceError):
    """The host resolves to an address the settings do not allow (private, loopback,
    link-local, multicast, reserved, unspecified)."""


class WrongContentType(WebSourceError):
    """The server answered with a content type this reader does not handle (a PDF, an
    image, a binary download)."""


class FetchFailed(WebSourceError):
    """The fetch itself failed: timeout, connection error, HTTP error status, too many
    redirects, a response that could not be read."""


class NotConfigured(WebSourceError):
    """A news provider was asked for but the user has not configured one (or configured
    it wrongly)."""
