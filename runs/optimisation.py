"""Compiling prompts on a golden set and keeping the result as a version (`research optimise`).

Compiles on train, evaluates the shipped and the compiled program on dev (which selects)
and on test (which only reports: no optimiser sees it). One parent MLflow run holds the
scores (``baseline_dev``, ``baseline_test``, ``dev``, ``test``, all 0-1), the program and
each predictor's instructions and demos as Markdown; each of the four evaluations is a
child run logging the same metric names as ``research eval`` (``accuracy``, ``wrong``,
``refusal``, ``citation_coverage``…), tagged with the program version, so MLflow's compare
view puts versions side by side. The program lands in ``optimised/NAME/``
(``program.json``, ``manifest.json``, ``prompts/*.md``) only when everything succeeded, by
renaming a finished folder into place; Ctrl-C leaves no half program and marks the MLflow
run KILLED. What ran is kept in ``optimised/.work/NAME/`` (the bootstrap's train runs, each
evaluation's rows), so the same command continues after a kill without running a
finished example again.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runs.demo_compiles import DEMO_COMPILES
from runs.errors import BadRunRequest
from runs.optimisation_job import Optimisation, Say
from runs.tracking import log_outcome, program_version, tracked_run


@dataclass
class OptimisationOutcome:
    """The four evaluations, which prompts were kept, and where the program was saved."""

    base_dev: Any
    base_test: Any
    dev: Any
    test: Any
    selected: str
    folder: Path
    beats_shipped_on_test: bool = False


def _evaluate_child(
    job: Optimisation, program: Any, split: str, label: str, version: str, say: Say
):
    """Evaluate ``program`` on ``split`` (resumably) and, when tracking, log a child run."""
    from evaluation.runner import evaluate

    examples = job.splits[split]
    say(f"{label} {split}: {len(examples)} example(s)")
    ledger = job.work / "evals" / f"{version}-{job.fingerprint}-{split}.jsonl"
    outcome = evaluate(program, job.task, examples, split, ledger=ledger)
    if job.track:
        import mlflow

        with mlflow.start_run(run_name=f"{label}-{split}", nested=True):
            mlflow.log_params(
                {"set": job.task.name, "split": split, "program": label, "program_version": version}
            )
            log_outcome(outcome)
    return outcome


def _write_output(folder: Path, research: Any, manifest: dict[str, Any], pages: dict[str, str]):
    """Write program, manifest and prompt pages to a temporary folder, then rename it."""
    from atomicfiles import write_json_atomic
    from evaluation.program_state import save_program

    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}."))
    try:
        save_program(research, staging / "program.json")
        for name, text in pages.items():
            (staging / "prompts").mkdir(exist_ok=True)
            (staging / "prompts" / f"{name}.md").write_text(text)
        write_json_atomic(staging / "manifest.json", manifest)
        staging.chmod(0o755)  # mkdtemp makes it private
        os.replace(staging, folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _params(job: Optimisation, shipped_version: str) -> dict[str, Any]:
    import dspy

    from evaluation.evalsets import evalset_hash
    from lm.run_models import describe_model
    from lm.weights import model_sha256

    spec = job.spec
    return {
        "set": job.set_name,
        "optimiser": spec.name,
        "target": job.target,
        "budget": spec.budget,
        "seed": spec.seed,
        "max_demos": spec.max_demos,
        "max_train_runs": spec.max_train_runs,
        "model": job.model.description,
        "model_sha256": model_sha256(job.model.description),
        "reflection_model": describe_model(job.reflection_lm)
        if job.reflection_lm
        else "(task model)",
        "evalset_hash": evalset_hash(job.set_name),
        "git_commit": job.commit,
        "dspy_version": dspy.__version__,
        "baseline_version": shipped_version,
        "train": len(job.splits["train"]),
        "dev": len(job.splits["dev"]),
        "test": len(job.splits["test"]),
        "max_probes": job.research.settings.max_probes,
        "max_rounds": job.research.settings.max_rounds,
    }


def _compile(job: Optimisation, student: Any, names: list[str], say: Say) -> tuple[Any, list[str]]:
    """The compiled student and the train ids its demos came from.

    ``bootstrap`` is :mod:`evaluation.trace_demos` (demos from passing runs only, resumable),
    ``labelled`` :mod:`evaluation.labelled_demos` (demos from gold answers, no runs),
    ``traced`` :mod:`evaluation.traced_demos` (gold answers on the program's own evidence),
    ``pick`` :mod:`evaluation.pick_demos` (which first-search passage answers); the other
    optimisers are DSPy's, compiled in one go.
    """
    from evaluation.optimisers import compile_program
    from evaluation.trace_demos import attach_demos, bootstrap_demos

    spec, train = job.spec, job.splits["train"]
    if not train:
        raise BadRunRequest("the train split is empty: nothing to compile on")
    what = f"{', '.join(names)} with {spec.name} ({spec.budget})"
    say(f"compiling {what} on {len(train)} train example(s)")
    if spec.name in DEMO_COMPILES:
        return DEMO_COMPILES[spec.name](job, student, names, say)
    if spec.name != "bootstrap":
        compiled = compile_program(
            spec, student, train, job.splits["dev"], job.task.metric, job.task.feedback_metric,
            job.proposer,
        )  # fmt: skip
        return compiled, []
    pool, sources = bootstrap_demos(
        student,
        train,
        names,
        job.task.passes,
        job.work / f"train-runs-{job.fingerprint}.jsonl",
        max_demos=spec.max_demos,
        seed=spec.seed,
        max_runs=spec.max_train_runs,
        progress=lambda done, total: say(f"train run {done}/{total}") if done % 5 == 0 else None,
    )
    attached = attach_demos(student, pool)
    say(f"demos for {', '.join(attached) or 'no predictor'} from {len(sources)} passing run(s)")
    return student, sources


def _beats(compiled: Any, shipped: Any) -> bool:
    """Right more often, wrong no more often, and citing no less: the bar for using a
    compiled program by default."""
    c, s = compiled.means, shipped.means
    if "accuracy" not in c:
        return compiled.score > shipped.score
    return (
        c["accuracy"] > s["accuracy"]
        and c.get("wrong", 0.0) <= s.get("wrong", 0.0)
        and c.get("citation_coverage", 0.0) >= s.get("citation_coverage", 0.0)
    )


def _holds_on_dev(compiled: Any, shipped: Any) -> bool:
    """The selection bar on dev: a composite not below the shipped one and, where answers
    are scored, accuracy not below it and wrong answers not above it. The composite alone
    would keep a program that cites more and answers worse (a labelled compile did: dev
    0.800 against 0.867 right, chosen on its extra citations)."""
    c, s = compiled.means, shipped.means
    if compiled.score < shipped.score:
        return False
    if "accuracy" not in c:
        return True
    return c["accuracy"] >= s.get("accuracy", 0.0) and c.get("wrong", 0.0) <= s.get("wrong", 0.0)


def _dev_line(outcome: Any) -> str:
    """What the selection read of one dev evaluation, for the message that explains it."""
    means = outcome.means
    if "accuracy" not in means:
        return f"score {outcome.score:.3f}"
    return (
        f"score {outcome.score:.3f}, right {means['accuracy']:.3f}, "
        f"wrong {means.get('wrong', 0.0):.3f}"
    )


def _summary(outcome: Any) -> dict[str, Any]:
    return {"examples": len(outcome.rows), "failed": outcome.errors, "by_type": outcome.by_type()}


def _keep(
    job: Optimisation,
    run: Any,
    names: list[str],
    programs: dict[str, Any],
    evals: dict[str, Any],
    demo_sources: list[str],
    params: dict[str, Any],
    compile_seconds: float,
    say: Say,
) -> OptimisationOutcome:
    """Choose on dev, write the manifest, log to MLflow and save the folder."""
    from evaluation.program_state import copy_state, instructions_markdown
    from evaluation.prompt_registry import register_prompts
    from metrics.composite import WEIGHTS

    base_dev, base_test = evals["shipped-dev"], evals["shipped-test"]
    dev, test = evals["compiled-dev"], evals["compiled-test"]
    research = job.research
    pages = instructions_markdown(programs["compiled"], names)
    selected = "compiled" if _holds_on_dev(dev, base_dev) else "baseline"
    copy_state(programs["compiled" if selected == "compiled" else "shipped"], research, names)
    if selected == "baseline":
        say(
            f"the compiled program did worse than the shipped one on dev ({_dev_line(dev)} "
            f"against {_dev_line(base_dev)}): keeping the shipped prompts; the compiled ones "
            "are in prompts/*.md"
        )
    wins = selected == "compiled" and _beats(test, base_test)
    version = program_version(research.dump_state())
    scores = {
        "baseline_dev": base_dev.score,
        "baseline_test": base_test.score,
        "dev": dev.score,
        "test": test.score,
    }
    manifest: dict[str, Any] = {
        "name": job.name,
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "program_version": version,
        "selected": selected,
        "beats_shipped_on_test": wins,
        "scores": scores,
        "evaluations": {
            "shipped": {"dev": _summary(base_dev), "test": _summary(base_test)},
            "compiled": {"dev": _summary(dev), "test": _summary(test)},
        },
        "composite_weights": WEIGHTS,
        "predictors": names,
        "demo_sources": demo_sources,
        "compile_seconds": round(compile_seconds, 1),
        **params,
    }
    if job.track:
        import mlflow

        mlflow.log_metrics(scores)
        mlflow.log_params({"program_version": version, "selected": selected, "wins": wins})
        for predictor, text in pages.items():
            mlflow.log_text(text, f"prompts/{predictor}.md")
        mlflow.log_dict(research.dump_state(), "program.json")
        kept_test = test if selected == "compiled" else base_test
        tags = {
            "run_id": run.info.run_id,
            "set": job.set_name,
            "optimiser": job.spec.name,
            "program_version": version,
            "selected": selected,
            "test": f"{kept_test.score:.6f}",
        }
        manifest["mlflow_run_id"] = run.info.run_id
        kept_dev = dev if selected == "compiled" else base_dev
        manifest["prompts"] = register_prompts(research, names, tags, kept_dev.score, pages)
        mlflow.log_dict(manifest, "manifest.json")
    _write_output(job.folder, research, manifest, pages)
    return OptimisationOutcome(base_dev, base_test, dev, test, selected, job.folder, wins)


def optimise_program(job: Optimisation, say: Say) -> OptimisationOutcome:
    """Compile, evaluate shipped and compiled on dev then test, keep the better on dev, save.

    ``say`` gets one line per stage; a target with nothing to optimise is a
    :class:`BadRunRequest` before anything runs.
    """
    import dspy

    from evaluation.program_state import copy_state, freeze_except, thaw

    student = job.task.program(job.research)
    shipped_version = program_version(job.research.dump_state())  # before freezing hides agents
    try:
        # Frozen until the compile ends: it changes what optimisers see, not what runs.
        names = freeze_except(student, job.target)
    except ValueError as exc:
        raise BadRunRequest(str(exc)) from None
    params = _params(job, shipped_version)
    tracking = (
        tracked_run("wissen-optimise", job.name, params, optimising=True)
        if job.track
        else contextlib.nullcontext()
    )
    with tracking as run, dspy.context(lm=job.model.lm, adapter=job.model.adapter):
        shipped = job.research.deepcopy()
        started = time.monotonic()
        compiled, demo_sources = _compile(job, student, names, say)
        compile_seconds = time.monotonic() - started
        thaw(student)
        thaw(compiled)
        candidate = job.research.deepcopy()
        copy_state(compiled, candidate, names)
        programs = {"shipped": shipped, "compiled": candidate}
        versions = {"shipped": shipped_version, "compiled": program_version(candidate.dump_state())}
        evals = {
            f"{label}-{split}": _evaluate_child(
                job, job.task.program(programs[label]), split, label, versions[label], say
            )
            for split in ("dev", "test")
            for label in ("shipped", "compiled")
        }
        return _keep(job, run, names, programs, evals, demo_sources, params, compile_seconds, say)
