"""Server-side rendering every page shares: the templates, and whether a caller wants HTML.

Its own module so the routes and the app factory both import it and neither imports the
other's module (the factory includes the routes).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

HERE = Path(__file__).resolve().parent
templates = Jinja2Templates(directory=HERE / "templates")


def wants_html(request: Request) -> bool:
    """Whether the caller is a browser page (HTML error pages) or a client (JSON errors)."""
    return not request.url.path.startswith("/api/") and "text/html" in request.headers.get(
        "accept", ""
    )


def render(request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, name, context, status_code=status_code)
