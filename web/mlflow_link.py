"""Where a research run lives in the MLflow UI (``research dashboard``).

``research ask`` logs each run to the ``wissen-ask`` experiment under the run id as its run
name; the UI addresses runs by experiment and MLflow run uuid, so the link is looked up
when it is followed, not on every page view (MLflow takes seconds to import).
"""

from __future__ import annotations

ASK_EXPERIMENT = "wissen-ask"


def mlflow_run_url(ui: str, run_id: str) -> str | None:
    """The UI's address of the MLflow run named ``run_id``, or None if it was not tracked."""
    import mlflow

    from runs.tracking import tracking_uri

    client = mlflow.MlflowClient(tracking_uri=tracking_uri())
    experiment = client.get_experiment_by_name(ASK_EXPERIMENT)
    if experiment is None:
        return None
    found = client.search_runs(
        [experiment.experiment_id],
        filter_string=f"attributes.run_name = '{run_id}'",  # run ids are [0-9A-Za-z_-]
        max_results=1,
    )
    if not found:
        return None
    return f"{ui.rstrip('/')}/#/experiments/{experiment.experiment_id}/runs/{found[0].info.run_id}"
