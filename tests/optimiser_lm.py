"""A scripted LM for optimiser tests: schema-aware, and better with better prompts.

It answers every research agent as :class:`ScriptedLM` does, answers the optimisers' own
signatures (MIPROv2's proposer, SIMBA's rules, any other) with plain text for each output
field, and makes the planner's quality depend on the prompt: with demos in the
conversation it reads names and periods correctly; without, whether it does depends on a
hash of the instructions and the question. So candidate prompts really score differently
and an optimiser has something to find, as with a real model.
"""

from __future__ import annotations

import hashlib
import re
import threading

from scripted_lm import ScriptedEngine, ScriptedLM, agent_of

ALIASES = {"pepsi": "PEP", "pepsico": "PEP", "3m": "MMM", "coca-cola": "KO", "coke": "KO"}
_STOP = {"What", "How", "Compare", "The", "Which", "Give", "Show", "Do", "Report", "Rank"}


class _Engine(ScriptedEngine):
    def complete(self, request):
        # Few-shot demos arrive as earlier user/assistant turns.
        self.owner.local.demos = sum(1 for m in request.messages if m.role == "assistant")
        return super().complete(request)


class OptimiserLM(ScriptedLM):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._engine_spec = _Engine(self)
        self.local = threading.local()  # per call: worker threads share the LM

    def copy(self, **kwargs):
        copied = super().copy(**kwargs)
        copied._engine_spec = _Engine(copied)
        copied.local = threading.local()
        return copied

    def respond(self, system: str, user: str) -> str:
        self.local.system = system
        _, _, rest = system.partition("Your output fields are:")
        outputs = re.findall(r"^\d+\. `(\w+)`", rest.split("All interactions", 1)[0], re.MULTILINE)
        if agent_of(outputs) == "unknown":
            with self._lock:
                self.calls["optimiser"] += 1
            values = self._generic(outputs, user)
            if "" in values:
                return values[""]
            return self._format(values, json_mode="JSON object" in user)
        return super().respond(system, user)

    def _generic(self, outputs: list[str], user: str) -> dict[str, str]:
        digest = hashlib.sha256(user.encode()).hexdigest()[:6]
        text = (
            "Read the question closely: list every company and brand it names and every fiscal "
            f"year or quarter it states; never add periods it does not state. (variant {digest})"
        )
        if not outputs:  # a bare prompt (GEPA's reflection): the instruction in a code block
            return {"": f"```\n{text}\n```"}
        return {name: text for name in outputs}

    def _good(self, question: str) -> bool:
        if getattr(self.local, "demos", 0):
            return True
        instructions = getattr(self.local, "system", "").split("Your objective is:", 1)[-1]
        return hashlib.sha256((instructions + question).encode()).digest()[0] % 3 != 0

    def _planner_extract_facets(self, inputs):
        question = inputs.get("question", "")
        if not self._good(question):
            return {
                "tickers": [], "equities": [], "fiscal_years": [], "fiscal_quarters": [],
                "last_n_years": None, "granularity": None,
            }  # fmt: skip
        names = re.findall(r"\b[A-Z][A-Za-z0-9.&-]+(?:\s+[A-Z][a-z]+)?", question)
        return {
            "tickers": re.findall(r"\b[A-Z]{2,5}\b", question),
            "equities": [n.removesuffix("'s") for n in names if n.split()[0] not in _STOP],
            "fiscal_years": sorted({int(y) for y in re.findall(r"\b20\d\d\b", question)}),
            "fiscal_quarters": sorted({int(q) for q in re.findall(r"\bQ([1-4])\b", question)}),
            "last_n_years": None,
            "granularity": "deep" if re.search(r"quarter", question, re.I) else None,
        }

    def _planner_equity_to_ticker(self, inputs):
        equity = inputs.get("equity", "")
        good = self._good(equity)
        return {"ticker": ALIASES.get(equity.lower().strip(), "UNKNOWN") if good else "UNKNOWN"}
