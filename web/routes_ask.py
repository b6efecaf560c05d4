"""Ask routes: the question form, starting and resuming runs, and the live trace (SSE).

Runs are started through the run service (``app.state.runs``, see ``web.run_control``) on
its own threads, so a request returns at once (303 to the run's page) and the run goes
on whether or not any tab follows it. The trace is ``/runs/{id}/events``.
"""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qsl

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, RedirectResponse, StreamingResponse

from runs.program_choice import SHIPPED, choose_program
from runs.settings import field_bounds
from web.ask_form import AskForm, AskRefused, compiled_programs, parse_form
from web.event_stream import event_stream, last_event_id
from web.rendering import render, wants_html
from web.run_control import ServerStopping, TooManyRuns
from web.run_folders import RUN_ID_RE

router = APIRouter()
FORM_TYPE = "application/x-www-form-urlencoded"


def _control(request: Request):
    return request.app.state.runs


async def _fields(request: Request) -> dict[str, str]:
    """The urlencoded form, or a JSON object of strings (the Gate has bounded its size)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip()
    if kind == "application/json":
        data = await request.json()
        if not isinstance(data, dict):
            raise AskRefused("the request body must be a JSON object")
        return {str(k): "" if v is None else str(v) for k, v in data.items()}
    if kind != FORM_TYPE:
        raise AskRefused(f"send the form as {FORM_TYPE} or application/json")
    body = (await request.body()).decode("utf-8", errors="replace")
    return dict(parse_qsl(body, keep_blank_values=True))


def _ask_page(request: Request, form: AskForm, error: str | None = None, status: int = 200):
    control = request.app.state.runs
    return render(
        request,
        "ask.html",
        status,
        form=form,
        error=error,
        programs=[p for p in compiled_programs() if p != SHIPPED],
        default_program=choose_program(None).label,
        default_model=control.default_model,
        limit=control.limit,
        bounds={name: field_bounds(name) for name in ("max_probes", "max_rounds")},
    )


@router.get("/")
def ask_page(request: Request):
    return _ask_page(request, AskForm())


@router.post("/ask")
async def ask(request: Request):
    """Start a run; a browser is sent to its page, a client gets its id (202)."""
    control = _control(request)
    form = AskForm()
    try:
        fields = await _fields(request)
        form = parse_form(fields, control.default_model)
        # Off the event loop: preparing a run (models built and checked, the program
        # loaded) takes seconds, and every other page and trace would wait for it.
        run_id = await asyncio.to_thread(control.start, form)
    except (AskRefused, ValueError) as exc:
        status = 400
        if isinstance(exc, TooManyRuns):
            status = 503 if isinstance(exc, ServerStopping) else 429
        if wants_html(request):
            return _ask_page(request, form, str(exc), status)
        return JSONResponse({"error": str(exc)}, status_code=status)
    return _started(request, run_id)


def _started(request: Request, run_id: str):
    if wants_html(request):
        return RedirectResponse(f"/runs/{run_id}", status_code=303)
    return JSONResponse({"run_id": run_id, "url": f"/runs/{run_id}"}, status_code=202)


@router.post("/runs/{run_id}/resume")
def resume(request: Request, run_id: str):
    """Continue a run that did not complete; finished work is loaded, not redone."""
    control = _control(request)
    if not RUN_ID_RE.fullmatch(run_id):
        raise HTTPException(404, f"no run {run_id!r}")
    try:
        control.resume(run_id)
    except ServerStopping as exc:
        raise HTTPException(503, str(exc)) from None
    except TooManyRuns as exc:
        raise HTTPException(429, str(exc)) from None
    except LookupError as exc:
        raise HTTPException(404, str(exc)) from None
    except ValueError as exc:
        raise HTTPException(409, str(exc)) from None
    return _started(request, run_id)


@router.get("/runs/{run_id}/events")
async def events(request: Request, run_id: str, after: int | None = None):
    """The run's trace as server-sent events; ``Last-Event-ID`` resumes where a tab left off."""
    control = _control(request)
    if not RUN_ID_RE.fullmatch(run_id) or not control.knows(run_id):
        raise HTTPException(404, f"no run {run_id!r}")
    start = last_event_id(request.headers.get("last-event-id"), after)
    return StreamingResponse(
        event_stream(
            lambda index: control.read_events(run_id, index), start, request.is_disconnected
        ),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
