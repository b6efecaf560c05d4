"""Run routes: the runs list, one run's report and trace, its files, and its MLflow run.

A run page renders the report (``web.report_html``) once the run has written it; while the
run goes on, the page's script follows ``/runs/{id}/events`` (see ``web.routes_ask``).
Downloads are the run's own ``report.md`` and ``run.json``, by fixed name.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import RedirectResponse, Response

from web.app import render
from web.report_html import render_report
from web.run_folders import RECORD, REPORT, list_runs, open_run, row_of, run_file

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


@router.get("/runs/{run_id}")
def run_page(request: Request, run_id: str):
    """The run: question, status, model, report (when written) and the live trace."""
    run = _run(run_id)
    row = row_of(run)
    markdown = run_file(run, REPORT)
    control = request.app.state.runs
    traced = control.knows(run_id)
    return render(
        request,
        "run.html",
        run=row,
        report=render_report(markdown) if markdown is not None else None,
        live=row.status == "running",
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


@router.get("/runs/{run_id}/mlflow")
def mlflow_run(request: Request, run_id: str):
    """Redirects to the run in the MLflow UI (``research dashboard`` serves it)."""
    from web.mlflow_link import mlflow_run_url

    _run(run_id)
    url = mlflow_run_url(request.app.state.settings.mlflow_ui, run_id)
    if url is None:
        raise HTTPException(404, f"run {run_id} was not logged to MLflow (--no-track)")
    return RedirectResponse(url, status_code=303)
