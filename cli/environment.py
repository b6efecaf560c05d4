"""Offline-by-default process settings, applied before any library is imported."""

from __future__ import annotations

import os

OFFLINE_DEFAULTS = {
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "MLFLOW_DISABLE_TELEMETRY": "true",
    "DO_NOT_TRACK": "true",
    "HF_HUB_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    # MLflow's INFO lines (database migration, trace-queue flush) are not the user's business
    # on a terminal that shows a live trace; warnings and errors still show.
    "MLFLOW_LOGGING_LEVEL": "WARNING",
}


def apply_offline_defaults() -> None:
    """Set each offline switch unless the user already chose a value."""
    for key, value in OFFLINE_DEFAULTS.items():
        os.environ.setdefault(key, value)
