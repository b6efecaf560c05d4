"""Researcher: a ReAct tool loop over ``wissen_equity_search``, ``wissen_read_page`` and the
number tools (``wissen_statement_facts``, ``wissen_calculate``), all locked to one slice.

``dspy.ReAct`` gives the loop an optimiser understands (``react`` picks the next search,
``extract`` writes the answer; ``pick``, once compiled, chooses which passage of the first
search it reads first: :mod:`programs.passage_pick`) and traces cleanly, but it binds its
tools at construction. Slices and probes run concurrently, each with its own slice-locked
tool, so this subclass builds the prompt once from a prototype tool (same name, arguments
and description) and takes the real tool per call. A per-turn search budget is enforced
in code: the model is told when it is spent, and the loop ends after at most
``max_searches`` tool steps.

The first step is code's: a search for the probe question (in later rounds, the query the
probe loop made of the reviewer's follow-up, or the next pages of the same search after a
draft that could cite none of the pages it had), so the model starts from passages instead
of from an empty trajectory. When the slice's statements answer the question's figure, code
adds it as a second step (a ``wissen_calculate`` result with its pages' hit numbers): a
judgement ("is the quick ratio healthy?") is then written beside the computed figure
rather than from whatever number a passage happened to show. Two
failed tool calls, or one call repeated with the same arguments, end a turn. With
``answer_first`` (the default), a first draft is written from that search alone, and the
tool loop runs only on the reviewer's follow-ups: on a small local model every loop step
costs a minute of prompt reading, and a draft from the probe's own top passages was the
better one (``benchmarks/answers.py``: on the test split's narrative questions, half the
tokens, and accuracy 0.44 against 0.25).

Prompt size is the cost on a small local model: search hits are passages, whole pages come
only when asked for (at most ``max_page_reads`` a turn), and a step sees only the latest
``keep_whole`` results whole, earlier ones in compact form (what it takes to cite them and
their opening words; :mod:`programs.observations`). The answer step reads the evidence
alone, every page, fact and calculation found once and whole, without the trajectory's
thoughts and tool calls (a small model shown those pastes them back as its answer).
Every page is shown behind its hit number (``[3]``), which is what the model cites
(``citations.hit_numbers``): code writes the Sources.

With ``web`` settings (``research ask --web-sources``; off by default) the loop also offers
``wissen_read_url`` and, when a news provider is configured, ``wissen_news_search``
(:mod:`programs.web_sources`): what they return is numbered among the probe's pages.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Collection
from typing import Any

import dspy

from calculator.tools import FactTools
from lm.dspy_internals import AdapterParseError, ContextWindowExceededError, react_step
from lm.faults import UnusableOutput
from programs.observations import Mark, evidence_view, trajectory_view
from programs.passage_pick import put_first
from programs.web_sources import ProbeWebTools, offered_tools, prototypes
from retrieval.search.tools import EquitySearchTool
from signatures.researcher import AnswerProbeFromEvidence, PickAnsweringPassage, ResearchProbe
from websources.settings import WebSettings

logger = logging.getLogger(__name__)

TOOL_NAME = "wissen_equity_search"
READ_TOOL_NAME = "wissen_read_page"
SearchHook = Callable[[str, list[dict]], None]
#: Failed tool calls that end a turn.
MAX_TOOL_ERRORS = 2
#: The first search's query, at most (a probe question may carry a long definition).
MAX_QUERY_CHARS = 400


def _call_key(name: str, args: Any) -> str:
    """A tool call as a comparable string (arguments in key order)."""
    return f"{name}:{json.dumps(args, sort_keys=True, default=str)}"


class Researcher(dspy.ReAct):
    """ReAct over one slice-locked search tool; predictors: ``react`` and ``extract``."""

    def __init__(
        self,
        max_searches: int = 5,
        k: int = 5,
        max_page_reads: int = 2,
        keep_whole: int = 1,
        answer_first: bool = True,
        web: WebSettings | None = None,
    ) -> None:
        # The prototypes only lend their names, arguments and docstrings to the prompt; they
        # hold no searcher, so the module deep-copies cleanly for optimisers.
        search = EquitySearchTool(searcher=None, default_k=k)  # type: ignore[arg-type]
        numbers = FactTools().as_functions()  # statement facts and the calculator
        self.web_tools = offered_tools(web) if web is not None else ()
        super().__init__(
            ResearchProbe,
            tools=[
                search.slice_function(),
                search.read_page_function(),
                *numbers,
                *prototypes(self.web_tools),
            ],
            max_iters=max_searches + 1,  # tool steps of any kind, then finish
        )
        #: What the web tools may do (None: no web tools, the default).
        self.web = web
        # The answer step writes the answer from the evidence the steps found, not from the
        # trajectory (a small model pastes that back), and with no reasoning field first (a
        # small model puts its prose there and leaves only the Sources for the answer).
        self.extract = dspy.Predict(AnswerProbeFromEvidence)
        # Which first-search passage the answer step reads first: runs only once compiled
        # (with demos); with none the search's order stands (programs.passage_pick).
        self.pick = dspy.Predict(PickAnsweringPassage)
        self.max_searches = max_searches
        self.max_page_reads = max_page_reads
        self.keep_whole = keep_whole
        self.answer_first = answer_first

    def describe_tools(self) -> None:
        """Name every tool in the step's instructions again after compiled instructions were
        loaded over them (``evaluation.program_state.load_program``): a program compiled
        without web tools would otherwise offer them by name alone."""
        signature = self.react.signature
        described = signature.instructions
        missing = [str(tool) for name, tool in self.tools.items() if name not in described]
        if missing:
            text = "\n".join([signature.instructions, *missing])
            self.react.signature = signature.with_instructions(text)

    def _as_prototype(self, function: Callable[..., Any]) -> dspy.Tool:
        """``function`` behind the prompt's schema for the tool of the same name."""
        proto = self.tools[function.__name__]
        return dspy.Tool(
            function,
            name=proto.name,
            desc=proto.desc,
            args=proto.args,
            arg_types=proto.arg_types,
            arg_desc=proto.arg_desc,
        )

    def locked_tool(
        self, tool: EquitySearchTool, on_search: SearchHook | None, skip_first: Collection[str] = ()
    ) -> dspy.Tool:
        """The per-call search tool: the prototype's schema over ``tool``, with its budget;
        its first search passes over the pages in ``skip_first``."""
        return self._as_prototype(
            tool.slice_function(
                budget=self.max_searches, on_search=on_search, skip_first=skip_first
            )
        )

    def _first_search(
        self, search: dspy.Tool, input_args: dict[str, Any], first_query: str | None = None
    ) -> dict[str, Any]:
        """The trajectory's first step, taken by code: a search for ``first_query`` (the
        probe loop's query for this round: the probe question, then the content of the
        reviewer's follow-up, ``retrieval.search.query.follow_up_query``), else the probe question.
        Every probe needs that search, and a small model's first tool call is its most
        error-prone step."""
        probe = str(input_args.get("probe_question") or input_args.get("question") or "")
        query = (first_query or probe or "financial statements")[:MAX_QUERY_CHARS]
        try:
            observation: Any = search(query=query)
        except Exception as err:
            observation = f"Execution error in {TOOL_NAME}: {err}"
        trajectory: dict[str, Any] = {}
        thought = "First, search this slice's filings for what the probe asks."
        _append_step(trajectory, thought, TOOL_NAME, {"query": query}, observation)
        return trajectory

    def _explore(
        self,
        trajectory: dict[str, Any],
        tools: dict[str, dspy.Tool],
        mark: Mark,
        input_args: dict[str, Any],
    ) -> None:
        """The tool loop after code's first search: the model's steps, appended to
        ``trajectory`` until it finishes, loops, errs twice or spends its budget."""
        calls = {_call_key(TOOL_NAME, trajectory["tool_args_0"])}
        errors = 0
        first = sum(1 for key in trajectory if key.startswith("observation_"))
        for idx in range(first, first + self.max_iters - 1):
            try:
                view = trajectory_view(trajectory, mark, self.keep_whole)
                pred = react_step(self, self.react, view, **input_args)
            except ContextWindowExceededError as err:
                logger.warning("ending the research trajectory: %s", err)
                return
            except (AdapterParseError, ValueError, UnusableOutput) as err:
                # The step could not be read (after the adapter's own JSON retry), or ran on
                # past the token limit: write the answer from what was gathered; extract fails
                # the turn if it cannot either.
                logger.warning("ending the research trajectory: unreadable step: %s", err)
                return
            trajectory[f"thought_{idx}"] = pred.next_thought
            trajectory[f"tool_name_{idx}"] = pred.next_tool_name
            trajectory[f"tool_args_{idx}"] = pred.next_tool_args
            if pred.next_tool_name == "finish":
                trajectory[f"observation_{idx}"] = "Completed."
                return
            call = _call_key(pred.next_tool_name, pred.next_tool_args)
            if call in calls:
                # The same call again returns the same result: the model is looping.
                trajectory[f"observation_{idx}"] = "Already called with these arguments."
                logger.warning("ending the research trajectory: a repeated tool call")
                return
            calls.add(call)
            try:
                trajectory[f"observation_{idx}"] = tools[pred.next_tool_name](**pred.next_tool_args)
            except Exception as err:
                trajectory[f"observation_{idx}"] = (
                    f"Execution error in {pred.next_tool_name}: {err}"
                )
                errors += 1
                if errors >= MAX_TOOL_ERRORS:
                    # A model that cannot form a call after reading the error will not: a
                    # small one repeats it (e.g. the argument schema) until the budget is gone.
                    logger.warning("ending the research trajectory after %d tool errors", errors)
                    return

    def _pick_first(
        self, trajectory: dict[str, Any], tool: EquitySearchTool, input_args: dict[str, Any]
    ) -> None:
        """Show the first search's passage the compiled pick step chooses first, behind
        ``[1]`` (:func:`programs.passage_pick.put_first`); an unreadable choice keeps the
        search's order."""
        observation = trajectory.get("observation_0")
        if not isinstance(observation, list) or len(observation) < 2:
            return
        question = str(input_args.get("probe_question") or input_args.get("question") or "")
        try:
            chosen = self.pick(question=question, evidence=evidence_view(trajectory, tool.mark))
            number = int(chosen.answering_passage)
        except (AdapterParseError, ValueError, TypeError, UnusableOutput) as err:
            logger.warning("keeping the search's order: unreadable pick: %s", err)
            return
        trajectory["observation_0"] = put_first(observation, tool, number)

    def forward(
        self,
        tool: EquitySearchTool | None = None,
        on_search: SearchHook | None = None,
        fact_tools: FactTools | None = None,
        web_tools: ProbeWebTools | None = None,
        **input_args: Any,
    ) -> dspy.Prediction:
        if tool is None:
            raise TypeError("Researcher needs the slice-locked EquitySearchTool as `tool`")
        first_query = input_args.pop("first_query", None)
        first_skip = input_args.pop("first_skip", ())
        computed = input_args.pop("computed", ())
        search = self.locked_tool(tool, on_search, skip_first=first_skip)
        trajectory = self._first_search(search, input_args, first_query)
        for observation in computed:
            _append_step(
                trajectory,
                "The slice's statement facts give the figure the question asks about.",
                "wissen_calculate",
                {"formula": str(observation.get("formula", ""))},
                observation,
            )
        if self.pick.demos and _first_draft(input_args):
            self._pick_first(trajectory, tool, input_args)
        if not (self.answer_first and _first_draft(input_args)):
            # The loop's tools: the same search (its budget counts the first search too).
            tools = {
                **self.tools,
                TOOL_NAME: search,
                READ_TOOL_NAME: self._as_prototype(tool.read_page_function(self.max_page_reads)),
            }
            for function in (fact_tools or FactTools()).as_functions():
                # The slice's own facts (an empty list if none).
                tools[function.__name__] = self._as_prototype(function)
            if self.web is not None:  # what they return joins ``tool``'s pages
                web = web_tools or ProbeWebTools(tool, self.web, self.web_tools)
                for function in web.functions():
                    tools[function.__name__] = self._as_prototype(function)
            self._explore(trajectory, tools, tool.mark, input_args)
        evidence = evidence_view(trajectory, tool.mark)
        extract = self.extract(evidence=evidence, **input_args)
        return dspy.Prediction(trajectory=trajectory, **extract)


def _append_step(
    trajectory: dict[str, Any], thought: str, tool_name: str, args: Any, observation: Any
) -> None:
    """A step taken by code, after the steps already in ``trajectory``."""
    idx = sum(1 for key in trajectory if key.startswith("observation_"))
    trajectory[f"thought_{idx}"] = thought
    trajectory[f"tool_name_{idx}"] = tool_name
    trajectory[f"tool_args_{idx}"] = args
    trajectory[f"observation_{idx}"] = observation


def _first_draft(input_args: dict[str, Any]) -> bool:
    """A turn with no draft before it and no reviewer follow-up to answer."""
    return not any(
        str(input_args.get(name) or "").strip() for name in ("previous_draft", "reviewer_feedback")
    )
