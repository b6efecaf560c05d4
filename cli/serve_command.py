"""``research serve``: the web app on 127.0.0.1, or behind an access token anywhere else."""

from __future__ import annotations

import asyncio
import errno
import os
import socket
from pathlib import Path
from typing import Annotated, Any

import typer

from cli.errors import EXIT_FAILED, fail, say
from cli.grid_commands import StoreOption, announce_new_store


def port_problem(host: str, port: int) -> str | None:
    """Why uvicorn could not listen on ``host:port``, in one line, or None if it can.

    The check binds as uvicorn does, with ``SO_REUSEADDR`` (asyncio sets it on every POSIX
    listening socket), so the sockets a stopped server leaves in TIME_WAIT for about a
    minute do not count as "in use": a restart on the same port works at once. What still
    fails is what would fail uvicorn too: a process listening there, an address this machine
    does not have, or a port this user may not bind.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    shown = f"[{host}]" if ":" in host else host
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        if os.name != "nt":  # on Windows the option lets two listeners share a port
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", None)):
                return f"port {port} is in use by another process; choose --port N"
            if exc.errno == errno.EADDRNOTAVAIL:
                return f"cannot listen on {shown}:{port}: {host} is not an address of this machine"
            if exc.errno == errno.EACCES:
                return f"cannot listen on {shown}:{port}: this user may not use port {port}"
            return f"cannot listen on {shown}:{port}: {exc.strerror or exc}"
    return None


def run_stopping_server() -> type:
    """uvicorn's server, stopping the runs in flight before it waits for connections.

    uvicorn's shutdown waits for every open response before the app's own shutdown runs,
    and a run's live trace is a response that lasts as long as the run: Ctrl-C would wait
    for the run, or (pressed twice) skip the app's shutdown and leave the run's MLflow run
    ``RUNNING``. Stopping the runs first ends their traces' streams, so shutdown goes on.
    """
    import uvicorn

    class RunStoppingServer(uvicorn.Server):
        def __init__(self, config: uvicorn.Config, runs: Any) -> None:
            super().__init__(config)
            self.runs = runs
            self.stopped: list[str] = []

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            self.stopped = await asyncio.to_thread(self.runs.close)
            await super().shutdown(sockets)

    return RunStoppingServer


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
    from web.run_control import RunControl
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
    if problem := port_problem(host, port):
        raise fail(problem)
    announce_new_store(store)
    runs = RunControl(store, max_runs, concurrency, track)  # autologging on, in this thread
    if track:  # the store and experiment made now, not by the first run's thread
        from runs.redaction import redact
        from runs.service import prepare_run_tracking

        try:
            prepare_run_tracking()
        except Exception as exc:  # a tracking server down, a store that cannot be written
            message = redact(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
            raise fail(
                f"MLflow tracking cannot start: {message}; --no-track serves without it",
                EXIT_FAILED,
            ) from None
    app = create_app(settings, runs=runs)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    if token:
        say(f"access token{' (generated)' if generated else ''}: {token}")
        url += f"?token={token}"
    say(f"Wissen Research: {url}  (Ctrl-C to stop)")
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False)
    server = run_stopping_server()(config, runs)
    try:
        server.run()
    finally:  # also when uvicorn could not start, or a second Ctrl-C cut its shutdown short
        for run_id in [*server.stopped, *runs.close()]:
            say(f"stopped run {run_id}: Resume continues it")


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)
