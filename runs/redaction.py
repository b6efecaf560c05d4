"""Secrets out of everything a run writes: URL credentials masked before they reach a file.

A ``--api-base`` may carry ``user:pass@`` or a key-like query parameter; run records,
``meta.json``, MLflow and reports must not. The rule itself is ``lm.redaction``'s: the
model layer masks the same URLs in its own error messages and logs, and it may import no
other package of the project, so the one copy of the rule lives there.
"""

from __future__ import annotations

from lm.redaction import REDACTED, redact

__all__ = ["REDACTED", "redact"]
