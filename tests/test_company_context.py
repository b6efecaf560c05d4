"""A question that names no company, asked of one company (``research ask --company``, the
web form's company field, the benchmarks' document context): the planner reads it as about
that company and says so in a Scope line; a question that names a company keeps its own,
even one the grid lacks; a context company the grid does not hold is a short error, as is
no company at all. The run's period (``--period``) works the same way for a question that
names no period."""

from __future__ import annotations

import json

import dspy
import pytest
from run_scripted_ask import install_scripted_lm
from scripted_lm import ScriptedLM
from typer.testing import CliRunner

from cli.app import app
from programs.errors import PlanningError
from programs.planner import SlicePlanner

runner = CliRunner()
NO_COMPANY = "What was capital expenditure in FY2022?"


@pytest.fixture(scope="module")
def cells(sample_store):
    return sample_store.cells()


def plan(cells, question: str, company: str | None):
    with dspy.context(lm=ScriptedLM()):
        return SlicePlanner(cells)(question=question, company=company)


@pytest.mark.parametrize("company", ["MMM", "mmm", "$MMM", " 3M ", "3m"])
def test_a_question_naming_no_company_is_read_as_its_context_company(cells, company):
    result = plan(cells, NO_COMPANY, company)
    assert result.labels == ["MMM FY2022 Q4"]
    assert result.scope[0] == "MMM: the question names no company; read as the run's company"
    assert result.scope[0] in result.user_notes()


def test_a_question_naming_a_company_keeps_its_own(cells):
    result = plan(cells, "What was PepsiCo's capital expenditure in FY2022?", "MMM")
    assert result.labels == ["PEP FY2022 Q4"]
    assert not any("run's company" in line for line in result.scope)


def test_a_question_naming_a_company_the_grid_lacks_is_not_given_the_context(cells):
    with pytest.raises(PlanningError) as err:
        plan(cells, "How did Apple do in FY2022?", "MMM")
    assert "Apple (AAPL) is not in the grid" in err.value.message


def test_a_context_company_the_grid_lacks_is_a_short_error(cells):
    with pytest.raises(PlanningError) as err:
        plan(cells, NO_COMPANY, "Tesla")
    message = err.value.message
    assert "its context company 'Tesla' is not in the grid" in message
    assert "3M (MMM), Coca-Cola (KO), PepsiCo (PEP)" in message
    assert len(message.splitlines()) <= 3


def test_no_company_anywhere_says_how_to_give_one(cells):
    with pytest.raises(PlanningError) as err:
        plan(cells, NO_COMPANY, None)
    assert "name one, or give the company it is about (--company)" in err.value.message


def test_research_ask_company_plans_the_question_and_keeps_it_for_a_resume(
    sample_store_path, monkeypatch, tmp_path
):
    install_scripted_lm(monkeypatch)
    record = tmp_path / "run.json"
    args = ["ask", NO_COMPANY, "--store", str(sample_store_path), "--no-track", "--quiet"]
    given = ["--max-probes", "1", "--company", "MMM", "--json", str(record)]
    result = runner.invoke(app, [*args, *given])
    assert result.exit_code == 0, result.output
    run = json.loads(record.read_text())
    assert run["plan"]["slices"] == [{"ticker": "MMM", "fy": 2022, "fq": 4}]
    assert "the question names no company; read as the run's company" in result.output

    from runs.resume import RESUMED_SETTINGS

    assert "company" in RESUMED_SETTINGS  # a resume plans with the run's company, not none

    refused = runner.invoke(app, args)
    assert refused.exit_code != 0
    assert "--company" in refused.output and "Traceback" not in refused.output


def test_the_web_form_passes_a_company_and_refuses_one_that_is_no_name():
    from web.ask_form import AskRefused, parse_form

    form = parse_form({"question": NO_COMPANY, "company": " MMM "}, "local/x")
    assert form.company == "MMM"
    assert parse_form({"question": NO_COMPANY, "company": ""}, "local/x").company is None
    assert _started(form)["company"] == "MMM"
    with pytest.raises(AskRefused, match="not a ticker or company name"):
        parse_form({"question": NO_COMPANY, "company": "<script>"}, "local/x")


def test_research_ask_period_plans_a_question_naming_none_on_that_filing(
    sample_store_path, monkeypatch, tmp_path
):
    install_scripted_lm(monkeypatch)
    record = tmp_path / "run.json"
    args = ["ask", "What was 3M's capital expenditure?", "--store", str(sample_store_path)]
    given = ["--no-track", "--quiet", "--max-probes", "1", "--period", "FY2019", "--json"]
    result = runner.invoke(app, [*args, *given, str(record)])
    assert result.exit_code == 0, result.output
    run = json.loads(record.read_text())
    assert run["plan"]["slices"] == [{"ticker": "MMM", "fy": 2019, "fq": 4}]
    assert "the question names no period; read as the run's period, FY2019" in result.output
    refused = runner.invoke(app, [*args, "--no-track", "--quiet", "--period", "soon"])
    assert refused.exit_code != 0 and "Traceback" not in refused.output
    assert "not one fiscal year or quarter" in refused.output


def test_the_web_form_passes_a_period_and_refuses_one_that_is_no_period():
    from web.ask_form import AskRefused, parse_form

    form = parse_form({"question": NO_COMPANY, "period": " FY2023 Q2 "}, "local/x")
    assert form.period == "FY2023 Q2"
    assert _started(form)["period"] == "FY2023 Q2"
    with pytest.raises(AskRefused, match="not one fiscal year or quarter"):
        parse_form({"question": NO_COMPANY, "period": "FY2019-FY2021"}, "local/x")


def _started(form) -> dict:
    """The run request the web app's run control makes of ``form`` (nothing started)."""
    from web.run_control import RunControl

    requests: list[dict] = []
    control = RunControl.__new__(RunControl)
    control._start = lambda **request: requests.append(request) or "run"
    control.start(form)
    return requests[0]
