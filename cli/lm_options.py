"""The ``--lm``/``--api-base`` options and how a model that cannot run is shown to the user.

Building and checking the models is ``lm.run_models``; here its :class:`ModelSetupError`
becomes a one-line error and exit code 2.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from cli.errors import fail
from cli.research_setup import setting_option

if TYPE_CHECKING:
    from lm.run_models import RunModels

LMOption = Annotated[str | None, setting_option("lm", "--lm")]
ApiBaseOption = Annotated[str | None, setting_option("api_base")]


def build_models(model: str | None, api_base: str | None, **options: Any) -> RunModels:
    """:func:`lm.run_models.build_models`, its error a message (loads DSPy: call it late)."""
    from lm.run_models import ModelSetupError
    from lm.run_models import build_models as build

    try:
        return build(model, api_base, **options)
    except ModelSetupError as exc:
        raise fail(str(exc)) from None
