"""Compiled programs: chosen by default only when they won, resumable compiles, honest demos,
and committed programs that still fit today's ``ResearchProgram``."""

from __future__ import annotations

import json
from pathlib import Path

import dspy
import pytest
from optimiser_lm import OptimiserLM
from scripted_lm import ScriptedLM
from typer.testing import CliRunner

import lm.language_models as language_models
import runs.program_choice as program_choice
from cli.app import app
from evaluation.evalsets import load_rows, row_company
from evaluation.program_state import load_program, save_program
from evaluation.tasks import task_for
from evaluation.trace_demos import compact_text, demo_of
from runs.program_choice import SHIPPED, choose_program
from runs.research_setup import prepare_research

runner = CliRunner()
REPO = Path(__file__).resolve().parents[1]
COMMITTED = sorted((REPO / "optimised").glob("*/program.json"))


def _use(monkeypatch, lm) -> None:
    monkeypatch.setattr(language_models, "build_lm", lambda spec=None: lm)
    monkeypatch.setattr(language_models, "check_lm_reachable", lambda spec=None, timeout=5: None)


def _compiled_folder(root: Path, sample_store_path: Path, wins: bool) -> Path:
    """A compiled program as ``research optimise`` leaves it: a demo on the reviewer."""
    _, research = prepare_research(sample_store_path, SHIPPED)
    predictor = dict(research.named_predictors())["reviewer.review"]
    predictor.demos = [dspy.Example(question="q", draft="d", done=True, augmented=True)]
    folder = root / "default"
    folder.mkdir(parents=True)
    save_program(research, folder / "program.json")
    manifest = {"selected": "compiled", "beats_shipped_on_test": wins}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder


@pytest.mark.parametrize("wins", [True, False])
def test_the_default_program_is_used_only_when_it_beat_the_shipped_one(
    tmp_path, sample_store_path, wins
):
    folder = _compiled_folder(tmp_path, sample_store_path, wins)
    chosen = choose_program(None, root=tmp_path)
    assert chosen == (
        program_choice.ProgramChoice(folder, "optimised/default")
        if wins
        else program_choice.ProgramChoice(None, SHIPPED)
    )
    assert choose_program("shipped", root=tmp_path).path is None
    assert choose_program(Path("elsewhere")).path == Path("elsewhere")


def test_ask_names_the_prompts_it_used_and_shipped_opts_out(
    monkeypatch, wissen_home, sample_store_path, tmp_path
):
    _compiled_folder(tmp_path, sample_store_path, wins=True)
    monkeypatch.setattr(program_choice, "OPTIMISED_DIR", tmp_path)
    _use(monkeypatch, ScriptedLM(probes_per_slice=1))
    question = "What was 3M's capital expenditure in FY2022?"
    base = ["ask", question, "--store", str(sample_store_path), "--no-track", "--quiet"]
    result = runner.invoke(app, [*base, "--max-probes", "1", "--max-rounds", "1"])
    assert result.exit_code == 0, result.output
    assert "prompts optimised/default (" in result.stdout
    (run,) = sorted((wissen_home / "runs").iterdir())
    meta = json.loads((run / "meta.json").read_text())
    assert meta["program"] == "optimised/default"
    assert meta["options"]["program"] == str((tmp_path / "default").resolve())  # resume: same
    result = runner.invoke(app, [*base, "--program", "shipped", "--max-probes", "1"])
    assert result.exit_code == 0, result.output
    assert "prompts shipped (" in result.stdout


def test_a_renamed_predictor_fails_by_name(tmp_path, sample_store_path):
    _, research = prepare_research(sample_store_path, SHIPPED)
    save_program(research, tmp_path / "program.json")
    state = json.loads((tmp_path / "program.json").read_text())
    state["reviewer.check"] = state.pop("reviewer.review")
    (tmp_path / "program.json").write_text(json.dumps(state))
    with pytest.raises(ValueError, match=r"missing predictors: reviewer\.review.*reviewer\.check"):
        load_program(research, tmp_path / "program.json")


def test_a_predictor_added_since_the_save_keeps_its_shipped_state(tmp_path, sample_store_path):
    _, research = prepare_research(sample_store_path, SHIPPED)
    dict(research.named_predictors())["reviewer.review"].demos = [
        dspy.Example(question="q", draft="d", done=True, augmented=True)
    ]
    save_program(research, tmp_path / "program.json")
    state = json.loads((tmp_path / "program.json").read_text())
    del state["researcher.pick"]  # saved before the pick step existed
    (tmp_path / "program.json").write_text(json.dumps(state))
    _, fresh = prepare_research(sample_store_path, SHIPPED)
    loaded = dict(load_program(fresh, tmp_path / "program.json").named_predictors())
    assert len(loaded["reviewer.review"].demos) == 1 and loaded["researcher.pick"].demos == []


@pytest.mark.parametrize("path", COMMITTED, ids=[p.parent.name for p in COMMITTED])
def test_committed_programs_fit_todays_research_program(path, sample_store_path):
    _, research = prepare_research(sample_store_path, SHIPPED)
    load_program(research, path)  # a renamed or removed predictor raises, naming it


@pytest.mark.parametrize("path", COMMITTED, ids=[p.parent.name for p in COMMITTED])
def test_committed_demos_come_from_train_companies_only(path):
    manifest = json.loads((path.parent / "manifest.json").read_text())
    rows = load_rows(manifest["set"])
    split_of = {row["id"]: row["split"] for row in rows}
    company = {row["id"]: row_company(row) for row in rows}
    held_out = {company[i] for i, split in split_of.items() if split != "train"}
    for source in manifest["demo_sources"]:
        assert split_of[source] == "train"
        assert company[source] not in held_out


def test_a_demo_keeps_only_the_evidence_its_answer_cites():
    blocks = [f"[{n}] ACME 10-K FY2031 p.{n}: " + f"row {n} revenue 12{n} " * 80 for n in (1, 2, 3)]
    evidence = "\n\n".join(blocks)
    demo = demo_of({"evidence": evidence, "question": "q"}, {"answer_markdown": "Revenue 122 [2]"})
    assert demo["evidence"].startswith("[2] ACME 10-K FY2031 p.2:")
    assert "[1]" not in demo["evidence"] and "[3]" not in demo["evidence"]
    assert len(demo["evidence"]) < len(blocks[1])
    assert compact_text("short", "anything") == "short"


def test_a_right_answer_off_the_wrong_page_gives_no_demo():
    task = task_for("financebench")
    gold = dspy.Example(question="What was revenue?", answer="$122", evidence_uids=["gold1"])

    def pred(uid: str) -> dspy.Prediction:
        footnote = type("F", (), {"citation": type("C", (), {"uid": uid})()})()
        return dspy.Prediction(report="Revenue was $122.¹", citations=[footnote])

    assert task.passes(gold, pred("gold1"))[0]
    ok, reason = task.passes(gold, pred("other"))
    assert not ok and "gold evidence page" in reason


def _optimise(tmp_path, sample_store_path, name="r"):
    return runner.invoke(
        app,
        ["optimise", "--set", "planner", "--target", "planner", "--limit", "4", "--name", name,
         "--out-dir", str(tmp_path / "optimised"), "--store", str(sample_store_path),
         "--no-track"],
    )  # fmt: skip


def test_an_interrupted_compile_resumes_without_repeating_finished_examples(
    monkeypatch, wissen_home, sample_store_path, tmp_path
):
    from evaluation.tasks import PlannerProgram

    _use(monkeypatch, OptimiserLM())
    real_forward, seen = PlannerProgram.forward, []
    stop_at = {"n": 7}

    def counted(self, question):
        seen.append(question)
        if len(seen) == stop_at["n"]:
            raise KeyboardInterrupt  # killed in the middle of an evaluation
        return real_forward(self, question)

    monkeypatch.setattr(PlannerProgram, "forward", counted)
    first = _optimise(tmp_path, sample_store_path)
    assert first.exit_code != 0 and not (tmp_path / "optimised" / "r").exists()
    interrupted = len(seen)
    stop_at["n"] = -1
    second = _optimise(tmp_path, sample_store_path)
    assert second.exit_code == 0, second.output
    resumed = len(seen) - interrupted
    # One uninterrupted compile elsewhere: how many examples a whole run takes.
    seen.clear()
    assert _optimise(tmp_path / "again", sample_store_path).exit_code == 0
    assert resumed == len(seen) - (interrupted - 1)  # only the example in flight ran twice
    manifest = json.loads((tmp_path / "optimised" / "r" / "manifest.json").read_text())
    train = {row["id"] for row in load_rows("planner", "train")}
    assert set(manifest["demo_sources"]) <= train


def test_a_planner_step_that_invented_years_gives_no_demo():
    from evaluation.trace_demos import demo_agrees

    example = dspy.Example(slices=[{"ticker": "JNJ", "fy": 2023, "fq": 3}])
    right = {"tickers": ["JNJ"], "fiscal_years": [2023], "last_n_years": None}
    assert demo_agrees("planner.extract_facets", right, example)
    for wrong in ({"last_n_years": 3}, {"fiscal_years": [2021]}, {"tickers": ["JPM"]}):
        assert not demo_agrees("planner.extract_facets", {**right, **wrong}, example)
    assert demo_agrees("reviewer.review", {"done": True}, example)


def test_a_review_that_accepts_an_uncited_draft_gives_no_demo():
    from evaluation.trace_demos import demo_agrees

    example = dspy.Example(slices=[])
    clean = (
        "0 fabricated citation(s) removed; 0 marker(s) without a footnote removed; "
        "0 sentence(s) without a citation; 1 page(s) cited"
    )
    uncited = clean.replace("0 sentence(s) without a citation", "1 sentence(s) without a citation")
    assert demo_agrees("reviewer.review", {"done": True, "verification": clean}, example)
    assert not demo_agrees("reviewer.review", {"done": True, "verification": uncited}, example)
    # Sending a flawed draft back is the lesson a reviewer demo should teach.
    assert demo_agrees("reviewer.review", {"done": False, "verification": uncited}, example)


def test_a_draft_with_an_uncited_sentence_gives_no_researcher_demo():
    from evaluation.trace_demos import demo_agrees

    example = dspy.Example(slices=[])
    cited = {"answer_markdown": "Consumer Health is discontinued [1]. The gain was $20bn [1]."}
    uncited = {"answer_markdown": "Consumer Health is discontinued. The gain was $20 billion [1]."}
    assert demo_agrees("researcher.extract", cited, example)
    assert not demo_agrees("researcher.extract", uncited, example)
    assert not demo_agrees("researcher.extract", {"answer_markdown": ""}, example)
