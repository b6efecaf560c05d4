"""What the command line prints when something goes wrong: the message as typed, inert, and
without secrets.

Error messages quote user input (an ``--api-base``, a TOML table such as
``[agents.researcher]``, a file name), so Rich must print them as text: ``[/b]`` used to raise
``MarkupError`` with a traceback and ``[red]`` vanished. A server that does not answer is
named by its address, and that address may carry a password or a key. No test here touches
the network: the "server" is a local port that refuses connections.
"""

from __future__ import annotations

import contextlib
import io
import logging
import socket
import sys
import warnings
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import lm.language_models as language_models
from cli.app import app
from cli.errors import EXIT_BAD_INPUT, EXIT_FAILED, fail, run_guarded, say, show_error
from cli.terminal_text import printable_lines
from lm.language_models import LMSpec
from lm.redaction import redact

runner = CliRunner()
MARKUP = "[/b] [red]red[/red] [agents.researcher] [bold]"
QUESTION = "What was 3M's capital expenditure in FY2022?"
SECRETS = ("PW-s3cret-7f3a9c", "KEY-s3cret-2b1d40", "TOK-s3cret-86aa51", "K-s3cret-91c3ee")


def _printed(show) -> str:
    """What ``show()`` writes to stderr, as plain text."""
    captured = io.StringIO()
    with contextlib.redirect_stderr(captured):
        show()
    return captured.getvalue()


# ── Rich markup in messages ─────────────────────────────────────────────────────────────────


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_message_round_trips_through_the_error_printer(message: str) -> None:
    printed = _printed(lambda: show_error(f"bad value {message} here"))
    assert printed.startswith("error: ")
    assert f"bad value {printable_lines(message)} here" in printed


@settings(max_examples=100, deadline=None)
@given(st.text())
def test_any_note_round_trips_through_the_note_printer(message: str) -> None:
    assert printable_lines(message) in _printed(lambda: say(message))


def test_markup_and_terminal_codes_in_an_error_are_shown_as_text() -> None:
    printed = _printed(lambda: fail(f"{MARKUP} \x1b[2J"))
    assert f"error: {MARKUP} \\x1b[2J" in printed
    assert "\x1b" not in printed


def test_a_message_on_two_lines_keeps_its_line_break() -> None:
    """Only the line feed is kept: a carriage return could overwrite what came before."""
    printed = _printed(lambda: show_error("not in the grid.\nNearest held: [FY2022]\rX"))
    assert printed == "error: not in the grid.\nNearest held: [FY2022]\\rX\n"


def _guarded(message: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Run a one-command app that raises ``message`` the way ``research`` runs its app."""
    tiny = typer.Typer()

    @tiny.command()
    def boom() -> None:
        raise RuntimeError(message)

    argv = sys.argv
    sys.argv = ["research"]
    try:
        with pytest.raises(SystemExit) as exited:
            run_guarded(tiny)
    finally:
        sys.argv = argv
    return int(exited.value.code), capsys.readouterr().err


def test_an_unexpected_error_with_markup_is_printed_not_raised(capsys) -> None:
    code, err = _guarded(f"cannot parse {MARKUP}", capsys)
    assert code == EXIT_FAILED
    assert f"error: cannot parse {MARKUP}  (rerun with --debug for details)" in err
    assert "Traceback" not in err and "MarkupError" not in err


def test_a_file_name_with_markup_in_a_command_error(tmp_path, monkeypatch) -> None:
    """``--agents '[/b].toml'``: the error names the file as typed, exit 2, no traceback."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-used")
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["ask", QUESTION, "--lm", "openai/x", "--agents", "[/b].toml"])
    assert result.exit_code == EXIT_BAD_INPUT, result.output
    assert "error: Agent model file not found: [/b].toml" in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_an_output_path_with_markup_is_shown_once_unescaped(tmp_path) -> None:
    """A message is escaped once, where it is printed: no ``\\[`` from an earlier escape."""
    missing = tmp_path / "[red]out[/red]" / "report.md"
    result = runner.invoke(app, ["ask", QUESTION, "--out", str(missing)])
    assert result.exit_code == EXIT_BAD_INPUT
    assert f"the folder {missing.parent} does not exist" in result.stderr
    assert "\\[" not in result.stderr


# ── credentials in a server address ─────────────────────────────────────────────────────────


def _dead_port() -> int:
    """A port where nothing listens: one the OS just handed out and took back."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _secret_url(port: int) -> str:
    pw, key, tok, k = SECRETS
    return f"http://analyst:{pw}@127.0.0.1:{port}/v1?api-key={key}&token={tok}&key={k}"


def test_a_failing_server_check_prints_and_logs_no_secret(wissen_home, caplog) -> None:
    caplog.set_level(logging.DEBUG)  # every library's records, the HTTP client's included
    port = _dead_port()
    result = runner.invoke(
        app, ["ask", QUESTION, "--api-base", _secret_url(port), "--no-track", "--quiet"]
    )
    assert result.exit_code == EXIT_BAD_INPUT, result.output
    assert "No server answers at" in result.stderr
    assert f"http://REDACTED@127.0.0.1:{port}/v1?api-key=REDACTED" in result.stderr
    logged = "\n".join(
        f"{record.getMessage()} {record.exc_text or ''}" for record in caplog.records
    )
    for secret in SECRETS:
        assert secret not in result.output, f"{secret} printed"
        assert secret not in logged, f"{secret} logged"


def test_the_server_check_error_itself_holds_no_secret() -> None:
    """Whatever prints or logs it, ``lm``'s own message is already clean."""
    with pytest.raises(language_models.LMUnreachableError) as caught:
        language_models.check_lm_reachable(
            LMSpec(model="openai/x", api_base=_secret_url(_dead_port())), timeout=2.0
        )
    assert not any(secret in str(caught.value) for secret in SECRETS)


def test_a_model_description_masks_the_server_credentials() -> None:
    """``describe()`` is what ``eval``/``optimise`` print and MLflow records."""
    described = LMSpec(model="openai/x", api_base=_secret_url(8000)).describe()
    assert described.startswith("openai/x @ http://REDACTED@127.0.0.1:8000/v1?api-key=REDACTED")
    assert not any(secret in described for secret in SECRETS)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("http://u:p@ss@host/v1", "http://REDACTED@host/v1"),  # an "@" inside the password
        ("http://host/v1?key=abc;token=def", "http://host/v1?key=REDACTED;token=REDACTED"),
        ("http://host/v1 mail me at a@b.c", "http://host/v1 mail me at a@b.c"),
    ],
)
def test_redaction_covers_awkward_urls(text: str, expected: str) -> None:
    assert redact(text) == expected
    assert redact(redact(text)) == expected


def test_runs_redaction_is_the_lm_rule() -> None:
    from runs import redaction

    assert redaction.redact is redact


# ── warnings that would reach the terminal ──────────────────────────────────────────────────


def test_dense_scores_raise_no_floating_point_warning() -> None:
    """A BLAS that leaves FP flags set makes numpy warn "overflow encountered in matmul" on
    the terminal during every search; here a real overflow stands in for the spurious one."""
    from retrieval.search.hybrid import HybridSearcher
    from retrieval.store import GridFilter

    matrix = np.full((3, 4), 3e38, dtype=np.float32)
    matrix[1] = 0.5  # the one finite score
    store = SimpleNamespace(all_vectors=lambda: (np.array([10, 11, 12]), matrix))
    searcher = HybridSearcher(store, embedder=SimpleNamespace())  # type: ignore[arg-type]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ranked = searcher._dense(np.ones(4, dtype=np.float32), GridFilter(), pool=3)
    assert ranked[0] == 11  # scores that are not finite rank last


def test_show_error_is_what_fail_and_run_guarded_print() -> None:
    """One printer: ``fail`` returns the Exit to raise after printing through it."""
    exits: list[typer.Exit] = []
    printed = _printed(lambda: exits.append(fail("x [/b]", EXIT_FAILED)))
    assert printed == "error: x [/b]\n"
    assert exits[0].exit_code == EXIT_FAILED


def test_project_paths_are_plain_text(tmp_path: Path) -> None:
    """Paths shown by ``runs`` and notes go through the same plain printer."""
    assert _printed(lambda: say(tmp_path / "[red]x")) == f"{tmp_path / '[red]x'}\n"
