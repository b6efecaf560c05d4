"""Whether a run directory's ``meta.json`` (or ``run.json``) can be trusted as one.

Valid JSON of the wrong shape (a list, a string, a number where text belongs: a hand edit,
another tool's file) must not break ``research runs`` for every other run, nor reach a
resume as if it were a run. Such a run reads as ``unreadable``, with the reason as its
error; its files are left as they are.
"""

from __future__ import annotations

from typing import Any

UNREADABLE = "unreadable"

# The fields a run listing and status reads, and the JSON types they must have when present.
_TEXT = ("question", "model", "status", "started_at", "error")
_COUNTS = ("lm_calls",)


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "text", bool: "true/false"}
    return names.get(type(value), "a number" if isinstance(value, int | float) else "null")


def shape_problem(data: Any, name: str) -> str | None:
    """Why ``data`` read from ``name`` is not a usable run file, or None if it is."""
    if not isinstance(data, dict):
        return f"{name} holds {_json_type(data)}, not a JSON object"
    for key in _TEXT:
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            return f"{name}: {key!r} is {_json_type(value)}, not text"
    for key in _COUNTS:
        value = data.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            return f"{name}: {key!r} is {_json_type(value)}, not a count"
    return None


def unreadable_meta(problem: str) -> dict[str, Any]:
    """The meta a damaged run is shown with: status ``unreadable``, the problem as error."""
    return {"status": UNREADABLE, "error": problem}
