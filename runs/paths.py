"""Where runs live: ``$WISSEN_HOME`` or the user data dir, and its ``runs/`` folder."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def data_dir() -> Path:
    """``$WISSEN_HOME`` or the user data dir: where runs and the tracking DB live."""
    env = os.environ.get("WISSEN_HOME")
    return Path(env).expanduser() if env else Path(platformdirs.user_data_dir("wissen-research"))


def runs_dir() -> Path:
    return data_dir() / "runs"
