"""The agents' number tools: slice-locked, cited, and never a made-up number."""

from __future__ import annotations

from calculator_facts import contoso

from calculator.tools import FactTools
from domain.cells import SliceRef
from domain.periods import Period
from programs.locked_searcher import LockedSearcher
from programs.probe_loop import ProbeLoop
from retrieval.search.tools import EquitySearchTool
from retrieval.store import GridFilter


def tools(recorded: list[str]) -> FactTools:
    return FactTools(contoso(), Period(2021), record=recorded.extend)


def test_statement_facts_by_concept_or_label_record_their_pages() -> None:
    recorded: list[str] = []
    rows = tools(recorded).statement_facts("revenue", "FY2021")
    assert rows and all(r["concept"] == "revenue" and r["period"] == "FY2021" for r in rows)
    assert recorded == [r["uid"] for r in rows]
    assert tools([]).statement_facts("Revenue")  # words of the printed label work too
    assert isinstance(tools([]).statement_facts("of_revenue"), list)  # snake_case words too


def test_a_name_people_use_for_a_concept_means_that_concept() -> None:
    from calculator_facts import fact

    lease = fact(None, 2021, 40e6, statement="cash_flow", page=80,
                 label="Operating cash flows from operating leases")  # fmt: skip
    named = FactTools([*contoso(), lease], Period(2021))
    rows = named.statement_facts("operating cash flow", "FY2021")
    assert [(r["concept"], r["value"]) for r in rows] == [("cfo", 300e6)]
    assert [r["concept"] for r in named.statement_facts("Capital Expenditures")] == ["capex"] * 3
    assert named.statement_facts("operating leases")[0]["label"].endswith("operating leases")


def test_unknown_concept_lists_what_the_slice_holds() -> None:
    recorded: list[str] = []
    answer = tools(recorded).statement_facts("goodwill impairment")
    assert isinstance(answer, str) and "Concepts it holds:" in answer and "revenue" in answer
    assert recorded == []


def test_calculate_cites_exactly_its_inputs() -> None:
    recorded: list[str] = []
    calculator = tools(recorded)
    out = calculator.calculate("operating_income / revenue")
    assert isinstance(out, dict) and out["value"] == "0.20"  # 240 / 1,200, computed by code
    assert out["cite_uids"] == recorded and len(set(recorded)) >= 1
    assert "÷" in out["formula"]
    assert calculator.computed == [0.2]  # a draft may state it, though no page prints it


def test_a_formula_naming_a_missing_fact_is_a_message_not_a_number() -> None:
    recorded: list[str] = []
    calculator = tools(recorded)
    out = calculator.calculate("inventory[FY1990] / revenue")
    assert isinstance(out, str) and out.startswith("Cannot compute") and "inventory" in out
    assert recorded == [] and calculator.computed == []
    assert tools([]).calculate("__import__('os')").startswith("Cannot compute")


def test_probe_tools_answer_from_the_slice_only(searcher) -> None:
    locked = LockedSearcher(searcher)
    mmm = locked.facts(SliceRef(ticker="MMM", fy=2022, fq=4))
    assert mmm and {f.ticker for f in mmm} == {"MMM"}
    assert all(f.doc_name.startswith("3M_2022") for f in mmm)
    assert locked.facts(SliceRef(ticker="MMM", fy=2022, fq=4)) == searcher.store.facts(
        GridFilter("MMM", 2022, 4)
    )
    # The probe loop records a fact's page as retrieved, so its citation survives verification.
    loop = ProbeLoop(researcher=None, reviewer=None, searcher=locked)  # type: ignore[arg-type]
    tool = EquitySearchTool(locked, lock=GridFilter("MMM", 2022, 4))
    loop._record_pages(tool, [mmm[0].uid])
    assert mmm[0].uid in tool.retrieved
