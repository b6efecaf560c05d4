"""Grid and page routes: the matrix with its search box, the page viewer and page images.

HTML for people (``/grid``, ``/pages/{uid}``), JSON for the page's own scripts and for
clients (``/api/search``, ``/api/pages/{uid}``). Page text is untrusted: the HTML view lets
Jinja escape it and the JSON view hands it over as data (highlighted pieces, never markup).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import JSONResponse, Response

from retrieval.browse import BrowseError
from retrieval.pages import Page
from retrieval.search.hybrid import Hit
from web.figures import MAX_FIGURE_CHARS, MAX_QUOTE_CHARS, find_marks, segments
from web.grid_view import MAX_HITS, SearchRequest
from web.rendering import render
from web.settings import MAX_QUERY_CHARS

router = APIRouter()
Text = Annotated[str | None, Query(max_length=40)]
QueryText = Annotated[str, Query(max_length=MAX_QUERY_CHARS)]
Figure = Annotated[str | None, Query(max_length=MAX_FIGURE_CHARS)]
#: The cited sentence, for a citation with no figure (or one the page does not print).
Quote = Annotated[str | None, Query(max_length=MAX_QUOTE_CHARS)]
K = Annotated[int, Query(ge=1, le=MAX_HITS)]


def _hit_json(hit: Hit) -> dict[str, Any]:
    return {
        "uid": hit.uid,
        "page_id": hit.page_id,
        "doc_label": hit.doc_label,
        "page": hit.page_index + 1,
        "score": round(hit.score, 6),
        "snippet": hit.snippet,
    }


def _page(request: Request, uid: str) -> Page:
    page = request.app.state.grid.page(uid)
    if page is None:
        raise HTTPException(404, f"no page with uid {uid!r} in the grid")
    return page


def _blank(value: str | None) -> str | None:
    return value.strip() or None if value else None


@router.get("/grid")
def grid_page(
    request: Request,
    q: QueryText = "",
    ticker: Text = None,
    fy: Text = None,
    fq: Text = None,
    doc_type: Text = None,
    k: K = 10,
):
    """The ticker × fiscal-period matrix; with ``q``, search results under it."""
    search = SearchRequest(q, _blank(ticker), _blank(fy), _blank(fq), _blank(doc_type), k)
    hits, error = [], None
    if q.strip():
        try:
            hits = request.app.state.grid.search(search)
        except BrowseError as exc:
            error = str(exc)
    return render(
        request,
        "grid.html",
        400 if error else 200,
        matrix=request.app.state.grid.matrix(),
        search=search,
        hits=hits,
        error=error,
    )


@router.get("/api/search")
def search_api(
    request: Request,
    q: QueryText,
    ticker: Text = None,
    fy: Text = None,
    fq: Text = None,
    doc_type: Text = None,
    k: K = 10,
):
    """``research search`` as JSON: the same filters, the same checks, the same ranking."""
    search = SearchRequest(q, _blank(ticker), _blank(fy), _blank(fq), _blank(doc_type), k)
    try:
        hits = request.app.state.grid.search(search)
    except BrowseError as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)
    return {"hits": [_hit_json(h) for h in hits]}


@router.get("/api/grid")
def grid_api(request: Request):
    """The matrix as JSON: one entry per populated cell."""
    matrix = request.app.state.grid.matrix()
    return {
        "pages": matrix.pages,
        "documents": matrix.documents,
        "vectors": matrix.vectors,
        "cells": [
            {
                "ticker": c.ticker,
                "company": c.company,
                "fy": c.fy,
                "fq": c.fq,
                "doc_types": list(c.doc_types),
                "pages": c.pages,
            }
            for c in matrix.cells.values()
        ],
    }


def page_json(
    request: Request, page: Page, figure: str | None, quote: str | None = None
) -> dict[str, Any]:
    """The page as data; ``segments`` are its text cut at what the citation vouches for:
    ``figure`` where the page prints it, else the passage saying what ``quote`` says."""
    images = request.app.state.images
    spans, marked = find_marks(page.text, figure, quote)
    return {
        "uid": page.uid,
        "page_id": page.page_id,
        "doc_label": page.doc_label,
        "doc_name": page.doc_name,
        "page": page.page_index + 1,
        "figure": figure,
        "quote": quote,
        "marked": marked or None,  # "figure", "sentence" (the cited passage), or None
        "segments": [{"text": text, "mark": mark} for text, mark in segments(page.text, spans)],
        "image": f"/pages/{page.uid}/image.png" if images.available(page) else None,
    }


@router.get("/pages/{uid}")
def page_view(request: Request, uid: str, figure: Figure = None, quote: Quote = None):
    """One page: document, page number, text with the cited figure or sentence marked (and
    scrolled to), and its image."""
    page = _page(request, uid)
    return render(
        request, "page.html", page=page_json(request, page, _blank(figure), _blank(quote))
    )


@router.get("/api/pages/{uid}")
def page_api(request: Request, uid: str, figure: Figure = None, quote: Quote = None):
    return page_json(request, _page(request, uid), _blank(figure), _blank(quote))


@router.get("/pages/{uid}/image.png")
def page_image(request: Request, uid: str):
    """The page rendered from its PDF, when the server was given that PDF (``--pdfs``)."""
    image = request.app.state.images.png(_page(request, uid))
    if image is None:
        raise HTTPException(404, "no image for this page: its PDF was not given to the server")
    return Response(image, media_type="image/png", headers={"Cache-Control": "max-age=3600"})
