"""URL credentials masked in any text: ``user:pass@`` and key-like query parameters.

A ``--api-base`` may carry a password (``http://analyst:s3cret@host/v1``) or a key in its
query (``?api-key=…``, ``?key=…``, ``?token=…``). Such a URL appears in error messages (a
server that does not answer is named by its address), in logs and in run records, and each
of those reaches a terminal, a scrollback buffer or a file that outlives the run. It lives
here, in the leaf package that handles servers, so that ``lm`` can mask its own messages
and the run service (``runs.redaction``) can reuse the same rule for what it writes.
"""

from __future__ import annotations

import re

REDACTED = "REDACTED"  # plain text: Markdown would read "***" as emphasis
# Everything between "://" and the last "@" of the authority (a password may itself hold
# an "@"): the host part stops at the first "/", "?", "#" or whitespace.
_USERINFO_RE = re.compile(r"(?<=://)[^/?#\s]*@")
_SECRET_QUERY_RE = re.compile(
    r"([?&;](?:api[_-]?key|key|token|access[_-]?token|secret|password|sig|signature)=)"
    r"[^&#;\s]+",
    re.IGNORECASE,
)


def redact(text: str) -> str:
    """``text`` with URL credentials masked: ``user:pass@`` and key-like query parameters.

    Idempotent, so text that passes through several layers (a message, then a record that
    quotes it) may be redacted at each without harm.
    """
    text = _USERINFO_RE.sub(REDACTED + "@", text)
    return _SECRET_QUERY_RE.sub(lambda m: m.group(1) + REDACTED, text)


__all__ = ["REDACTED", "redact"]
