"""Exit codes and the rule that users see messages, not tracebacks.

Exit codes: 0 success; 1 the work failed (e.g. a file could not be read); 2 bad input
(unknown ticker, year outside the grid, empty query, bad option); 130 interrupted.
``--debug`` anywhere on the command line shows the traceback as well.
"""

from __future__ import annotations

import sys

import typer
from rich.console import Console

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130

stderr = Console(stderr=True, soft_wrap=True)


class UserError(Exception):
    """A problem the user can fix; its message says how."""

    exit_code = EXIT_BAD_INPUT


def fail(message: str, code: int = EXIT_BAD_INPUT) -> typer.Exit:
    """Print ``message`` to stderr and return the Exit to raise."""
    stderr.print(f"[bold red]error:[/] {message}", highlight=False)
    return typer.Exit(code)


def run_guarded(app: typer.Typer) -> None:
    debug = "--debug" in sys.argv
    if debug:
        sys.argv.remove("--debug")
    try:
        # Not standalone: click would turn Ctrl-C into "Aborted!" and exit 1.
        code = app(standalone_mode=False)
    except (KeyboardInterrupt, typer.Abort):
        stderr.print("interrupted")
        sys.exit(EXIT_INTERRUPTED)
    except typer.TyperException as exc:  # usage errors (typer's bundled click): exit 2
        if hasattr(exc, "show"):
            exc.show()
        sys.exit(getattr(exc, "exit_code", EXIT_BAD_INPUT))
    except SystemExit:
        raise
    except Exception as exc:
        if debug:
            raise
        stderr.print(
            f"[bold red]error:[/] {exc}  (rerun with --debug for details)", highlight=False
        )
        sys.exit(EXIT_FAILED)
    sys.exit(code if isinstance(code, int) else EXIT_OK)
