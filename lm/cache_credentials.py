"""Credentials in a server URL (``--api-base http://user:pass@host/v1``) kept off disk.

DSPy leaves ``api_base`` out of its cache keys, but on the LiteLLM route it pickles
LiteLLM's response object into its disk cache, and that object records the URL it was
sent to (``_hidden_params["api_base"]``), password and all, in a file anyone who can read
the cache directory can read. So once a model is built on such a URL, every value DSPy
caches has that URL's secrets masked first. The cache keys stay as they are (they never
held the URL), so answers are found again exactly as before; only the record of where an
answer came from reads ``REDACTED``.
"""

from __future__ import annotations

import copy
import threading
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

import dspy

from lm.redaction import REDACTED

MIN_SECRET_CHARS = 8  # shorter query values ("v=1", "model=x") are settings, not keys

_secrets: set[str] = set()
_lock = threading.Lock()


def url_secrets(url: str) -> set[str]:
    """What in ``url`` is secret: its user info and query values, as written and decoded."""
    parts = urlsplit(url)
    found: set[str] = set()
    if "@" in parts.netloc:
        userinfo = parts.netloc.rsplit("@", 1)[0]
        found.add(userinfo)  # the user name alone is no secret: an answer may contain it
        if ":" in userinfo:
            found.add(userinfo.split(":", 1)[1])
    found |= {value for _, value in parse_qsl(parts.query) if len(value) >= MIN_SECRET_CHARS}
    found = {s for s in found if s}
    return found | {unquote(s) for s in found}


def masked(value: Any, secrets: frozenset[str]) -> Any:
    """``value`` with every secret in its text replaced; an object with LiteLLM's
    ``_hidden_params`` is copied with them masked (the caller's object is left alone)."""
    if isinstance(value, str):
        for secret in sorted(secrets, key=len, reverse=True):
            value = value.replace(secret, REDACTED)
        return value
    if isinstance(value, dict):
        return {key: masked(item, secrets) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(masked(item, secrets) for item in value)
    hidden = getattr(value, "_hidden_params", None)
    if isinstance(hidden, dict):
        value = copy.copy(value)
        value._hidden_params = masked(hidden, secrets)
    return value


class CredentialMaskingCache:
    """DSPy's cache with values masked on the way in; everything else is the cache's own."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def put(self, request: dict[str, Any], value: Any, *args: Any, **kwargs: Any) -> Any:
        with _lock:
            secrets = frozenset(_secrets)
        return self._inner.put(request, masked(value, secrets), *args, **kwargs)

    def __contains__(self, key: str) -> bool:
        return key in self._inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def mask_in_cache(url: str) -> None:
    """From now on, keep ``url``'s credentials (if it has any) out of DSPy's cache."""
    secrets = url_secrets(url)
    if not secrets:
        return
    with _lock:
        _secrets.update(secrets)
        if not isinstance(dspy.cache, CredentialMaskingCache):
            dspy.cache = CredentialMaskingCache(dspy.cache)
