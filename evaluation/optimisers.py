"""The optimisers ``research optimise`` offers, each sized by a budget.

* ``labelled``: few-shot demos for the researcher's answer step written from train's gold
  answers and their evidence pages (``evaluation.labelled_demos``; no train runs), the
  budget's count of them (``light`` 2, ``medium`` 3, ``heavy`` 4), and one more that says
  the pages shown do not answer.
* ``traced``: few-shot demos for the answer step made of the evidence the shipped
  program's own search found on train questions and their gold answers, cited to the block
  that holds the gold page (``evaluation.traced_demos``; resumable), the budget's count.
* ``pick``: few-shot demos for the researcher's pick step (which of the first search's
  passages the answer step reads first), from the same traced train runs and the hit
  number of the block on a gold evidence page (``evaluation.pick_demos``; resumable).
* ``bootstrap``: few-shot demos from the program's own runs on train that passed
  (``evaluation.trace_demos``: right answer citing a gold page; resumable); the budget is
  the demos per predictor and the train runs spent finding them (``light`` 2 and 20,
  ``medium`` 3 and 40, ``heavy`` 4 and all of train).
* ``mipro``: MIPROv2 proposes instructions and demo sets, searched with Optuna on dev
  (``auto`` = the budget).
* ``gepa``: reflective instruction evolution from the metric's textual feedback, with a
  reflection LM, Pareto selection on dev (``auto`` = the budget).
* ``simba``: stochastic mini-batch ascent on train with self-reflective rules.

Every optimiser compiles on train only; dev is the selection set; test is never shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import dspy

OPTIMISERS = ("bootstrap", "labelled", "traced", "pick", "mipro", "gepa", "simba")
BUDGETS = ("light", "medium", "heavy")

_DEMOS = {"light": 2, "medium": 3, "heavy": 4}
_TRAIN_RUNS = {"light": 20, "medium": 40, "heavy": 10_000}
_SIMBA_STEPS = {"light": 4, "medium": 8, "heavy": 16}


@dataclass(frozen=True)
class OptimiserSpec:
    name: str
    budget: str = "light"
    seed: int = 7
    num_threads: int = 4
    max_demos: int | None = None  # None: the budget's (light 2, medium 3, heavy 4)
    max_train_runs: int | None = None  # bootstrap: None is the budget's (20, 40, all)

    def __post_init__(self) -> None:
        if self.name not in OPTIMISERS:
            raise ValueError(f"unknown optimiser {self.name!r}: choose {', '.join(OPTIMISERS)}")
        if self.budget not in BUDGETS:
            raise ValueError(f"unknown budget {self.budget!r}: choose {', '.join(BUDGETS)}")
        if self.max_demos is None:
            object.__setattr__(self, "max_demos", _DEMOS[self.budget])
        if self.max_train_runs is None:
            object.__setattr__(self, "max_train_runs", _TRAIN_RUNS[self.budget])


def compile_program(
    spec: OptimiserSpec,
    student: dspy.Module,
    train: list[dspy.Example],
    dev: list[dspy.Example],
    metric: Any,
    feedback_metric: Any,
    proposer_lm: dspy.LM | None = None,
) -> dspy.Module:
    """Compile ``student`` on ``train`` with DSPy's optimiser for ``spec`` (all but
    ``bootstrap``); dev picks between candidates."""
    if not train:
        raise ValueError("the train split is empty: nothing to compile on")
    demos = spec.max_demos
    if spec.name in ("bootstrap", "labelled", "traced", "pick"):
        raise ValueError(f"{spec.name} compiles with its own demos module, not here")
    if spec.name == "mipro":
        optimiser = dspy.MIPROv2(
            metric=metric,
            prompt_model=proposer_lm,
            auto=spec.budget,
            max_bootstrapped_demos=demos,
            max_labeled_demos=demos,
            num_threads=spec.num_threads,
            seed=spec.seed,
            verbose=False,
        )
        return optimiser.compile(student, trainset=train, valset=dev or None, seed=spec.seed)
    if spec.name == "gepa":
        optimiser = dspy.GEPA(
            metric=feedback_metric,
            auto=spec.budget,
            reflection_lm=proposer_lm or dspy.settings.lm,
            num_threads=spec.num_threads,
            seed=spec.seed,
            track_stats=True,
            use_mlflow=True,
        )
        return optimiser.compile(student, trainset=train, valset=dev or None)
    optimiser = dspy.SIMBA(
        metric=metric,
        bsize=min(32, len(train)),
        num_candidates=4,
        max_steps=_SIMBA_STEPS[spec.budget],
        max_demos=demos,
        prompt_model=proposer_lm,
        num_threads=spec.num_threads,
    )
    return optimiser.compile(student, trainset=train, seed=spec.seed)
