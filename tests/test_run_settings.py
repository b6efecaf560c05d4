"""One settings model for a run (``runs.settings.RunSettings``): its sources in order, its
errors, the one store location type, and what the CLI, the web form and resume derive."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.app import app
from retrieval.store_location import StoreLocation
from runs.errors import BadRunRequest
from runs.settings import RunSettings, config_path, field_default, load_settings

FIXTURE = Path(__file__).parent / "fixtures" / "runs" / "meta_before_settings.json"
runner = CliRunner()


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """A private ``$WISSEN_HOME`` and no ``WISSEN_*`` run setting from the environment."""
    import os

    for name in list(os.environ):
        if name.upper().startswith("WISSEN_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("WISSEN_HOME", str(tmp_path))
    return tmp_path


def write_config(text: str) -> None:
    config_path().write_text(text, encoding="utf-8")


# -- sources: defaults < config file < environment < flags -------------------------------------


def test_each_source_wins_over_the_one_before(home, monkeypatch):
    assert load_settings().max_probes == 5 and load_settings().lm is None  # the defaults

    write_config('[run]\nmax_probes = 4\nmax_rounds = 2\nlm = "openai/gpt-4.1-mini"\n')
    settings = load_settings()
    assert (settings.max_probes, settings.max_rounds, settings.lm) == (4, 2, "openai/gpt-4.1-mini")
    assert settings.retries == 3  # not in the file: the default

    monkeypatch.setenv("WISSEN_MAX_PROBES", "3")
    monkeypatch.setenv("WISSEN_FIGURES", "false")
    settings = load_settings()
    assert (settings.max_probes, settings.max_rounds, settings.figures) == (3, 2, False)

    settings = load_settings(max_probes=1, figures=None)  # None: the flag was not given
    assert (settings.max_probes, settings.max_rounds, settings.figures) == (1, 2, False)


def test_the_existing_store_variable_is_the_store_setting(home, monkeypatch):
    monkeypatch.setenv("WISSEN_STORE", "postgresql://ana:hunter2@db/grid")
    assert load_settings().store == StoreLocation.parse("postgresql://ana:hunter2@db/grid")
    assert str(load_settings(store="grid.sqlite").store) == "grid.sqlite"


@pytest.mark.parametrize(
    ("config", "says"),
    [
        ("[run]\nmax_probes = 9\n", "max_probes from"),
        ("[run]\nmax_probes = 'many'\n", "max_probes from"),
        ("[run]\nmax_probe = 2\n", "no setting 'max_probe'"),
        ("[run\nmax_probes = 2\n", "not valid TOML"),
    ],
)
def test_a_bad_config_file_is_a_clear_one_line_error(home, config, says):
    write_config(config)
    with pytest.raises(BadRunRequest) as error:
        load_settings()
    message = str(error.value)
    assert says in message and str(config_path()) in message and "\n" not in message


def test_a_bad_config_value_stops_research_ask_without_a_traceback(home):
    write_config("[run]\nretries = 99\n")
    result = runner.invoke(app, ["ask", "What was 3M's capex in FY2022?", "--no-track"])
    assert result.exit_code == 2, result.output
    assert "retries from" in result.stderr and "config.toml" in result.stderr
    assert "Traceback" not in result.output


def test_an_environment_value_out_of_bounds_names_the_variable(home, monkeypatch):
    monkeypatch.setenv("WISSEN_MAX_ROUNDS", "0")
    with pytest.raises(BadRunRequest, match=r"\$WISSEN_MAX_ROUNDS"):
        load_settings()


# -- the one store location type ----------------------------------------------------------------


def test_a_store_is_parsed_once_into_a_path_or_an_address():
    sqlite = StoreLocation.parse("~/grid.sqlite")
    assert sqlite.path == Path("~/grid.sqlite").expanduser() and not sqlite.is_postgres
    mangled = StoreLocation.parse(Path("postgresql://ana:hunter2@db:5432/grid"))  # lost a slash
    assert mangled.address == "postgresql://ana:hunter2@db:5432/grid" and mangled.is_postgres
    assert StoreLocation.parse(mangled) is mangled
    with pytest.raises(ValueError):
        StoreLocation.parse("  ")


def test_a_store_address_never_shows_its_password():
    location = StoreLocation.parse("postgresql://ana:hunter2@db:5432/grid?password=x2")
    for shown in (str(location), repr(location), location.stored()):
        assert "hunter2" not in shown and "x2" not in shown and "***" in shown
    dumped = RunSettings.model_validate({"store": location}).model_dump_json()
    assert "hunter2" not in dumped
    assert location.address.startswith("postgresql://ana:hunter2@")  # for connecting only


# -- what derives from the model ----------------------------------------------------------------


def test_the_web_form_defaults_and_bounds_are_the_models():
    from web.ask_form import AskForm, AskRefused, parse_form

    assert AskForm().max_probes == field_default("max_probes") == 5
    assert AskForm().max_rounds == field_default("max_rounds")
    form = parse_form({"question": "q"}, "local/x")
    assert (form.max_probes, form.max_rounds) == (5, 5)
    with pytest.raises(AskRefused, match="from 1 to 5"):
        parse_form({"question": "q", "max_probes": "6"}, "local/x")


def test_research_ask_flags_take_their_help_from_the_model():
    result = runner.invoke(app, ["ask", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert RunSettings.model_fields["lm_timeout"].description in result.stdout
    assert "--max-probes" in result.stdout and "--no-figures" in result.stdout


def test_a_run_records_every_setting_without_secrets(home, tmp_path):
    from runs.resume import recorded_options

    settings = load_settings(
        store="postgresql://ana:hunter2@db/grid", api_base="http://u:pw@host:9/v1", max_probes=2
    )
    options = recorded_options("a question", settings)
    assert set(options) == {"question", *RunSettings.model_fields}
    assert "hunter2" not in json.dumps(options) and "pw@" not in json.dumps(options)
    assert options["store"] == "postgresql://ana:***@db/grid" and options["max_probes"] == 2


def test_a_run_recorded_before_the_settings_model_still_resumes(home, monkeypatch):
    from runs.service import ResearchRequest, _resumed

    record = json.loads(FIXTURE.read_text())
    run_dir = home / "runs" / record["run_id"]
    run_dir.mkdir(parents=True)
    shutil.copy(FIXTURE, run_dir / "meta.json")
    write_config("[run]\nmax_probes = 5\nfigures = false\nretries = 1\n")

    request = ResearchRequest.of(resume=record["run_id"], track=False)
    resumed, previous = _resumed(request)
    assert previous is not None and previous.run_id == record["run_id"]
    assert resumed.question == record["options"]["question"]
    settings = resumed.settings
    assert isinstance(settings, RunSettings)
    assert (settings.max_probes, settings.max_rounds) == (2, 3)  # the run's, not the file's
    assert settings.lm == "openai/gpt-4.1-mini" and settings.program == Path("shipped")
    assert settings.store == StoreLocation.parse("/data/grid.sqlite")
    assert settings.figures is True  # runs from before --no-figures had figures on
    assert settings.retries == 1 and settings.track is False  # the resuming command's own
