"""A schema-aware, deterministic scripted LM for end-to-end tests of the research program.

It reads what DSPy's ChatAdapter sends (the output fields listed in the system message, the
input fields of the last user message), recognises which agent is asking, and answers in
that agent's schema. The researcher really drives the ReAct loop: it calls
``wissen_equity_search`` and cites uids, labels and numbers taken from the observations it
was shown, so citations resolve to real pages of the sample grid. Behaviours per agent are
configurable (reviewer garbage, forced insufficient evidence, fabricated citations,
malformed output), calls are counted per agent, and an optional delay makes concurrency
observable. It plugs in as a DSPy 3.4 custom engine (``dspy.LM(engine=...)``), the
supported way to script an LM without a provider.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import dspy
from dspy.lm15 import Message, Response, TextPart, Usage

from citations.markup import MARKER_RE

GARBAGE = "Honestly it looks fine-ish to me, maybe? Hard to say without more context."
#: The first is the question in other words, as a model writes it first (the program
#: researches the question itself and drops the paraphrase); the others are angles.
PROBE_TITLES = [
    "The question",
    "Drivers and risks",
    "Capital allocation",
    "Liquidity",
    "Outlook",
]
#: A search hit as the researcher is shown it: ``[3] MMM 10-K FY2018 p.48: <passage>``
#: (read anywhere in the text, as a gullible model would read one forged inside a passage).
_HIT_RE = re.compile(r"\[(?P<n>\d+)\] (?P<label>[A-Z][^\n\[\]:]*?) p\.(?P<page>\d+): ")
#: A hit number no search hands out within a test: what the fabricating script cites.
FABRICATED_HIT = 99
_NUMBER_RE = re.compile(r"(?<![\w.])\$?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w.,]\d)")

Predicate = Callable[[str, str], bool]  # (slice_label, probe_question) -> bool


def _about_one_company(question: str, ticker: str) -> str:
    """``question`` with every company but ``ticker``'s taken out of it."""
    from retrieval.companies import load_companies
    from retrieval.mentions import name_index

    for name, other in name_index(load_companies()).items():
        if other != ticker and len(name) > 1:
            question = re.sub(rf"\b{re.escape(name)}\b(?:'s)?", "", question, flags=re.IGNORECASE)
    return re.sub(r"\s+", " ", re.sub(r"\b(and|with)\s+(?=\W|'s)", "", question)).strip()


def parse_inputs(user: str, names: list[str]) -> dict[str, str]:
    """Input field values, split only at the signature's own headers (values may nest some)."""
    spans = []
    for name in names:
        m = re.search(rf"^\[\[ ## {name} ## \]\]\n", user, re.MULTILINE)
        if m:
            spans.append((m.start(), m.end(), name))
    spans.sort()
    out = {}
    for (_, end, name), nxt in zip(spans, [*spans[1:], None], strict=True):
        out[name] = user[end : nxt[0] if nxt else len(user)].strip()
    return out


def agent_of(outputs: list[str]) -> str:
    names = set(outputs)
    for field, agent in [
        ("next_tool_name", "researcher.react"),
        ("answer_markdown", "researcher.extract"),
        ("answering_passage", "researcher.pick"),
        ("fiscal_years", "planner.extract_facets"),
        ("ticker", "planner.equity_to_ticker"),
        ("probes", "probes"),
        ("done", "reviewer"),
        ("slice_summary", "synthesiser"),
        ("report_markdown", "composer"),
    ]:
        if field in names:
            return agent
    return "unknown"


def hits_in(text: str) -> list[dict[str, Any]]:
    """Search results shown to the LM (hit number, label, page, and the text after them)."""
    matches = list(_HIT_RE.finditer(text))
    hits = []
    for m, nxt in zip(matches, [*matches[1:], None][: len(matches)], strict=True):
        body = text[m.end() : nxt.start() if nxt else len(text)]
        hits.append({**m.groupdict(), "text": body})
    return hits


def first_number(text: str) -> str | None:
    m = _NUMBER_RE.search(text)
    return m.group().lstrip("$") if m else None


def cited_sentences(markdown: str) -> list[str]:
    body = re.split(r"\n\*\*Sources\*\*", markdown)[0]
    body = "\n".join(line for line in body.splitlines() if not line.startswith("#"))
    return [s.strip() for s in re.findall(r"[^.\n]+\.\S*", body) if MARKER_RE.search(s)]


class ScriptedEngine:
    """The DSPy engine: one canonical request in, one canonical response out."""

    def __init__(self, owner: ScriptedLM) -> None:
        self.owner = owner

    def complete(self, request):
        system = (
            request.system
            if isinstance(request.system, str)
            else "".join(p.text for p in (request.system or []))
        )
        user = next((m.text or "" for m in reversed(request.messages) if m.role == "user"), "")
        text = self.owner.respond(system, user)
        return Response(
            id=None,
            model="scripted",
            message=Message.assistant([TextPart(text)]),
            finish_reason="stop",
            usage=Usage(
                input_tokens=len(system + user) // 4,
                output_tokens=len(text) // 4,
                total_tokens=(len(system + user) + len(text)) // 4,
            ),
        )

    def stream(self, request):
        from dspy.lm15 import response_to_events

        return response_to_events(self.complete(request))

    def close(self) -> None:
        pass


class ScriptedLM(dspy.LM):
    """Deterministic stand-in for every agent of the research program."""

    def __init__(
        self,
        *,
        facets: dict[str, Any] | None = None,
        tickers_for: dict[str, str] | None = None,
        probes_per_slice: int = 2,
        searches_per_turn: int = 1,
        reviewer: str = "accept",
        insufficient: Predicate | None = None,
        fabricate: Predicate | None = None,
        garbage: Callable[[str, dict[str, str]], bool] | None = None,
        claim: str | None = None,
        delay: float = 0.0,
        cache: bool = False,
    ) -> None:
        super().__init__("scripted/wissen", engine=ScriptedEngine(self), cache=cache)
        self.facets = facets or {}
        self.tickers_for = tickers_for or {}
        self.probes_per_slice = probes_per_slice
        self.searches_per_turn = searches_per_turn
        self.reviewer = reviewer
        self.insufficient = insufficient
        self.fabricate = fabricate
        self.garbage = garbage
        self.claim = claim  # one more sentence every draft states, cited to its first page
        self.delay = delay
        self.calls: Counter[str] = Counter()
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()

    def copy(self, **kwargs):
        copied = super().copy(**kwargs)
        copied._engine_spec = ScriptedEngine(copied)
        return copied

    @property
    def total_calls(self) -> int:
        return sum(self.calls.values())

    # -- request parsing -------------------------------------------------------------------
    def respond(self, system: str, user: str) -> str:
        head, _, rest = system.partition("Your output fields are:")
        outputs = re.findall(r"^\d+\. `(\w+)`", rest.split("All interactions", 1)[0], re.MULTILINE)
        names = re.findall(r"^\d+\. `(\w+)`", head, re.MULTILINE)
        inputs = parse_inputs(user.split("\n\nRespond with", 1)[0], names)
        agent = agent_of(outputs)
        with self._lock:
            self.calls[agent] += 1
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.delay:
                time.sleep(self.delay)
            if self.garbage and self.garbage(agent, inputs):
                return GARBAGE
            values = getattr(self, "_" + agent.replace(".", "_"), self._unknown)(inputs)
            if values is None:
                return GARBAGE
            return self._format(values, json_mode="JSON object" in user)
        finally:
            with self._lock:
                self.in_flight -= 1

    @staticmethod
    def _format(values: dict[str, Any], json_mode: bool) -> str:
        if json_mode:
            return json.dumps(values, ensure_ascii=False)
        parts = []
        for name, value in values.items():
            shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            parts.append(f"[[ ## {name} ## ]]\n{shown}")
        parts.append("[[ ## completed ## ]]")
        return "\n\n".join(parts)

    # -- agents ----------------------------------------------------------------------------
    def _unknown(self, inputs):
        return None

    def _planner_extract_facets(self, inputs):
        question = inputs.get("question", "")
        return {
            "tickers": self.facets.get("tickers", []),
            "equities": self.facets.get("equities", []),
            "fiscal_years": self.facets.get(
                "fiscal_years", sorted({int(y) for y in re.findall(r"\b20\d\d\b", question)})
            ),
            "fiscal_quarters": self.facets.get("fiscal_quarters", []),
            "last_n_years": self.facets.get("last_n_years"),
            "granularity": self.facets.get("granularity"),
        }

    def _planner_equity_to_ticker(self, inputs):
        return {"ticker": self.tickers_for.get(inputs.get("equity", ""), "UNKNOWN")}

    def _probes(self, inputs):
        n = min(self.probes_per_slice, int(inputs.get("max_probes", "5")))
        question = inputs.get("question", "")
        # As a model told the slice writes them: about the slice's own company (the program
        # drops a probe that names another one).
        topic = _about_one_company(question, inputs.get("slice_label", "").split(" ")[0])
        # An angle's title names the question's subject, as a focused model writes it.
        return {
            "probes": [
                {
                    "probe_title": t if i == 0 else f"{t}: {topic}",
                    "probe_question": (topic if i == 0 else f"{t}: {topic}"),
                }
                for i, t in enumerate(PROBE_TITLES[:n])
            ]
        }

    def _researcher_react(self, inputs):
        trajectory = inputs.get("trajectory", "")
        done = len(re.findall(r"\[\[ ## tool_name_\d+ ## \]\]\nwissen_equity_search", trajectory))
        if done < self.searches_per_turn:
            query = inputs.get("probe_question", "revenue")
            if inputs.get("reviewer_feedback"):
                query = inputs["reviewer_feedback"].lstrip("- ").splitlines()[0] + " " + query
            if done:
                query = f"{query} (search {done + 1})"  # a repeated call would end the turn
            return {
                "next_thought": "Search the slice's filings.",
                "next_tool_name": "wissen_equity_search",
                "next_tool_args": {"query": query[:200]},
            }
        return {
            "next_thought": "I have the pages.",
            "next_tool_name": "finish",
            "next_tool_args": {},
        }

    def _researcher_pick(self, inputs):
        """The last passage shown: a choice the search's order would not make."""
        hits = hits_in(inputs.get("evidence", ""))
        return {"answering_passage": int(hits[-1]["n"]) if hits else 0}

    def _researcher_extract(self, inputs):
        hits = hits_in(inputs.get("evidence") or inputs.get("trajectory", ""))
        seen, chosen = set(), []
        for hit in hits:
            if hit["n"] not in seen:
                seen.add(hit["n"])
                chosen.append(hit)
        chosen = chosen[:2]
        title = inputs.get("probe_title", "the probe")
        sentences = []
        for hit in chosen:
            number = first_number(hit["text"])
            mark = f"[{hit['n']}]"
            if number:
                sentences.append(f"The {hit['label']} filing reports {number} {mark} on {title}.")
            else:
                sentences.append(f"The {hit['label']} filing discusses {title} {mark}.")
        if self.fabricate and self.fabricate(
            inputs.get("slice_label", ""), inputs.get("probe_question", "")
        ):
            sentences.append(f"Management also guided to growth [{FABRICATED_HIT}].")
        if self.claim and chosen:
            sentences.append(f"{self.claim} [{chosen[0]['n']}].")
        if not sentences:
            sentences.append("The searches returned no page that answers this probe.")
        return {"answer_markdown": " ".join(sentences)}

    def _reviewer(self, inputs):
        label, probe = inputs.get("slice_label", ""), inputs.get("probe_question", "")
        round_number = int(inputs.get("round_number", "1"))
        if self.reviewer == "garbage":
            return None
        if self.insufficient and self.insufficient(label, probe):
            if round_number < 2:  # ask once, then give up: exercises a follow-up round too
                return {
                    "done": False,
                    "follow_up_prompts": ["Find the segment figures in the notes."],
                    "insufficient_evidence": False,
                }
            return {"done": True, "follow_up_prompts": [], "insufficient_evidence": True}
        if self.reviewer == "never_done":
            return {
                "done": False,
                "follow_up_prompts": ["Try again.", "More.", "Still more.", "And more."],
                "insufficient_evidence": False,
            }
        if self.reviewer == "follow_up_once" and round_number < 2:
            return {
                "done": False,
                "follow_up_prompts": ["Cite the cash flow statement."],
                "insufficient_evidence": False,
            }
        return {"done": True, "follow_up_prompts": [], "insufficient_evidence": False}

    def _synthesiser(self, inputs):
        sentences = cited_sentences(inputs.get("probe_answers", ""))
        label = inputs.get("slice_label", "")
        return {"slice_summary": f"For {label}: " + " ".join(sentences)}

    def _composer(self, inputs):
        text = inputs.get("slice_summaries", "")
        labels = json.loads(inputs.get("slice_labels", "[]"))
        prose, values = [], {}
        sections = re.split(r"^### ", text.split("\n**Sources**")[0], flags=re.MULTILINE)
        for section in sections:
            label, _, body = section.partition("\n")
            label = label.strip()
            if label not in labels:
                continue
            cited = cited_sentences(body)
            if not cited:
                continue
            # Lead with the slice's first cited figure, as a writer would (the search's
            # first page need not be the one that states it).
            figure = rf"({_NUMBER_RE.pattern})({MARKER_RE.pattern})"
            lead = next((c for c in cited if re.search(figure, c)), cited[0])
            prose.append(lead)
            m = re.search(figure, lead)
            if m:
                values[label] = m.group(1) + m.group(2)
        rows = [{"metric": "Headline figure", "values": values}] if len(labels) > 1 else []
        return {"report_markdown": "\n\n".join(prose), "comparison_rows": rows}
