"""The Ask form: the options of ``research ask`` a browser may set, checked before a run starts.

A browser gets ``research ask``'s research options (model, probes, rounds, compiled
program; defaults and bounds from :class:`~runs.settings.RunSettings`) but no option that
names a file: a compiled program is chosen from those saved
under ``optimised/``, by name, and a model is a provider model string or the bundled model,
never a GGUF path. The question gets the CLI's own checks when the run starts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from runs.program_choice import OPTIMISED_DIR, SHIPPED
from runs.settings import field_bounds, field_default, one_period

MODEL_RE = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.:@/-]{1,160}")
PROGRAM_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
COMPANY_RE = re.compile(r"[A-Za-z0-9$][A-Za-z0-9 .&'-]{0,79}")
MAX_QUESTION_FORM_CHARS = 20_000  # the run's own check (2,000 printable characters) comes after


class AskRefused(ValueError):
    """The form cannot start a run; the message says what to change."""


@dataclass(frozen=True)
class AskForm:
    question: str = ""
    lm: str | None = None
    program: str | None = None
    max_probes: int = field_default("max_probes")
    max_rounds: int = field_default("max_rounds")
    #: The company a question that names none is about (a ticker or a name).
    company: str | None = None
    #: The period a question that names none is about ("FY2023 Q2", "FY2022").
    period: str | None = None
    #: Checked: the researcher may read URLs and search news in this run; unchecked (None):
    #: the server's own setting (``WISSEN_WEB_SOURCES``, off by default).
    web_sources: bool | None = None


def compiled_programs(root: Path = OPTIMISED_DIR) -> list[str]:
    """Names of the compiled programs under ``optimised/`` (each a folder with program.json)."""
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if (p / "program.json").is_file())


def program_path(name: str | None, root: Path = OPTIMISED_DIR) -> Path | None:
    """The folder of the compiled program ``name``; only names ``compiled_programs`` lists.
    No name is the default choice; ``shipped`` the shipped prompts."""
    if not name:
        return None
    if name == SHIPPED:
        return Path(SHIPPED)
    if not PROGRAM_RE.fullmatch(name) or name not in compiled_programs(root):
        raise AskRefused(f"no compiled program {name!r} under {root}/")
    return root / name


def check_model(model: str | None, bundled: str) -> str | None:
    """``model`` if a browser may choose it: a provider model string or the bundled model."""
    if not model:
        return None
    model = model.strip()
    if model.startswith("local/") and model != bundled:
        raise AskRefused(f"the only local model the web app runs is {bundled}")
    if not MODEL_RE.fullmatch(model) or "//" in model or ".." in model:
        raise AskRefused(f"{model[:80]!r} is not a model string such as openai/gpt-4.1-mini")
    return model


def check_company(company: str | None) -> str | None:
    """``company`` if it reads as a ticker or a company name; the planner checks the grid."""
    company = (company or "").strip()
    if not company:
        return None
    if not COMPANY_RE.fullmatch(company):
        raise AskRefused(f"{company[:80]!r} is not a ticker or company name such as MMM or 3M")
    return company


def check_period(period: str | None) -> str | None:
    """``period`` if it reads as one fiscal year, at most one quarter ("FY2023 Q2")."""
    try:
        return one_period(period)
    except ValueError as exc:
        raise AskRefused(f"{(period or '')[:40]!r} is {exc}") from None


def parse_form(fields: dict[str, str], bundled: str) -> AskForm:
    """The form's fields as an :class:`AskForm`, or :class:`AskRefused` saying what is wrong."""
    question = fields.get("question", "")
    if len(question) > MAX_QUESTION_FORM_CHARS:
        raise AskRefused("the question is far too long: ask one focused question")

    def bounded(name: str) -> int:
        raw = (fields.get(name) or str(field_default(name))).strip()
        low, high = field_bounds(name)
        if not raw.isdigit() or not low <= int(raw) <= high:
            raise AskRefused(
                f"{name.replace('max_', '')} must be a whole number from {low} to {high}"
            )
        return int(raw)

    program = (fields.get("program") or "").strip() or None
    program_path(program)
    return AskForm(
        question=question,
        lm=check_model(fields.get("lm"), bundled),
        program=program,
        max_probes=bounded("max_probes"),
        max_rounds=bounded("max_rounds"),
        company=check_company(fields.get("company")),
        period=check_period(fields.get("period")),
        web_sources=True if fields.get("web_sources") in ("on", "true", "1") else None,
    )
