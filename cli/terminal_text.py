"""Showing text that came from outside (file names, error messages) on a terminal, inert.

A file name may hold terminal escape codes (clear the screen, recolour, retitle the
window) or Rich markup (``[red]``); echoed raw, either would act on the user's terminal or
garble the line. Unprintable characters are shown as Python escapes (``\\x1b``) rather
than dropped, as the question cleaner drops them, so the name stays identifiable: the user
can still find and rename the file.
"""

from __future__ import annotations

from rich.markup import escape


def printable(text: str) -> str:
    """``text`` with every unprintable character (controls, bidi overrides, lone
    surrogates from undecodable bytes) written as its backslash escape."""
    return "".join(
        ch if ch.isprintable() else ch.encode("unicode_escape", "backslashreplace").decode()
        for ch in text
    )


def for_terminal(text: object) -> str:
    """``text`` safe inside a Rich markup string: printable, with markup escaped."""
    return escape(printable(str(text)))
