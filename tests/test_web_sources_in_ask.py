"""``research ask --web-sources``: the researcher may read a web page and cite it like a page.

Off by default: the researcher's prompt then names no web tool. On, a page that
``wissen_read_url`` returned (from the recorded-response server on loopback, never the
network) is shown behind a hit number, a draft citing it keeps the citation with its URL,
title, publisher and retrieval time in the Sources, and a citation of a web document no
tool returned in this probe is removed as fabricated.
"""

from __future__ import annotations

import re

import dspy
import pytest
import test_websources_server as server
from hypothesis import given
from hypothesis import strategies as st
from scripted_lm import ScriptedLM
from test_websources_server import allowed
from typer.testing import CliRunner

from citations.markup import Citation, CitedAnswer, Footnote, ReferenceList, parse_cited_answer
from citations.verification import verify_answer
from cli.app import app
from programs.drafts import verify_draft
from programs.observations import render_observation
from programs.research_program import ResearchProgram, ResearchSettings
from programs.researcher import Researcher
from programs.web_sources import NEWS_TOOL, READ_URL_TOOL
from retrieval.search.tools import EquitySearchTool
from retrieval.store import GridFilter
from runs.settings import load_settings
from websources.records import web_uid
from websources.settings import WebSettings

served = server.served  # the recorded-response server fixture
PUBLISHER = "Example Business News"
TITLE = "3M raises capital spending plan for 2023"
PROBE = {
    "question": "How much does 3M plan to spend on capital projects?",
    "slice_label": "MMM FY2018 Q4",
    "probe_title": "Capex plan",
    "probe_question": "What capital spending did 3M plan?",
    "previous_draft": "",
    "reviewer_feedback": "- Find what 3M announced about its capital spending plan.",
}


class _WebReadingLM(ScriptedLM):
    """After code's first search: reads ``url``, then finishes; the answer cites the web
    document by the hit number the evidence shows it under."""

    def __init__(self, url: str | None) -> None:
        super().__init__()
        self.url = url

    def _researcher_react(self, inputs):
        steps = len(re.findall(r"\[\[ ## tool_name_\d+ ## \]\]", inputs.get("trajectory", "")))
        if steps == 1 and self.url:
            return {
                "next_thought": "Read the company's announcement.",
                "next_tool_name": READ_URL_TOOL,
                "next_tool_args": {"url": self.url},
            }
        return {"next_thought": "Done.", "next_tool_name": "finish", "next_tool_args": {}}

    def _researcher_extract(self, inputs):
        web = re.search(r"\[(\d+)\] web: ", inputs.get("evidence", ""))
        if web is None:
            return {"answer_markdown": "The searches returned nothing on the plan."}
        return {"answer_markdown": f"3M planned about $1.8 billion of capital spending [{web[1]}]."}


def _research(searcher, lm: ScriptedLM, web: WebSettings | None):
    tool = EquitySearchTool(searcher, lock=GridFilter("MMM", 2018, 4), default_k=2)
    researcher = Researcher(max_searches=3, k=2, web=web)
    with dspy.context(lm=lm, adapter=dspy.ChatAdapter()):
        pred = researcher(tool=tool, **PROBE)
    prompts = [entry["messages"][-1]["content"] for entry in lm.history]
    systems = [entry["messages"][0]["content"] for entry in lm.history]
    return tool, pred, prompts, systems


def test_with_the_setting_off_the_prompt_offers_no_web_tool(searcher, served):
    lm = _WebReadingLM(served.url("/article"))
    asked = len(served.requests)
    tool, pred, _, systems = _research(searcher, lm, web=None)
    assert systems and not any(READ_URL_TOOL in s or NEWS_TOOL in s for s in systems)
    assert READ_URL_TOOL not in Researcher().tools and "wissen_equity_search" in systems[0]
    # A model that names it anyway made no call: the step is unreadable, the turn ends.
    assert "observation_1" not in pred.trajectory and len(served.requests) == asked
    assert all(hit.doc_type != "web" for hit in tool.retrieved.values())


def test_the_setting_is_off_by_default_and_on_by_flag_or_environment(monkeypatch, tmp_path):
    for name in [n for n in __import__("os").environ if n.upper().startswith("WISSEN_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("WISSEN_HOME", str(tmp_path))
    assert load_settings().web_sources is False and ResearchSettings().web_sources is False
    assert load_settings(web_sources=True).web_sources is True
    monkeypatch.setenv("WISSEN_WEB_SOURCES", "1")
    assert load_settings().web_sources is True
    result = CliRunner().invoke(app, ["ask", "--help"], env={"COLUMNS": "200"})
    assert "--web-sources" in result.stdout


def test_news_search_is_offered_only_with_a_provider(searcher, monkeypatch):
    for name in ("WISSEN_NEWS_FEEDS", "WISSEN_SEARXNG_URL"):
        monkeypatch.delenv(name, raising=False)
    on = ResearchSettings(web_sources=True, max_probes=1)
    program = ResearchProgram(searcher, settings=on)
    assert program.researcher.web_tools == (READ_URL_TOOL,)
    assert READ_URL_TOOL in program.researcher.tools and NEWS_TOOL not in program.researcher.tools
    monkeypatch.setenv("WISSEN_NEWS_FEEDS", "https://feeds.example.com/rss")
    program = ResearchProgram(searcher, settings=on)
    assert program.researcher.web_tools == (READ_URL_TOOL, NEWS_TOOL)
    assert ResearchProgram(searcher, settings=ResearchSettings()).researcher.web_tools == ()


def test_a_page_read_by_url_is_numbered_cited_and_listed_with_its_url(searcher, served):
    url = served.url("/article")
    tool, pred, prompts, systems = _research(searcher, _WebReadingLM(url), web=allowed(served))
    assert READ_URL_TOOL in systems[0] and NEWS_TOOL not in systems[0]  # no news provider
    uid = web_uid(url)
    assert uid in tool.retrieved and tool.mark(uid) == f"[{len(tool.numbers)}]"
    mark = tool.mark(uid)
    assert pred.trajectory["observation_1"]["cite"] == mark
    react = [p for p in prompts if "next_thought" in p]
    assert f"{mark} web: “{TITLE}”, {PUBLISHER}, 2023-02-14, {url}:" in react[-1]

    verified = verify_draft(pred.answer_markdown, tool)
    assert not verified.fabricated
    [footnote] = verified.answer.references.footnotes
    cited = footnote.citation
    assert (cited.uid, cited.url, cited.doc_label, cited.publisher) == (uid, url, TITLE, PUBLISHER)
    markdown = verified.answer.to_markdown()
    line = f"¹ web: “{TITLE}”, {PUBLISHER}, {url} (retrieved {cited.retrieved}; uid: {uid})"
    assert line in markdown.splitlines() and "capital spending¹." in markdown
    assert parse_cited_answer(markdown) == verified.answer  # the Sources read back exactly
    # The synthesis and report check by the probe's pages, which now hold the web document.
    assert verify_answer(verified.answer, tool.retrieved.keys()).fabricated == []


def test_a_web_citation_no_tool_returned_is_removed_as_fabricated(searcher, served):
    refused = "http://169.254.169.254/latest/meta-data/"  # the reader refuses it
    tool, pred, _, _ = _research(searcher, _WebReadingLM(refused), web=allowed(served))
    assert isinstance(pred.trajectory["observation_1"], str)  # a refusal, nothing citable
    made_up = Citation(
        uid=web_uid(served.url("/article")),
        doc_label=TITLE,
        page_index=0,
        page_id=0,
        url=served.url("/article"),
        publisher=PUBLISHER,
        retrieved="2026-12-03 15:00 UTC",
    )
    draft = CitedAnswer(
        body="3M planned about $1.8 billion of capital spending.¹",
        references=ReferenceList(footnotes=[Footnote(number=1, citation=made_up)]),
    ).to_markdown()
    verified = verify_draft(draft, tool)
    assert verified.fabricated == [made_up.uid]
    kept = [f.citation for f in verified.answer.references.footnotes]
    assert not any(c.is_web for c in kept)  # (code may cite a filing page that holds it)
    assert served.url("/article") not in verified.answer.to_markdown()
    by_number = verify_draft("3M planned $1.8 billion of capital spending [9].", tool)
    assert by_number.fabricated == ["[9]"]


def test_a_news_item_is_shown_behind_its_hit_number():
    item = {"uid": "0a1b2c3d4e5f", "title": "Capex up", "publisher": "News Co",
            "url": "https://n.co/a", "published": None, "summary": "Plans rose."}  # fmt: skip
    shown = render_observation([item], {"0a1b2c3d4e5f": "[7]"}.get)
    assert shown == "[7] web: “Capex up”, News Co, https://n.co/a: Plans rose."


_TEXT = st.text(st.sampled_from("ab ,”“()x:;h/tp"), min_size=1, max_size=12)


@given(title=_TEXT, publisher=_TEXT, path=st.text(st.sampled_from("ab,”(/"), max_size=6))
def test_a_web_footnote_reads_back_as_written(title, publisher, path):
    try:
        citation = Citation(
            uid="0a1b2c3d4e5f",
            doc_label=title,
            page_index=0,
            page_id=0,
            url=f"https://n.co/{path}",
            publisher=publisher,
            retrieved="2026-12-03 15:00 UTC",
        )
    except ValueError:
        return  # not a citation code builds (programs.web_sources cleans titles and publishers)
    footnotes = [Footnote(number=1, citation=citation)]
    answer = CitedAnswer(body="Capex rose.¹", references=ReferenceList(footnotes=footnotes))
    assert parse_cited_answer(answer.to_markdown()) == answer


def test_a_web_citation_needs_all_its_fields():
    with pytest.raises(ValueError, match="url, publisher and retrieval time"):
        Citation(uid="0a1b2c3d4e5f", doc_label="T", page_index=0, page_id=0, url="https://n.co")


def test_the_web_app_links_a_web_citation_to_its_url_not_the_page_viewer():
    from web.report_html import render_report

    web = Citation(uid="0a1b2c3d4e5f", doc_label="Capex up", page_index=0, page_id=0,
                   url="https://n.co/a", publisher="News Co",
                   retrieved="2026-12-03 15:00 UTC")  # fmt: skip
    markdown = CitedAnswer(
        body="Capex rose 12%.¹",
        references=ReferenceList(footnotes=[Footnote(number=1, citation=web)]),
    ).to_markdown()
    report = render_report(markdown)
    assert 'href="https://n.co/a"' in report.body_html and "/pages/" not in report.body_html
    assert [s.href for s in report.sources] == ["https://n.co/a"]
