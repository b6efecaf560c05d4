"""Tool results as a model reads them, and the patterns that recognise them when pasted back.

Every page, statement fact, calculation and web document (``programs.web_sources``) a tool
returns is shown behind the hit number it is cited by (``[3]``), never its uid, which a small
model garbles when it copies it. The same line formats are what a model pastes into a draft
instead of answering, so the patterns that recognise a pasted line (:data:`HIT_HEADER_RE`,
:data:`FACT_LINE_RE`) live here, next to the code that writes those lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from citations.markup import MARKER_RE

Mark = Callable[[str], str]  # a retrieved page's uid -> its hit number as cited, "[3]"
#: Characters of an earlier hit's passage a later step still sees.
COMPACT_CHARS = 120
#: A hit's header as :func:`render_hit` writes it (``[3] ACME 10-K FY2031 p.48:``).
HIT_HEADER_RE = re.compile(
    r"^\s*(?:[-*]\s+)?(?:\[\d+\]\s*)*[A-Z][A-Z0-9.&-]*\s+(?:10-K|10-Q|8-K|Earnings|Annual Report)"
    r"[^:\n]{0,24}?\s+p\.\s?\d+:"
)
#: A statement fact as :func:`render_fact` writes it: ``[4] capex FY2031: -4,817.3 million
#: USD ('Capital expenditures', CTSO 10-K FY2031 p.48)``.
FACT_LINE_RE = re.compile(r"^\s*(?:[-*]\s+)?(?:\[\d+\]\s*)*\S+ FY\d{4}[^:\n]*: .*\bp\.\d+\)\s*$")


def _short(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= COMPACT_CHARS else text[: COMPACT_CHARS - 1] + "…"


def render_hit(hit: dict, mark: Mark, whole: bool) -> str:
    """``[3] ACME 10-K FY2031 p.48: <passage>``: the mark to cite, where, and what it says."""
    text = str(hit.get("text", "")).strip() if whole else _short(hit.get("text", ""))
    return f"{mark(hit['uid'])} {hit.get('doc_label', '')} p.{hit.get('page', '?')}: {text}"


def _is_web(item: Any) -> bool:
    """A web document or news item (``websources.tools``): it has a URL."""
    return isinstance(item, dict) and "url" in item and "uid" in item


def _web_body(item: dict) -> str:
    return str(item.get("text") or item.get("summary") or "").strip()


def render_web(item: dict, mark: Mark, whole: bool) -> str:
    """``[5] web: “Title”, Publisher, 2023-02-14, https://…: <text>`` (a news item: its
    summary): the mark to cite, what and where it is, and what it says."""
    body = _web_body(item) if whole else _short(_web_body(item))
    when = f", {item['published']}" if item.get("published") else ""
    where = f"“{item.get('title', '')}”, {item.get('publisher', '')}{when}, {item['url']}"
    return f"{mark(item['uid'])} web: {where}: {body}"


def _is_page(item: Any) -> bool:
    """A page (search hit or page read) or a web document: something with text to cite."""
    return _is_web(item) or (isinstance(item, dict) and "text" in item and "uid" in item)


def render_page(item: dict, mark: Mark, whole: bool) -> str:
    """A page or a web document as :func:`render_hit` or :func:`render_web` writes it."""
    return render_web(item, mark, whole) if _is_web(item) else render_hit(item, mark, whole)


def render_fact(row: dict, mark: Mark) -> str:
    """``[3] capex FY2031: -4,817.3 million USD ("Capital expenditures", ACME 10-K p.48)``."""
    value = row.get("printed") or f"{row.get('value')} {row.get('unit', '')}".strip()
    where = f"{row.get('doc_label', '')} p.{row.get('page', '?')}"
    return f"{mark(row['uid'])} {row.get('concept') or '-'} {row.get('period', '')}: {value} " + (
        f"({row.get('label', '')!r}, {where})"
    )


def render_observation(observation: Any, mark: Mark, whole: bool = True) -> Any:
    """A tool result as the model reads it: each page, fact or calculation behind its hit
    number.

    ``whole=False`` is an earlier result: a hit keeps its mark, where it is and its passage's
    opening; the model has read the whole result in the step after it was returned, and
    later steps need only what was found and where. Facts and calculations are short already.
    """
    if _is_page(observation):
        return render_page(observation, mark, whole)
    if isinstance(observation, dict) and "value" in observation and "cite_uids" in observation:
        marks = "".join(mark(uid) for uid in observation["cite_uids"])
        formula = MARKER_RE.sub("", str(observation.get("formula", "")))
        return f"= {observation['value']} ({formula}) {marks}".rstrip()
    if (
        isinstance(observation, list)
        and observation
        and all(isinstance(item, dict) and "uid" in item for item in observation)
    ):
        lines = [
            render_page(item, mark, whole) if _is_page(item) else render_fact(item, mark)
            for item in observation
        ]
        return ("\n\n" if whole else "\n").join(lines)
    return observation


def _body(item: dict) -> str:
    """What a page or web item says (its text; a news item's summary)."""
    return _web_body(item) if _is_web(item) else str(item.get("text", ""))


def trajectory_view(trajectory: dict[str, Any], mark: Mark, keep_whole: int) -> dict[str, Any]:
    """``trajectory`` as the model reads it (a copy): observations rendered, all but the last
    ``keep_whole`` of them in compact form."""
    steps = sorted(
        int(key.rsplit("_", 1)[1]) for key in trajectory if key.startswith("observation_")
    )
    old = set(steps[: max(0, len(steps) - keep_whole)])
    return {
        key: (
            render_observation(value, mark, whole=int(key.rsplit("_", 1)[1]) not in old)
            if key.startswith("observation_")
            else value
        )
        for key, value in trajectory.items()
    }


#: The most evidence an answer step reads (about 3,000 tokens on a small model's tokenizer).
MAX_EVIDENCE_CHARS = 12_000


def evidence_view(
    trajectory: dict[str, Any], mark: Mark, max_chars: int = MAX_EVIDENCE_CHARS
) -> str:
    """What a trajectory found, as the answer step reads it: every page (its longest text:
    a whole page read over its passage), statement fact and calculation once, in the order
    first found, behind its hit number; no thoughts, tool names or arguments to copy back.

    A small model shown its whole ReAct trajectory tends to paste it as the answer; shown
    the evidence alone, as the single-call baseline is, it writes one."""
    pages: dict[str, dict] = {}
    items: list[tuple[str, Any]] = []
    steps = sorted(int(k.rsplit("_", 1)[1]) for k in trajectory if k.startswith("observation_"))
    for step in steps:
        observation = trajectory[f"observation_{step}"]
        found = observation if isinstance(observation, list) else [observation]
        for item in found:
            if not isinstance(item, dict):
                continue  # a tool's message (budget spent, an error): nothing to cite
            if _is_page(item):
                uid = item["uid"]
                if uid not in pages:
                    items.append(("page", uid))
                if len(_body(item)) > len(_body(pages.get(uid, {}))):
                    pages[uid] = item
            elif "uid" in item or "cite_uids" in item:
                line = (
                    render_observation(item, mark)
                    if "cite_uids" in item
                    else render_fact(item, mark)
                )
                if ("line", line) not in items:
                    items.append(("line", line))
    blocks, used = [], 0
    for kind, value in items:
        block = render_page(pages[value], mark, whole=True) if kind == "page" else value
        if blocks and used + len(block) > max_chars:
            blocks.append(f"({len(items) - len(blocks)} more results not shown)")
            break
        blocks.append(block)
        used += len(block)
    return "\n\n".join(blocks) if blocks else "(the searches found nothing)"
