"""Compiled instructions in MLflow's prompt registry, one prompt per predictor.

Each ``research optimise`` run registers a new version of every predictor it optimised
(``wissen.planner.extract_facets``…), tagged with the run id, evalset, optimiser and dev
and test scores, and linked to the run. Per prompt, the version with the best dev score on
the same evalset carries the ``champion`` alias: dev, because test is for reporting and
never for choosing.
"""

from __future__ import annotations

from typing import Any

import dspy

CHAMPION = "champion"


def prompt_name(predictor: str) -> str:
    return f"wissen.{predictor}"


def register_prompts(
    program: dspy.Module,
    names: list[str],
    tags: dict[str, Any],
    dev_score: float,
    pages: dict[str, str] | None = None,
) -> dict[str, dict[str, Any]]:
    """Register ``names``' prompts (the Markdown page of instructions and demos, when
    ``pages`` has one; else the instructions); return per prompt its version and champion
    flag."""
    import mlflow

    client = mlflow.MlflowClient()
    predictors = dict(program.named_predictors())
    out: dict[str, dict[str, Any]] = {}
    for name in names:
        version = mlflow.genai.register_prompt(
            name=prompt_name(name),
            template=(pages or {}).get(name) or predictors[name].signature.instructions,
            commit_message=f"{tags.get('optimiser')} on {tags.get('set')}: dev {dev_score:.3f}",
            tags={**{k: str(v) for k, v in tags.items()}, "dev": f"{dev_score:.6f}"},
        )
        run_id = tags.get("run_id")
        if run_id:
            client.link_prompt_version_to_run(run_id, version)
        champion = _promote_if_best(client, prompt_name(name), version.version, tags, dev_score)
        out[prompt_name(name)] = {"version": version.version, "champion": champion}
    return out


def _promote_if_best(
    client: Any, name: str, version: int, tags: dict[str, Any], dev_score: float
) -> bool:
    """Give ``version`` the champion alias unless a version on the same set scored higher."""
    try:
        current = client.get_prompt_version_by_alias(name, CHAMPION)
    except Exception:  # no champion yet
        current = None
    same_set = current is not None and current.tags.get("set") == str(tags.get("set"))
    if same_set and float(current.tags.get("dev", "-1")) >= dev_score:
        return False
    client.set_prompt_alias(name, CHAMPION, version)
    return True
