"""The per-agent models file (``--agents``) refuses values that cannot run, in one line that
names the file, the table and the key.

TOML takes ``max_tokens = -5`` or ``temperature = 1e309`` (infinity) as readily as a sensible
value; a provider would refuse them only mid-run, after other agents had spent calls, and
llama.cpp would take a negative budget as "unlimited". No test here needs a key or a network:
the CLI tests use ``--lm openai/…`` with a placeholder key, which is only checked for being set.
"""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.app import app
from lm.agent_overrides import AgentSettings, load_agent_overrides
from lm.language_models import LMConfigError, LMSpec

runner = CliRunner()
QUESTION = "What was 3M's capital expenditure in FY2022?"


def _write(tmp_path: Path, text: str, name: str = "agents.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("setting", "shown"),
    [
        ("max_tokens = -5", "max_tokens must be from 1 to 1,000,000, got -5"),
        ("max_tokens = 0", "max_tokens must be from 1 to 1,000,000, got 0"),
        ("max_tokens = 1_000_000_000", "max_tokens must be from 1 to 1,000,000"),
        ("max_tokens = 1.5", "max_tokens must be int, got 1.5"),
        ("max_tokens = true", "max_tokens must be int, got True"),
        ("temperature = 1e309", "temperature must be a finite number from 0 to 2, got inf"),
        ("temperature = inf", "temperature must be a finite number from 0 to 2, got inf"),
        ("temperature = nan", "temperature must be a finite number from 0 to 2, got nan"),
        ("temperature = -0.1", "temperature must be a finite number from 0 to 2, got -0.1"),
        ("temperature = 2.5", "temperature must be a finite number from 0 to 2, got 2.5"),
        ('temperature = "hot"', "temperature must be int or float, got 'hot'"),
        ("timeout = 0", "timeout must be a number of seconds above 0"),
        ("timeout = -inf", "timeout must be a number of seconds above 0"),
        ("num_retries = -1", "num_retries must be from 0 to 10, got -1"),
        ("num_retries = 11", "num_retries must be from 0 to 10, got 11"),
        ("n_ctx = 0", "n_ctx must be from 256 to 1,048,576 tokens, got 0"),
        ("cache = 1", "cache must be bool, got 1"),
        ('lm = ""', "lm must be a model string"),
        ('api_base = "localhost:8000"', "api_base must be an http:// or https:// server address"),
    ],
)
def test_out_of_range_settings_are_refused_naming_file_table_and_key(
    tmp_path: Path, setting: str, shown: str
) -> None:
    path = _write(tmp_path, f'[reviewer]\nlm = "openai/gpt-4.1-mini"\n{setting}\n')
    if setting.startswith("lm ="):
        path = _write(tmp_path, f"[reviewer]\n{setting}\n")
    with pytest.raises(LMConfigError) as caught:
        load_agent_overrides(path)
    message = str(caught.value)
    assert message.startswith(f"{path} [reviewer]: "), message
    assert shown in message
    assert "\n" not in message


def test_the_default_table_is_checked_too(tmp_path: Path) -> None:
    path = _write(tmp_path, "[default]\nmax_tokens = -5\n")
    with pytest.raises(LMConfigError, match=r"\[default\]: max_tokens must be from 1"):
        load_agent_overrides(path)


def test_a_bad_server_address_is_quoted_without_its_password(tmp_path: Path) -> None:
    path = _write(tmp_path, '[reviewer]\napi_base = "ftp://analyst:s3cret-pw@host/v1"\n')
    with pytest.raises(LMConfigError) as caught:
        load_agent_overrides(path)
    assert "s3cret-pw" not in str(caught.value)
    assert "ftp://REDACTED@host/v1" in str(caught.value)


def test_values_at_the_edges_of_their_ranges_are_accepted(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        '[reviewer]\nlm = "openai/gpt-4.1-mini"\ntemperature = 2\nmax_tokens = 1\n'
        "timeout = 86400\nnum_retries = 0\nn_ctx = 256\ncache = false\n"
        '[composer]\napi_base = "https://llm.example/v1"\ntemperature = 0\n',
    )
    overrides = load_agent_overrides(path, base=LMSpec(model="openai/gpt-4.1"))
    reviewer = overrides["reviewer"]
    assert (reviewer.temperature, reviewer.max_tokens, reviewer.timeout) == (2.0, 1, 86400.0)
    assert isinstance(reviewer.temperature, float) and isinstance(reviewer.timeout, float)
    assert (reviewer.num_retries, reviewer.n_ctx, reviewer.cache) == (0, 256, False)
    assert overrides["composer"].api_base == "https://llm.example/v1"
    assert overrides["composer"].temperature == 0.0


def test_every_spec_field_has_a_checked_setting() -> None:
    """A field added to LMSpec must get a range here, or the file could not set it."""
    assert set(AgentSettings.model_fields) == {f.name for f in fields(LMSpec)}


# ── the file itself, named in every error ───────────────────────────────────────────────────


def test_a_file_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    path = tmp_path / "agents.toml"
    path.write_bytes(b'[reviewer]\nlm = "caf\xe9"\n')
    with pytest.raises(LMConfigError, match="not UTF-8") as caught:
        load_agent_overrides(path)
    assert str(path) in str(caught.value)


def test_a_folder_given_as_the_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(LMConfigError, match="is a folder") as caught:
        load_agent_overrides(tmp_path)
    assert str(tmp_path) in str(caught.value)


# ── on the command line ─────────────────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("setting", "shown"),
    [
        ("max_tokens = -5", "max_tokens must be from 1 to 1,000,000, got -5"),
        ("temperature = 1e309", "temperature must be a finite number from 0 to 2, got inf"),
    ],
)
def test_research_ask_reports_a_bad_setting_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setting: str, shown: str
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-placeholder-not-used")
    path = _write(tmp_path, f"[reviewer]\n{setting}\n", "[my] agents.toml")
    result = runner.invoke(app, ["ask", QUESTION, "--lm", "openai/gpt-4.1", "--agents", str(path)])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert lines == [f"error: {path} [reviewer]: {shown}"], result.stderr
    assert result.stdout == ""
