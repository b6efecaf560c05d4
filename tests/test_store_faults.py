"""A grid store that fails mid-ask stops the run: failed, exit 1, resumable once it is back.

Before, a PostgreSQL server that stopped in the middle of ``research ask`` reached the model
as an error string in its tool results: the probe spent five rounds and thirty LM calls on
searches that could not succeed, closed with "draft cites no retrieved page", and the run
was marked completed with exit 0, so ``--resume`` refused to retry it. Now the search tool
raises :class:`retrieval.search.tools.StoreFault`, which no ``except Exception`` backstop swallows;
the run is marked ``failed`` with the server's reason, the finished probes stay in its
checkpoint, and ``research ask --resume RUN_ID`` completes it once the store is back.

Most tests use the sample grid behind a switch whose calls raise psycopg's
``OperationalError`` (what a stopped server's connection raises); the last stops a real
embedded PostgreSQL server mid-run.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psycopg
import pytest
from run_scripted_ask import QUESTION, install_scripted_lm
from scripted_lm import ScriptedLM
from typer.testing import CliRunner

import retrieval.open_store
from cli.app import app
from programs.researcher import Researcher
from retrieval.postgres.errors import StoreUnavailable, store_fault_message
from retrieval.search.tools import EquitySearchTool, StoreFault
from retrieval.store import GridFilter

if TYPE_CHECKING:
    from postgres_server import EmbeddedServer

pytest_plugins = ("postgres_server",)
runner = CliRunner()
ARGS = ["--max-probes", "2", "--no-figures", "--no-track", "--quiet"]
GONE = "consuming input failed: server closed the connection unexpectedly"


class FlakyStore:
    """A grid whose every call raises psycopg's ``OperationalError`` while it is ``down``:
    from the ``fail_from``-th call of ``fail_on`` on (``bm25``: one per slice-locked
    search). ``calls_at_fault`` is the LM's call count when the first call failed."""

    def __init__(
        self, store: Any, lm: ScriptedLM, fail_from: int | None = None, fail_on: str = "bm25"
    ) -> None:
        self.store = store
        self.lm = lm
        self.fail_from = fail_from
        self.fail_on = fail_on
        self.down = False
        self.counted = 0
        self.calls_at_fault: int | None = None

    def heal(self) -> None:
        """The server is back."""
        self.down, self.fail_from = False, None

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.store, name)
        if not callable(value):
            return value

        @functools.wraps(value)
        def call(*args: Any, **kwargs: Any) -> Any:
            if name == self.fail_on:
                self.counted += 1
                if self.fail_from is not None and self.counted >= self.fail_from:
                    self.down = True
            if self.down:
                if self.calls_at_fault is None:
                    self.calls_at_fault = self.lm.total_calls
                raise psycopg.OperationalError(GONE)
            return value(*args, **kwargs)

        return call


class _Failing:
    """A searcher whose searches and page reads raise ``error``."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def search(self, *args: Any, **kwargs: Any) -> list:
        raise self.error

    def pages_by_uid(self, uids: Any) -> list:
        raise self.error


def run_ids(home: Path) -> set[str]:
    runs = home / "runs"
    return {p.name for p in runs.iterdir()} if runs.is_dir() else set()


def listed(run_id: str) -> dict:
    result = runner.invoke(app, ["runs", "--json"])
    assert result.exit_code == 0, result.output
    return next(row for row in json.loads(result.stdout) if row["run_id"] == run_id)


def use_store(monkeypatch: pytest.MonkeyPatch, store: Any) -> None:
    """Every ``research ask`` in this process researches over ``store``."""
    monkeypatch.setattr(retrieval.open_store, "open_store", lambda *args, **kwargs: store)


# -- the tool --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "error",
    [
        psycopg.OperationalError(GONE),
        StoreUnavailable(
            "the grid server postgresql://ana:***@db/grid is unavailable while searching: "
            "connection refused"
        ),
    ],
    ids=["psycopg", "translated"],
)
def test_the_search_tool_raises_a_store_fault_instead_of_returning_text(error):
    tool = EquitySearchTool(_Failing(error), lock=GridFilter("MMM", 2022, 4))  # type: ignore[arg-type]
    with pytest.raises(StoreFault) as raised:
        tool.slice_function()("capital expenditures")
    message = str(raised.value)
    assert "unavailable while searching" in message and "\n" not in message
    assert raised.value.__cause__ is error
    with pytest.raises(StoreFault, match="unavailable while"):
        tool.read_page_function()("0123456789ab")  # a uid: hit numbers need a search
    assert not isinstance(raised.value, Exception)  # no `except Exception` backstop takes it


def test_an_error_a_query_caused_is_not_a_store_fault():
    tool = EquitySearchTool(_Failing(ValueError("empty query")))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="empty query"):
        tool.search("  ")
    assert store_fault_message(psycopg.DataError("NUL byte"), "searching") is None
    assert store_fault_message(ValueError("x"), "searching") is None


def test_a_raw_server_message_is_scrubbed_of_a_password():
    error = psycopg.OperationalError("bad postgresql://ana:hunter2@db/grid")
    message = store_fault_message(error, "searching")
    assert message and "hunter2" not in message and "ana:***@db" in message


def test_the_researcher_lets_a_store_fault_through_before_any_lm_call():
    lm = ScriptedLM()
    tool = EquitySearchTool(_Failing(psycopg.OperationalError(GONE)))  # type: ignore[arg-type]
    import dspy

    with dspy.context(lm=lm), pytest.raises(StoreFault):
        Researcher()(
            tool=tool,
            question=QUESTION,
            slice_label="MMM FY2022 Q4",
            probe_title="Headline figures",
            probe_question="What was 3M's capital expenditure?",
            previous_draft="",
            reviewer_feedback="",
        )
    assert lm.total_calls == 0  # no extract step written from an error message


# -- research ask over a failing store --------------------------------------------------------


def test_a_store_fault_fails_the_run_at_once_and_resume_completes_it(
    monkeypatch, wissen_home, sample_store
):
    lm = install_scripted_lm(monkeypatch)
    flaky = FlakyStore(sample_store, lm, fail_from=2)  # the first probe's search succeeds
    use_store(monkeypatch, flaky)
    # No "what drove it?": a scripted draft names no cause, and code would send the first
    # probe back for one, to a second search that fails before the probe is finished.
    question = QUESTION.removesuffix(", and what drove it?") + "?"
    result = runner.invoke(app, ["ask", question, *ARGS, "--concurrency", "1"])

    assert result.exit_code == 1, result.output
    (run_id,) = run_ids(wissen_home)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.stderr
    # The failing search's fault, or that of the next probe, which the worker may have
    # started meanwhile: each fails at its first store call, before any LM call.
    assert re.match(
        "error: the grid server is unavailable while (searching|reading statement facts)",
        lines[0],
    )
    assert f"resume with `research ask --resume {run_id}`" in lines[0]
    assert result.stdout == ""  # no report of a run that could not reach its grid
    assert flaky.calls_at_fault is not None
    assert lm.total_calls - flaky.calls_at_fault == 0  # not one LM call after the fault
    assert lm.calls["reviewer"] == 1  # the first probe's; none on failing searches
    row = listed(run_id)
    assert row["status"] == "failed" and "is unavailable while" in row["error"]
    assert row["probes_done"] == 1  # the finished probe is checkpointed
    run_dir = wissen_home / "runs" / run_id
    assert not (run_dir / "report.md").exists()

    flaky.heal()  # the server is back
    resumed = install_scripted_lm(monkeypatch)
    result = runner.invoke(app, ["ask", "--resume", run_id, "--quiet", "--no-track"])
    assert result.exit_code == 0, result.output
    assert resumed.calls["planner.extract_facets"] == 0  # the plan came from the checkpoint
    # The three probes not finished (PEP's "Drivers" probe takes two rounds); not the first.
    assert resumed.calls["reviewer"] == 4
    meta = json.loads((run_dir / "meta.json").read_text())
    assert meta["status"] == "completed" and meta["attempts"] == 2 and meta["error"] is None
    assert (listed(run_id)["probes_done"], listed(run_id)["slices_done"]) == (4, 2)
    assert "Sources" in (run_dir / "report.md").read_text()


def test_probes_in_flight_stop_at_their_next_step(monkeypatch, wissen_home, sample_store):
    """With four workers, probes already running when the store fails stop too: the calls
    spent after the fault are at most the ones then in flight, one per worker."""
    lm = install_scripted_lm(monkeypatch)
    flaky = FlakyStore(sample_store, lm, fail_from=3)
    use_store(monkeypatch, flaky)
    result = runner.invoke(app, ["ask", QUESTION, *ARGS, "--concurrency", "4"])
    assert result.exit_code == 1, result.output
    (run_id,) = run_ids(wissen_home)
    assert listed(run_id)["status"] == "failed"
    assert flaky.calls_at_fault is not None
    assert lm.total_calls - flaky.calls_at_fault <= 4
    assert lm.calls["composer"] == 0  # no report composed


def test_a_store_down_before_the_first_search_fails_the_run_too(
    monkeypatch, wissen_home, sample_store
):
    """A probe reads its slice's statement facts (for the number tools) before it searches:
    a fault there stops the run as well."""
    lm = install_scripted_lm(monkeypatch)
    use_store(monkeypatch, FlakyStore(sample_store, lm, fail_from=1, fail_on="facts"))
    result = runner.invoke(app, ["ask", QUESTION, *ARGS, "--concurrency", "1"])
    assert result.exit_code == 1, result.output
    assert "unavailable while reading statement facts" in result.stderr
    assert lm.calls["reviewer"] == 0 and lm.calls["researcher.extract"] == 0


# -- a real server stopping mid-run ------------------------------------------------------------


class StoppingLM(ScriptedLM):
    """The scripted LM that stops the grid's server as it answers the first reviewer call,
    so the next probe's first search finds no server."""

    def __init__(self, server: EmbeddedServer) -> None:
        super().__init__()
        self.server = server
        self.stopped_at: int | None = None

    def respond(self, system: str, user: str) -> str:
        answer = super().respond(system, user)
        if self.calls["reviewer"] == 1 and self.stopped_at is None:
            self.server.stop()
            self.stopped_at = self.total_calls
        return answer


def test_an_embedded_postgresql_server_stopped_mid_ask(
    private_postgres, sample_store, wissen_home, monkeypatch
):
    import lm.language_models as language_models
    from retrieval.ingest.grid_copy import copy_grid, document_names
    from retrieval.postgres.store import PostgresStore

    uri = private_postgres.uri
    grid = PostgresStore(uri)
    documents = [n for n in document_names(sample_store) if n.startswith("3M_2022")]
    copy_grid(sample_store, grid, documents=documents)
    grid.close()
    lm = StoppingLM(private_postgres)
    monkeypatch.setattr(language_models, "build_lm", lambda *args, **kwargs: lm)
    monkeypatch.setattr(language_models, "check_lm_reachable", lambda *args, **kwargs: None)
    question = "How much did 3M spend on capital expenditure in FY2022, and why?"
    args = ["--store", uri, *ARGS, "--concurrency", "1"]
    result = runner.invoke(app, ["ask", question, *args])

    assert result.exit_code == 1, result.output
    assert lm.stopped_at is not None and lm.total_calls == lm.stopped_at  # none after it
    (run_id,) = run_ids(wissen_home)
    # The next probe's first store call (its statement facts, then its search) finds none.
    assert "is unavailable while" in result.stderr and "Traceback" not in result.output
    assert f"--resume {run_id}" in result.stderr
    row = listed(run_id)
    assert (row["status"], row["probes_done"]) == ("failed", 1)

    private_postgres.start()
    healthy = ScriptedLM()
    monkeypatch.setattr(language_models, "build_lm", lambda *args, **kwargs: healthy)
    result = runner.invoke(app, ["ask", "--resume", run_id, "--quiet", "--no-track"])
    assert result.exit_code == 0, result.output
    assert healthy.calls["reviewer"] == 1 and healthy.calls["planner.extract_facets"] == 0
    assert listed(run_id)["status"] == "completed"


# -- what a resume needs to find the store again ------------------------------------------------


def test_a_store_address_is_stored_without_its_password_and_a_file_as_an_absolute_path(
    tmp_path, monkeypatch
):
    from runs.resume import research_options

    monkeypatch.chdir(tmp_path)
    stored = research_options(store="postgresql://ana:hunter2@db:5432/grid?password=x2")
    assert stored == {"store": "postgresql://ana:***@db:5432/grid?password=***"}
    assert research_options(store="grid.sqlite") == {"store": str(tmp_path / "grid.sqlite")}
    # The embedded server's address has an empty password: nothing to hide, nothing to ask.
    trusted = "postgresql://postgres:@/postgres?host=/tmp/pg"
    assert research_options(store=trusted) == {"store": trusted}


def test_resuming_a_run_on_a_password_protected_store_asks_for_the_address_again():
    from runs.errors import BadRunRequest
    from runs.resume import resumed_store

    stored = "postgresql://ana:***@db:5432/grid"
    given = "postgresql://ana:hunter2@db:5432/grid"
    assert resumed_store(stored, given, "run-1").address == given  # --store or $WISSEN_STORE
    with pytest.raises(BadRunRequest, match="held a password, never stored"):
        resumed_store(stored, None, "run-1")
    with pytest.raises(BadRunRequest, match="names another"):
        resumed_store(stored, "postgresql://ana:hunter2@elsewhere/grid", "run-1")
    kept = resumed_store("/data/grid.sqlite", "/other.sqlite", "run-1")
    assert str(kept) == "/data/grid.sqlite"


def test_a_store_fault_in_any_command_is_one_line_and_exit_1(monkeypatch, capsys):
    """``research eval`` and ``optimise`` run agents outside the run service: a store fault
    that reaches the command line is one line too, never a traceback."""
    import sys

    import typer

    from cli.errors import run_guarded

    app = typer.Typer()

    @app.command()
    def evaluate() -> None:
        raise StoreFault("the grid server at postgresql://***@db/grid is unavailable")

    monkeypatch.setattr(sys, "argv", ["research"])
    with pytest.raises(SystemExit) as exited:
        run_guarded(app)
    assert exited.value.code == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "the grid store failed: the grid server" in err
