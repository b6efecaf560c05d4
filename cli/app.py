"""The ``research`` command line."""

from __future__ import annotations

from cli.environment import apply_offline_defaults

apply_offline_defaults()

import typer  # noqa: E402

from cli import (  # noqa: E402
    ask_command,
    dashboard_command,
    eval_command,
    facts_command,
    fetch_command,
    grid_commands,
    note_command,
    optimise_command,
    prices_command,
    runs_command,
    serve_command,
    web_sources_command,
)
from cli.errors import run_guarded  # noqa: E402

app = typer.Typer(
    name="research",
    help="Wissen Research: equity research over real filings, every claim cited to a page.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
grid_commands.register(app)
facts_command.register(app)
fetch_command.register(app)
prices_command.register(app)
note_command.register(app)
ask_command.register(app)
eval_command.register(app)
optimise_command.register(app)
dashboard_command.register(app)
runs_command.register(app)
serve_command.register(app)
web_sources_command.register(app)


def main() -> None:
    run_guarded(app)


if __name__ == "__main__":
    main()
