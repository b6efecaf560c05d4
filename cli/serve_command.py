"""``research serve``: the web app on 127.0.0.1, or behind an access token anywhere else."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Annotated

import typer

from cli.errors import fail, stderr
from cli.grid_commands import StoreOption


def _port_free(host: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def serve_command(
    host: Annotated[
        str, typer.Option(help="address to bind; anything but loopback requires a token")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535)] = 8000,
    token: Annotated[
        str | None,
        typer.Option(
            envvar="WISSEN_SERVE_TOKEN",
            help="access token (generated and printed when binding beyond loopback)",
        ),
    ] = None,
    store: StoreOption = None,
    pdfs: Annotated[
        list[Path] | None,
        typer.Option(help="folder of the filing PDFs the grid was built from (page images)"),
    ] = None,
    max_runs: Annotated[
        int, typer.Option(min=1, max=64, help="runs going at once; more are refused")
    ] = 1,
    concurrency: Annotated[
        int, typer.Option(min=1, max=64, help="workers per run for its slices and probes")
    ] = 8,
    track: Annotated[bool, typer.Option(help="log each run to MLflow")] = True,
    mlflow_ui: Annotated[
        str, typer.Option(help="where `research dashboard` serves MLflow")
    ] = "http://127.0.0.1:5000",
) -> None:
    """Ask, read cited reports beside their pages, and browse runs and the grid, in a browser."""
    import uvicorn

    from web.app import create_app
    from web.settings import WebSettings, is_loopback, new_token

    for folder in pdfs or []:
        if not folder.is_dir():
            raise fail(f"--pdfs {folder} is not a folder")
    generated = token is None and not is_loopback(host)
    if generated:
        token = new_token()
    try:
        settings = WebSettings(
            host=host,
            port=port,
            token=token,
            store=store,
            pdf_dirs=tuple(pdfs or ()),
            mlflow_ui=mlflow_ui,
            max_runs=max_runs,
            concurrency=concurrency,
            track=track,
        )
    except ValueError as exc:
        raise fail(str(exc)) from None
    if not _port_free(host, port):
        raise fail(f"cannot listen on {host}:{port} (in use, or not an address of this machine)")
    app = create_app(settings)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    if token:
        stderr.print(f"access token{' (generated)' if generated else ''}: {token}", highlight=False)
        url += f"?token={token}"
    stderr.print(f"Wissen Research: {url}  (Ctrl-C to stop)", highlight=False)
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)
