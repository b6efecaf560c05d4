"""The agents' search tool: locked filters win, every returned page is remembered."""

import inspect

from retrieval.store import GridFilter
from retrieval.tool import MAX_K, EquitySearchTool


def test_locked_fields_override_what_the_model_asks_for(searcher):
    tool = EquitySearchTool(searcher, lock=GridFilter("MMM", 2018, 4))
    hits = tool.search("capital expenditures", ticker="PEP", fy=2021, fq=1)
    assert hits and {h["doc_label"] for h in hits} == {"MMM 10-K FY2018"}
    assert set(tool.retrieved) == {h["uid"] for h in hits}


def test_unlocked_fields_come_from_the_call(searcher):
    tool = EquitySearchTool(searcher)
    hits = tool.search("net revenue", ticker="pep", fy="2022", k=2)
    assert len(hits) == 2 and all(h["doc_label"].startswith("PEP ") for h in hits)


def test_results_are_compact_and_citable(searcher):
    tool = EquitySearchTool(searcher, lock=GridFilter("KO", 2020, 4), max_chars=300)
    hit = tool.search("dividends paid", k=50)[0]
    assert set(hit) == {"uid", "page_id", "doc_label", "page", "score", "text"}
    assert len(hit["text"]) <= 301
    assert len(tool.search("dividends paid", k=50)) == MAX_K
    assert tool.calls == 2


def test_function_form_has_the_public_name_and_arguments(searcher):
    fn = EquitySearchTool(searcher).as_function()
    assert fn.__name__ == "wissen_equity_search"
    assert list(inspect.signature(fn).parameters) == [
        "query",
        "ticker",
        "fy",
        "fq",
        "doc_type",
        "k",
    ]
    assert fn.__doc__ and "cite" in fn.__doc__


def test_function_budget_caps_searches_per_turn(searcher):
    seen = []
    fn = EquitySearchTool(searcher, lock=GridFilter("MMM", 2018, 4)).as_function(
        budget=2, on_search=lambda q, hits: seen.append((q, len(hits)))
    )
    assert isinstance(fn("capex"), list) and isinstance(fn("dividends"), list)
    assert "budget spent" in fn("revenue")
    assert [q for q, _ in seen] == ["capex", "dividends"]
