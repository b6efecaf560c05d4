"""Exit codes and the rule that users see messages, not tracebacks.

Exit codes: 0 success; 1 the work failed (e.g. a file could not be read); 2 bad input
(unknown ticker, year outside the grid, empty query, bad option); 130 interrupted.
``--debug`` anywhere on the command line shows the traceback as well.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys

import typer
from rich.console import Console
from rich.text import Text

from cli.terminal_text import plain
from retrieval.store import StoreFault

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130

stderr = Console(stderr=True, soft_wrap=True)


class UserError(Exception):
    """A problem the user can fix; its message says how."""

    exit_code = EXIT_BAD_INPUT


def show_error(message: object, hint: str = "") -> None:
    """Print ``error: message`` (then ``hint``) on stderr: every error goes out here.

    Messages quote what users typed and what files hold (an ``--api-base``, a TOML table
    such as ``[agents.researcher]``, a file name), so the message is plain text, never Rich
    markup: ``[/b]`` in it used to raise ``MarkupError`` with a traceback and ``[red]``
    vanished. Unprintable characters are shown as escapes (``cli.terminal_text``), so a
    message cannot act on the terminal either. Only the ``error:`` label is styled.
    """
    line = Text.assemble(("error:", "bold red"), " ", plain(message))
    if hint:
        line.append(hint)
    stderr.print(line, highlight=False)


def say(message: object, style: str = "") -> None:
    """Print a plain-text note (a warning, progress) on stderr, as :func:`show_error` does
    an error: ``message`` may quote user text, so it is never read as markup."""
    stderr.print(plain(message, style), highlight=False)


def fail(message: object, code: int = EXIT_BAD_INPUT) -> typer.Exit:
    """Print ``message`` (plain text: see :func:`show_error`) to stderr and return the Exit
    to raise."""
    show_error(message)
    return typer.Exit(code)


_told: list[bool] = []  # whether this process has said it was interrupted


def interrupted(run_id: str | None = None) -> typer.Exit:
    """Say, once, that the command was interrupted (and how to resume a run, given its id);
    return the Exit to raise."""
    hint = f"; resume with `research ask --resume {run_id}`" if run_id else ""
    say(f"interrupted{hint}")
    _told.append(True)
    return typer.Exit(EXIT_INTERRUPTED)


def _exit_interrupted() -> None:
    """Leave now, without waiting for worker threads.

    Threads still inside an LM call would otherwise hold the exit for as long as the call
    takes, then fail noisily against an interpreter that is shutting down ("cannot schedule
    new futures after shutdown"). What is worth keeping is on disk by now: checkpoints are
    written whole as work finishes, and the run and its MLflow run are marked stopped.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C cannot cut this short
    if not _told:
        stderr.print("interrupted")
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(EXIT_INTERRUPTED)


def run_guarded(app: typer.Typer) -> None:
    debug = "--debug" in sys.argv
    if debug:
        sys.argv.remove("--debug")
    try:
        # Not standalone: click would turn Ctrl-C into "Aborted!" and exit 1.
        code = app(standalone_mode=False)
    except (KeyboardInterrupt, typer.Abort):
        _exit_interrupted()
    except typer.TyperException as exc:  # usage errors (typer's bundled click): exit 2
        if hasattr(exc, "show"):
            exc.show()
        sys.exit(getattr(exc, "exit_code", EXIT_BAD_INPUT))
    except SystemExit:
        raise
    except StoreFault as exc:  # a BaseException, so no agent swallows it: one line here too
        if debug:
            raise
        show_error(f"the grid store failed: {exc}")
        sys.exit(EXIT_FAILED)
    except Exception as exc:
        if debug:
            raise
        show_error(exc, "  (rerun with --debug for details)")
        sys.exit(EXIT_FAILED)
    if code == EXIT_INTERRUPTED:  # typer turns a KeyboardInterrupt into this exit code
        _exit_interrupted()
    sys.exit(code if isinstance(code, int) else EXIT_OK)
