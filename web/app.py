"""The app factory: one FastAPI app over one store, its run folders and its settings.

Pages are rendered on the server (Jinja2, autoescaped); the JavaScript in ``static/`` only
streams the trace and opens cited pages beside the report. Every route sits behind
:class:`web.security.Gate`.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from web.grid_view import GridView
from web.mlflow_link import Dashboard
from web.page_images import PageImages
from web.rendering import HERE, render, wants_html
from web.security import Gate
from web.settings import WebSettings


def create_app(settings: WebSettings | None = None, runs: Any | None = None) -> Gate:
    """The ASGI app for ``settings``; ``runs`` is the run service (built here if not given)."""
    from web import routes_ask, routes_grid, routes_note, routes_prices, routes_runs

    settings = settings or WebSettings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        # Runs still going are stopped and recorded so (web.run_control); off the event
        # loop, since a run is given a moment to stop by itself.
        await asyncio.to_thread(app.state.runs.close)
        await asyncio.to_thread(app.state.dashboard.stop)  # an MLflow UI started from a page
        app.state.grid.close()

    app = FastAPI(
        lifespan=lifespan,
        title="Wissen Research",
        docs_url=None,
        redoc_url=None,
        openapi_url=None,  # no schema browser: the app is its own documentation
    )
    app.state.settings = settings
    app.state.grid = GridView(settings.store)
    app.state.images = PageImages(settings.pdf_dirs)
    app.state.dashboard = Dashboard(settings.mlflow_ui)
    if runs is None:
        from web.run_control import RunControl

        runs = RunControl(settings.store, settings.max_runs, settings.concurrency, settings.track)
    app.state.runs = runs
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    app.include_router(routes_ask.router)
    app.include_router(routes_grid.router)
    app.include_router(routes_runs.router)
    app.include_router(routes_prices.router)
    app.include_router(routes_note.router)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        message = exc.detail if isinstance(exc.detail, str) else "error"
        if wants_html(request):
            return render(request, "error.html", exc.status_code, message=message)
        return JSONResponse({"error": message}, status_code=exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError):
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(x) for x in first.get("loc", ()) if x not in ("query", "body"))
        message = f"bad {where or 'request'}: {first.get('msg', 'invalid value')}"
        if wants_html(request):
            return render(request, "error.html", 400, message=message)
        return JSONResponse({"error": message}, status_code=400)

    return Gate(app, settings)
