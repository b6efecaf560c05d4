"""Researcher: a ReAct tool loop over ``wissen_equity_search`` and the number tools
(``wissen_statement_facts``, ``wissen_calculate``), all locked to one slice.

``dspy.ReAct`` gives the loop an optimiser understands (``react`` picks the next search,
``extract`` writes the answer) and traces cleanly, but it binds its tools at construction.
Slices and probes run concurrently, each with its own slice-locked tool, so this subclass
builds the prompt once from a prototype tool (same name, arguments and description) and
takes the real tool per call. A per-turn search budget is enforced in code: the model is
told when it is spent, and the loop ends after at most ``max_searches`` searches.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import dspy

from calculator.tools import FactTools
from lm.dspy_internals import AdapterParseError, ContextWindowExceededError, react_step
from retrieval.tool import EquitySearchTool
from signatures.researcher import ResearchProbe

logger = logging.getLogger(__name__)

TOOL_NAME = "wissen_equity_search"
SearchHook = Callable[[str, list[dict]], None]


class Researcher(dspy.ReAct):
    """ReAct over one slice-locked search tool; predictors: ``react`` and ``extract``."""

    def __init__(self, max_searches: int = 5, k: int = 5) -> None:
        # The prototype only lends its name, arguments and docstring to the prompt; it holds
        # no searcher, so the module deep-copies cleanly for optimisers.
        prototype = EquitySearchTool(searcher=None, default_k=k).as_function()  # type: ignore[arg-type]
        numbers = FactTools().as_functions()  # statement facts and the calculator
        super().__init__(ResearchProbe, tools=[prototype, *numbers], max_iters=max_searches + 1)
        self.max_searches = max_searches

    def locked_tool(self, tool: EquitySearchTool, on_search: SearchHook | None) -> dspy.Tool:
        """The per-call tool: the prototype's schema over ``tool``, with the search budget."""
        proto = self.tools[TOOL_NAME]
        wissen_equity_search = tool.as_function(budget=self.max_searches, on_search=on_search)
        return dspy.Tool(
            wissen_equity_search,
            name=proto.name,
            desc=proto.desc,
            args=proto.args,
            arg_types=proto.arg_types,
            arg_desc=proto.arg_desc,
        )

    def forward(
        self,
        tool: EquitySearchTool | None = None,
        on_search: SearchHook | None = None,
        fact_tools: FactTools | None = None,
        **input_args: Any,
    ) -> dspy.Prediction:
        if tool is None:
            raise TypeError("Researcher needs the slice-locked EquitySearchTool as `tool`")
        tools = {**self.tools, TOOL_NAME: self.locked_tool(tool, on_search)}
        for function in (fact_tools or FactTools()).as_functions():
            # The slice's own facts behind the prototype's schema (an empty list if none).
            proto = self.tools[function.__name__]
            tools[proto.name] = dspy.Tool(
                function,
                name=proto.name,
                desc=proto.desc,
                args=proto.args,
                arg_types=proto.arg_types,
                arg_desc=proto.arg_desc,
            )
        trajectory: dict[str, Any] = {}
        for idx in range(self.max_iters):
            try:
                pred = react_step(self, self.react, trajectory, **input_args)
            except ContextWindowExceededError as err:
                logger.warning("ending the research trajectory: %s", err)
                break
            except (AdapterParseError, ValueError) as err:
                # The step could not be read (after the adapter's own JSON retry): write the
                # answer from what was gathered; extract fails the turn if it cannot either.
                logger.warning("ending the research trajectory: unreadable step: %s", err)
                break
            trajectory[f"thought_{idx}"] = pred.next_thought
            trajectory[f"tool_name_{idx}"] = pred.next_tool_name
            trajectory[f"tool_args_{idx}"] = pred.next_tool_args
            try:
                trajectory[f"observation_{idx}"] = tools[pred.next_tool_name](**pred.next_tool_args)
            except Exception as err:
                trajectory[f"observation_{idx}"] = (
                    f"Execution error in {pred.next_tool_name}: {err}"
                )
            if pred.next_tool_name == "finish":
                break
        extract = react_step(self, self.extract, trajectory, **input_args)
        return dspy.Prediction(trajectory=trajectory, **extract)
