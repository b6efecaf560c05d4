"""Showing text that came from outside (file names, error messages) on a terminal, inert.

A file name may hold terminal escape codes (clear the screen, recolour, retitle the
window) or Rich markup (``[red]``); echoed raw, either would act on the user's terminal or
garble the line. Unprintable characters are shown as Python escapes (``\\x1b``) rather
than dropped, as the question cleaner drops them, so the name stays identifiable: the user
can still find and rename the file.
"""

from __future__ import annotations

import re

from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.text import Text

#: A footnote line of a Sources block (``¹ MMM 10-K FY2022 p.48 …``).
_FOOTNOTE_LINE = re.compile(r"^[⁰¹²³⁴⁵⁶⁷⁸⁹]+ ", re.MULTILINE)


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


def print_markdown(markdown: str, console: Console) -> None:
    """Print a report's or note's Markdown, every block wrapped at the terminal's width.

    Wrapped by Rich, not soft-wrapped: with ``soft_wrap`` Rich leaves a long paragraph to
    the terminal to fold but crops a list item at the width, so the **Scope** notes (and
    the formulas and Sources) lost their ends on a narrow terminal. Here each block wraps
    at word boundaries, list items under their bullet, and nothing is cut. The Sources'
    footnotes are lines of one paragraph in Markdown, which a renderer joins into one run
    of text; each ends in a hard break here, so each starts its own line.
    """
    lines = markdown.split("\n")
    broken = [
        line + "  " if _FOOTNOTE_LINE.match(line) and i + 1 < len(lines) and lines[i + 1] else line
        for i, line in enumerate(lines)
    ]
    console.print(Markdown("\n".join(broken)), soft_wrap=False)
