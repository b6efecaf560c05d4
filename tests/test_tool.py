"""The agents' search tool: locked filters win, every returned page is remembered."""

import inspect

from retrieval.search.tools import MAX_K, EquitySearchTool
from retrieval.store import GridFilter


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
    hits = tool.search("dividends paid", k=50)
    hit = hits[0]
    assert set(hit) == {"uid", "page_id", "doc_label", "page", "cite", "score", "text"}
    assert len(hit["text"]) <= 301
    # each page is numbered once, in the order it was first handed out: what a model cites
    assert [h["cite"] for h in hits] == [f"[{n}]" for n in range(1, len(hits) + 1)]
    again = tool.search("cash dividends declared per share", k=50)
    assert all(h["cite"] == tool.mark(h["uid"]) for h in again)
    first = {h["uid"]: h["cite"] for h in hits}
    shared = [h for h in again if h["uid"] in first]
    assert shared and all(h["cite"] == first[h["uid"]] for h in shared)
    assert sorted(tool.numbers.values()) == list(range(1, len(tool.retrieved) + 1))
    assert tool.uid_of("[2]") == tool.uid_of("2") == hits[1]["uid"]
    assert tool.uid_of(hits[1]["uid"].upper()) == hits[1]["uid"] and tool.uid_of("999") == ""
    assert len(hits) == MAX_K and tool.calls == 2


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


def test_slice_form_takes_only_a_query_and_keeps_the_lock_and_budget(searcher):
    tool = EquitySearchTool(searcher, lock=GridFilter("MMM", 2018, 4), default_k=3)
    fn = tool.slice_function(budget=1)
    assert fn.__name__ == "wissen_equity_search"
    assert list(inspect.signature(fn).parameters) == ["query"]
    hits = fn("capital expenditures")
    assert len(hits) == 3 and all(h["doc_label"].startswith("MMM 10-K FY2018") for h in hits)
    assert "budget spent" in fn("dividends")


def test_function_budget_caps_searches_per_turn(searcher):
    seen = []
    fn = EquitySearchTool(searcher, lock=GridFilter("MMM", 2018, 4)).as_function(
        budget=2, on_search=lambda q, hits: seen.append((q, len(hits)))
    )
    assert isinstance(fn("capex"), list) and isinstance(fn("dividends"), list)
    assert "budget spent" in fn("revenue")
    assert [q for q, _ in seen] == ["capex", "dividends"]


def test_hits_show_the_matched_passage_with_its_header(searcher):
    tool = EquitySearchTool(searcher, lock=GridFilter("MMM", 2018, 4))
    hits = tool.search("purchases of property, plant and equipment")
    statement = next(h for h in hits if h["page"] == 60)  # the cash flow statement
    assert "Purchases of property, plant and equipment (PP&E) | (1,577)" in statement["text"]
    assert "2018 | 2017 | 2016" in statement["text"]
    assert all(len(h["text"]) <= tool.max_chars for h in hits)
    assert len(statement["text"]) < len(tool.retrieved[statement["uid"]].text)


def test_read_page_returns_a_whole_page_of_the_slice_and_records_it(searcher, sample_store):
    tool = EquitySearchTool(searcher, lock=GridFilter("MMM", 2018, 4))
    page = next(p for p in sample_store.document_pages("3M_2018_10K") if p.page_index == 59)
    read = tool.read_page(page.uid.upper())
    assert isinstance(read, dict) and read["uid"] == page.uid and read["page"] == 60
    assert "Dividends paid to shareholders | (3,193)" in read["text"]  # past any passage
    assert page.uid in tool.retrieved and tool.retrieved[page.uid].score == 0.0


def test_read_page_refuses_pages_outside_the_slice(searcher, sample_store):
    tool = EquitySearchTool(searcher, lock=GridFilter("MMM", 2018, 4))
    other = sample_store.document_pages(
        next(d for d in _documents(sample_store) if not d.startswith("3M_2018"))
    )[3]
    refusal = tool.read_page(other.uid)
    assert isinstance(refusal, str) and "outside the slice" in refusal and "MMM FY2018" in refusal
    assert other.text[:40] not in refusal
    assert "No page" in tool.read_page("000000000000") and "No page" in tool.read_page(" ")
    assert tool.retrieved == {}


def test_read_page_function_has_the_public_name_and_a_budget(searcher, sample_store):
    tool = EquitySearchTool(searcher, lock=GridFilter("MMM", 2018, 4))
    fn = tool.read_page_function(budget=1)
    assert fn.__name__ == "wissen_read_page" and list(inspect.signature(fn).parameters) == ["hit"]
    assert fn.__doc__ and "number" in fn.__doc__
    hits = tool.search("purchases of property, plant and equipment")
    read = fn(hits[1]["cite"])  # by the hit number the model was shown
    assert isinstance(read, dict) and read["uid"] == hits[1]["uid"] and read["cite"] == "[2]"
    assert "budget spent" in fn("1")
    # the prototype the researcher builds its prompt from needs no searcher
    assert EquitySearchTool(searcher=None).read_page_function().__name__ == "wissen_read_page"  # type: ignore[arg-type]


def _documents(store) -> list[str]:
    return sorted({c.doc_name for c in store.pages_by_id(range(1, 2000))})


def test_tool_works_over_a_searcher_that_only_searches(searcher, sample_store):
    """Programs wrap the searcher (e.g. behind a lock) and may expose nothing but search."""

    class SearchOnly:
        def search(self, *args, **kwargs):
            return searcher.search(*args, **kwargs)

    tool = EquitySearchTool(SearchOnly(), lock=GridFilter("MMM", 2018, 4))  # type: ignore[arg-type]
    hits = tool.search("dividends paid to shareholders")
    assert hits and all(h["text"] for h in hits)
    refusal = tool.read_page(hits[0]["uid"])
    assert isinstance(refusal, str) and "cannot be read" in refusal
