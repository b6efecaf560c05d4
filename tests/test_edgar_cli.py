"""`research fetch` as a user runs it, against a local server answering as SEC EDGAR does."""

from __future__ import annotations

import functools

import pytest
from typer.testing import CliRunner

import cli.fetch_command
from cli.app import app
from edgar.client import USER_AGENT_ENV, EdgarClient
from tests.fixtures.edgar.server import ACCESSIONS, EdgarServer, archive_path

runner = CliRunner()
AGENT = "Test Runner tests@example.com"


@pytest.fixture
def server(monkeypatch):
    monkeypatch.delenv(USER_AGENT_ENV, raising=False)
    # retries without waiting: the backoff itself is tested in test_edgar_client.py
    monkeypatch.setattr(
        cli.fetch_command, "EdgarClient", functools.partial(EdgarClient, sleep=lambda _s: None)
    )
    with EdgarServer() as running:
        yield running


def fetch(server, store, *args, agent: str | None = AGENT):
    options = ["--store", str(store), "--sec-data-url", server.url, "--sec-www-url", server.url]
    if agent:
        options += ["--user-agent", agent]
    return runner.invoke(app, ["fetch", *args, *options])


def test_fetch_then_fetch_again(server, tmp_path):
    store = tmp_path / "grid.sqlite"
    first = fetch(server, store, "ACME")
    assert first.exit_code == 0, first.output
    assert "fetched ACME 10-K FY2023 (0001234567-24-000010): 3 pages" in first.output
    assert "fetched ACME 10-Q FY2024 Q2" in first.output
    assert "ACME: fetched 2 filings (5 pages" in first.output
    assert "skipped 0 already fetched; failed 0" in first.output
    assert "agree on 23 of 23 shared line items (100.0%)" in first.output
    assert "tests@example.com" not in first.output  # the User-Agent is never printed

    facts = runner.invoke(app, ["facts", "--ticker", "ACME", "--fy", "2023", "--concept",
                                "capex", "--json", "--store", str(store)])  # fmt: skip
    assert facts.exit_code == 0 and "us-gaap:PaymentsToAcquirePropertyPlantAndEquipment" in (
        facts.stdout
    )

    again = fetch(server, store, "acme", "--forms", "10-K,10-Q,8-K")
    assert again.exit_code == 0, again.output
    assert "fetched 1 filing " in again.output and "skipped 2 already fetched" in again.output
    assert "fetched ACME 8-K FY2024 Q4" in again.output


def test_no_user_agent_is_exit_2_before_anything_is_written_or_requested(server, tmp_path):
    store = tmp_path / "grid.sqlite"
    result = fetch(server, store, "ACME", agent=None)
    assert result.exit_code == 2
    assert USER_AGENT_ENV in result.output and len(result.output.strip().splitlines()) <= 2
    assert not store.exists() and server.requests == []


def test_the_user_agent_may_come_from_the_environment(server, tmp_path, monkeypatch):
    monkeypatch.setenv(USER_AGENT_ENV, AGENT)
    result = fetch(server, tmp_path / "grid.sqlite", "ACME", "--since", "2024", agent=None)
    assert result.exit_code == 0, result.output
    assert "fetched 1 filing " in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["NOPE"], "unknown ticker 'NOPE'"),
        (["ACME", "--forms", "S-1"], "--forms: S-1 not supported; choose from 10-K"),
        (["ACME", "--since", "1850"], "--since 1850"),
    ],
)
def test_bad_input_is_a_one_line_error_exit_2(server, tmp_path, args, message):
    result = fetch(server, tmp_path / "grid.sqlite", *args)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_a_server_error_on_one_filing_is_exit_1_and_keeps_the_others(server, tmp_path):
    store = tmp_path / "grid.sqlite"
    server.failures[archive_path(ACCESSIONS["10-Q"], "acme-20240630.htm")] = 503
    result = fetch(server, store, "ACME")
    assert result.exit_code == 1, result.output
    assert "failed ACME 10-Q FY2024 Q2 (0001234567-24-000050)" in result.output
    assert "HTTP 503 after 4 tries" in result.output
    assert "fetched 1 filing " in result.output and "failed 1" in result.output
    server.failures.clear()
    resumed = fetch(server, store, "ACME")
    assert resumed.exit_code == 0 and "fetched 1 filing " in resumed.output


def test_an_index_the_server_cannot_give_is_exit_1(server, tmp_path):
    server.failures["/submissions/CIK0001234567.json"] = 500
    result = fetch(server, tmp_path / "grid.sqlite", "ACME")
    assert result.exit_code == 1
    assert "HTTP 500 after 4 tries (filings fetched before this are kept)" in result.output
