"""Showing text that came from outside (file names, error messages) on a terminal, inert.

A file name may hold terminal escape codes (clear the screen, recolour, retitle the
window) or Rich markup (``[red]``); echoed raw, either would act on the user's terminal or
garble the line. Unprintable characters are shown as Python escapes (``\\x1b``) rather
than dropped, as the question cleaner drops them, so the name stays identifiable: the user
can still find and rename the file.
"""

from __future__ import annotations

from rich.markup import escape
from rich.text import Text


def printable(text: str) -> str:
    """``text`` with every unprintable character (controls, bidi overrides, lone
    surrogates from undecodable bytes) written as its backslash escape."""
    return "".join(
        ch if ch.isprintable() else ch.encode("unicode_escape", "backslashreplace").decode()
        for ch in text
    )


def printable_lines(text: str) -> str:
    """``text`` made :func:`printable` line by line: its line feeds kept as line breaks.

    Messages may span lines on purpose (the periods asked for, then on a second line the
    nearest ones the grid holds); a line feed only starts a line, while a carriage return
    or an escape code could overwrite one, so it is the one control character kept.
    """
    return "\n".join(printable(line) for line in text.split("\n"))


def for_terminal(text: object) -> str:
    """``text`` safe inside a Rich markup string: printable, with markup escaped.

    Only for text spliced into markup (``f"[yellow]skipped[/] {for_terminal(name)}"``);
    a message printed as plain text (:func:`plain`, ``cli.errors.fail``) must not be
    escaped again, or its backslashes would show.
    """
    return escape(printable(str(text)))


def plain(text: object, style: str = "") -> Text:
    """``text`` as a Rich :class:`~rich.text.Text`: printable (line breaks kept), never read
    as markup.

    A Text is rendered as it is, so ``[/b]`` can neither raise Rich's ``MarkupError`` nor
    ``[red]`` vanish, and emoji codes (``:x:``) stay as typed.
    """
    return Text(printable_lines(str(text)), style=style)
