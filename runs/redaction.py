"""Secrets out of everything a run writes: URL credentials masked before they reach a file.

A ``--api-base`` may carry ``user:pass@`` or a key-like query parameter; run records,
``meta.json``, MLflow and reports must not.
"""

from __future__ import annotations

import re

REDACTED = "REDACTED"  # plain text: Markdown would read "***" as emphasis
_USERINFO_RE = re.compile(r"(?<=://)[^/\s@]+@")
_SECRET_QUERY_RE = re.compile(
    r"([?&](?:api[_-]?key|key|token|access[_-]?token|secret|password|sig|signature)=)[^&#\s]+",
    re.IGNORECASE,
)


def redact(text: str) -> str:
    """``text`` with URL credentials masked: ``user:pass@`` and key-like query parameters."""
    text = _USERINFO_RE.sub(REDACTED + "@", text)
    return _SECRET_QUERY_RE.sub(lambda m: m.group(1) + REDACTED, text)
