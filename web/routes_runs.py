"""Run routes: the runs list, one run's report and trace, its files, and its MLflow run.

A run page renders the report (``web.report_html``) once the run has written it, its dagger
notes explained from the run record; while the run goes on, the page's script follows
``/runs/{id}/events`` (see ``web.routes_ask``) and shows what the run is doing and for how
long. Downloads are the run's own ``report.md`` and ``run.json``, by fixed name, and the
exports a reader takes away (``web.export``): Markdown and PDF headed by the question, the
date, the model and the program version.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from web.export import ExportHeader, PdfUnavailable, markdown_export, pdf_export
from web.rendering import render, wants_html
from web.report_html import render_report
from web.run_folders import RECORD, REPORT, RUN_ID_RE, list_runs, open_run, row_of, run_file

router = APIRouter()


def _run(run_id: str) -> Any:
    run = open_run(run_id)
    if run is None:
        raise HTTPException(404, f"no run {run_id!r}: the runs page lists them")
    return run


@router.get("/runs")
def runs_page(request: Request):
    return render(request, "runs.html", runs=list_runs())


@router.get("/api/runs")
def runs_api():
    return {"runs": [{**asdict(row), "resumable": row.resumable} for row in list_runs()]}


def _record(run: Any) -> dict[str, Any] | None:
    """The run record (``run.json``) as a dict, or None: not written, or not readable."""
    text = run_file(run, RECORD)
    try:
        record = json.loads(text) if text is not None else None
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def _elapsed(run: Any) -> float:
    """Seconds since the run started (a resumed run: its first attempt), for the activity
    indicator, whose clock must not restart at 0 s on every reload."""
    try:
        started = datetime.fromisoformat(str(run.meta.get("started_at")))
        if started.tzinfo is None:
            started = started.replace(tzinfo=UTC)
        return max(0.0, (datetime.now(UTC) - started).total_seconds())
    except (TypeError, ValueError, AttributeError):
        return 0.0


@router.get("/runs/{run_id}")
def run_page(request: Request, run_id: str):
    """The run: question, status, model, report (when written) and the live trace."""
    run = _run(run_id)
    row = row_of(run)
    markdown = run_file(run, REPORT)
    control = request.app.state.runs
    traced = control.knows(run_id)
    live = row.status == "running"
    return render(
        request,
        "run.html",
        run=row,
        report=render_report(markdown, _record(run)) if markdown is not None else None,
        live=live,
        elapsed=_elapsed(run) if live else 0.0,
        events_url=f"/runs/{run_id}/events" if traced else None,
    )


@router.get("/api/runs/{run_id}")
def run_api(run_id: str):
    run = _run(run_id)
    row = row_of(run)
    return {**asdict(row), "resumable": row.resumable, "report": run_file(run, REPORT)}


def _download(run_id: str, name: str, media_type: str) -> Response:
    text = run_file(_run(run_id), name)
    if text is None:
        raise HTTPException(404, f"run {run_id} has not written {name} (yet)")
    disposition = f'attachment; filename="{run_id}-{name}"'
    return Response(text, media_type=media_type, headers={"Content-Disposition": disposition})


@router.get("/runs/{run_id}/report.md")
def download_report(run_id: str):
    return _download(run_id, REPORT, "text/markdown; charset=utf-8")


@router.get("/runs/{run_id}/run.json")
def download_record(run_id: str):
    return _download(run_id, RECORD, "application/json")


def _export(run_id: str) -> tuple[ExportHeader, str, dict[str, Any] | None]:
    run = _run(run_id)
    markdown = run_file(run, REPORT)
    if markdown is None:
        raise HTTPException(404, f"run {run_id} has not written its report (yet)")
    return ExportHeader.of(run, row_of(run)), markdown, _record(run)


@router.get("/runs/{run_id}/export.md")
def export_markdown(run_id: str):
    """The report as Markdown, headed by its question, date, model and program version."""
    header, markdown, record = _export(run_id)
    disposition = f'attachment; filename="{run_id}-report.md"'
    return Response(
        markdown_export(header, markdown, record),
        media_type="text/markdown; charset=utf-8",
        headers={"Content-Disposition": disposition},
    )


@router.get("/runs/{run_id}/export.pdf")
def export_pdf(run_id: str):
    """The report as PDF (WeasyPrint), with the same header, its Sources and Notes."""
    header, markdown, record = _export(run_id)
    try:
        pdf = pdf_export(header, markdown, record)
    except PdfUnavailable as exc:
        raise HTTPException(503, str(exc)) from None
    disposition = f'attachment; filename="{run_id}-report.pdf"'
    return Response(
        pdf,
        media_type="application/pdf",
        headers={"Content-Disposition": disposition},
    )


def _mlflow_url(request: Request, run_id: str) -> str:
    from web.mlflow_link import mlflow_run_url

    _run(run_id)
    url = mlflow_run_url(request.app.state.settings.mlflow_ui, run_id)
    if url is None:
        raise HTTPException(404, f"run {run_id} was not logged to MLflow (--no-track)")
    return url


@router.get("/runs/{run_id}/mlflow")
def mlflow_run(request: Request, run_id: str):
    """Redirects to the run in the MLflow UI, running or not (for scripts; the run page
    links to ``/runs/{id}/dashboard``, which checks first)."""
    return RedirectResponse(_mlflow_url(request, run_id), status_code=303)


@router.get("/runs/{run_id}/dashboard")
def mlflow_dashboard(request: Request, run_id: str):
    """The run in the MLflow UI when the UI is up; else how to start it, and a button that
    starts it here."""
    url = _mlflow_url(request, run_id)
    dashboard = request.app.state.dashboard
    if dashboard.running():
        return RedirectResponse(url, status_code=303)
    return render(request, "mlflow.html", run_id=run_id, dashboard=dashboard, **dashboard.state())


@router.get("/api/mlflow")
def mlflow_state(request: Request):
    """Whether the MLflow UI runs, is starting here, or exited (with why)."""
    return request.app.state.dashboard.state()


@router.post("/mlflow/start")
async def mlflow_start(request: Request):
    """Start the MLflow UI here (``research dashboard``'s server); back to the run's link."""
    from urllib.parse import parse_qsl

    fields = dict(parse_qsl((await request.body()).decode("utf-8", errors="replace")))
    run_id = fields.get("run", "")
    try:
        request.app.state.dashboard.start()
    except (ValueError, OSError) as exc:
        raise HTTPException(400, str(exc)) from None
    if RUN_ID_RE.fullmatch(run_id) and wants_html(request):
        return RedirectResponse(f"/runs/{run_id}/dashboard", status_code=303)
    return JSONResponse(request.app.state.dashboard.state(), status_code=202)
