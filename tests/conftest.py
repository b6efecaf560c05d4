"""Shared fixtures: offline environment, the shared FinanceBench data, a seeded grid."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from cli.environment import OFFLINE_DEFAULTS

for _key, _value in OFFLINE_DEFAULTS.items():
    os.environ.setdefault(_key, _value)
# MLflow announces its trace-queue flush at exit, after pytest's summary line.
os.environ.setdefault("MLFLOW_LOGGING_LEVEL", "WARNING")

# Properties are checked for what they compute, not how fast: speed targets live in
# benchmarks/. Hypothesis's default 200 ms deadline failed a numpy property on a CI machine
# busy with other work (800 ms on its first example, 2 ms on the rerun).
settings.register_profile("no-deadline", deadline=None)
settings.load_profile("no-deadline")

SHARED = Path(__file__).resolve().parents[2] / "shared" / "financebench"


@pytest.fixture(scope="session", autouse=True)
def fresh_user_data_dir(tmp_path_factory):
    """A user data dir of the session's own, empty at first, as on CI's clean machine: the
    default grid store lives there, and a test that passes only because an earlier session
    made it would fail on CI."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("user-data")))
        yield


@pytest.fixture
def browser():
    """Debian's Chromium, headless, driven by Playwright (the ``CHROMIUM`` of web_helpers)."""
    from playwright.sync_api import sync_playwright
    from web_helpers import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def install_lm(monkeypatch):
    """Point the runs this process starts at a new scripted LM, returned for counting."""
    from scripted_lm import ScriptedLM

    import lm.language_models as language_models

    def install(**kwargs) -> ScriptedLM:
        lm = ScriptedLM(**kwargs)
        monkeypatch.setattr(language_models, "build_lm", lambda *args, **kw: lm)
        monkeypatch.setattr(language_models, "check_lm_reachable", lambda *args, **kw: None)
        return lm

    return install


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/financebench``: laid beside the checkout for developers and CI."""
    if not SHARED.exists():
        pytest.skip(f"shared FinanceBench data not found at {SHARED}")
    return SHARED


@pytest.fixture(scope="session")
def sample_store_path(tmp_path_factory) -> Path:
    """A grid store seeded once from the bundled sample filings (with their vectors)."""
    from retrieval.open_store import open_store

    path = tmp_path_factory.mktemp("grid") / "grid.sqlite"
    open_store(path).close()
    return path


@pytest.fixture(scope="session")
def sample_store(sample_store_path):
    from retrieval.sqlite.store import SQLiteStore

    store = SQLiteStore(sample_store_path)
    yield store
    store.close()


@pytest.fixture(scope="session")
def searcher(sample_store):
    from retrieval.search.hybrid import HybridSearcher

    return HybridSearcher(sample_store)


@pytest.fixture(scope="session")
def mlflow_template(tmp_path_factory) -> Path:
    """A migrated, empty MLflow SQLite DB made once: a fresh one spends seconds migrating."""
    import mlflow

    path = tmp_path_factory.mktemp("mlflow") / "template.db"
    mlflow.MlflowClient(tracking_uri=f"sqlite:///{path}").search_experiments()
    return path


@pytest.fixture
def wissen_home(tmp_path, monkeypatch, mlflow_template) -> Path:
    """A private data dir (runs) and tracking DB (a copy of the template) for one test."""
    import shutil

    home = tmp_path / "home"
    home.mkdir()
    shutil.copy(mlflow_template, home / "mlflow.db")
    monkeypatch.setenv("WISSEN_HOME", str(home))
    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{home / 'mlflow.db'}")
    return home
