"""Passages: the matched rows of a page, with the column header they belong to."""

from hypothesis import given, settings
from hypothesis import strategies as st

from retrieval.search.passages import select_passage
from retrieval.search.rerank import best_window_coverage, term_positions
from retrieval.search.rows import page_rows, query_stems
from retrieval.search.selection import GAP, _parts, _Selection
from retrieval.store import GridFilter

# A made-up company's statement page, laid out as PyMuPDF prints one: the label on its
# own line, then one line per column value; "$" signs and blank cells on lines of their own.
STATEMENT = """Table of Contents
Northwind Gadgets Inc.
Consolidated Statements of Cash Flows
Years ended December 31
 
(Millions)
    
2031
    
2030
 
Cash Flows from Operating Activities
 
Net income
 
$
1,234 
$
1,111 
Depreciation and amortization
 
 
456 
 
432 
Net cash provided by operating activities
 
 
2,020 
 
1,890 
Cash Flows from Investing Activities
Purchases of property, plant and equipment
 
 
(777) 
 
(654) 
Proceeds from sale of businesses
 
 
88 
 
12 
Net cash used in investing activities
 
 
(689) 
 
(642) 
Cash Flows from Financing Activities
Dividends paid to shareholders
 
 
(300) 
 
(280) 
Purchases of treasury stock
 
 
(150) 
 
(90) 
"""

PROSE = (
    "Northwind Gadgets designs handheld devices for field technicians and sells them\n"
    "through distributors in forty countries. Revenue grew in every region during the year,\n"
    "led by the new rugged tablet line.\n"
    "The company expects capital spending of about $90 million next year, mostly for a\n"
    "second assembly plant. Management believes cash from operations will fund it.\n"
    "Legal Proceedings\n"
    "None of the pending lawsuits is expected to have a material effect on the results.\n"
)


def test_rows_join_a_label_with_its_values_and_drop_layout_noise():
    rows = page_rows(STATEMENT)
    texts = [r.text for r in rows]
    assert "Table of Contents" not in texts
    assert "(Millions) | 2031 | 2030" in texts
    assert "Net income | 1,234 | 1,111" in texts
    assert "Purchases of property, plant and equipment | (777) | (654)" in texts
    header = next(r for r in rows if r.text.startswith("(Millions)"))
    assert header.is_year_header and header.is_header_part


def test_matched_row_keeps_its_column_header_and_the_page_title():
    passage = select_passage(STATEMENT, ["capital", "expenditures", "purchases", "property"], 200)
    lines = passage.text.splitlines()
    row = "Purchases of property, plant and equipment | (777) | (654)"
    assert row in lines
    assert "(Millions) | 2031 | 2030" in lines
    assert lines.index("(Millions) | 2031 | 2030") < lines.index(row)
    assert lines[0] == "Northwind Gadgets Inc."
    assert len(passage.text) <= 200


def test_section_label_brings_the_rows_it_heads():
    rows = page_rows(
        "Sales\n2031\n2030\nRevenues:\nWidgets\n10\n9\nGizmos\n20\n19\nTotal\n30\n28\n"
    )
    assert [r.text for r in rows][:2] == ["Sales | 2031 | 2030", "Revenues:"]
    passage = select_passage(
        "Sales\n2031\n2030\nRevenues:\nWidgets\n10\n9\nGizmos\n20\n19\nCosts:\nParts\n5\n4\n",
        ["revenues"],
        120,
    )
    assert "Widgets | 10 | 9" in passage.text and "Gizmos | 20 | 19" in passage.text


def test_prose_is_shown_in_whole_sentences():
    passage = select_passage(PROSE, ["capital", "spending"], 160)
    assert (
        "The company expects capital spending of about $90 million next year, mostly for a "
        "second assembly plant." in passage.text
    )
    assert "forty countries" not in passage.text  # an unrelated sentence stays out


def test_a_page_that_matches_nothing_gives_its_top():
    passage = select_passage(PROSE, ["zeppelin"], 120)
    assert passage.score == 0.0
    assert passage.text.startswith("Northwind Gadgets designs")
    assert passage.text.endswith(GAP) and len(passage.text) <= 120


def test_empty_page_gives_an_empty_passage():
    assert select_passage("", ["revenue"]).text == ""
    assert select_passage(" \n \n", ["revenue"]).rows == ()


def test_sample_statement_passage_holds_the_capex_figure(sample_store, searcher):
    """The real 3M FY2018 cash flow statement (FinanceBench's evidence page for capex)."""
    page = next(p for p in sample_store.document_pages("3M_2018_10K") if p.page_index == 59)
    terms = searcher.prepared("capital expenditures", GridFilter("MMM", 2018, 4)).terms
    passage = select_passage(page.text, terms)
    assert "Purchases of property, plant and equipment (PP&E) | (1,577) | (1,373) | (1,420)" in (
        passage.text
    )
    assert "2018 | 2017 | 2016" in passage.text
    assert len(passage.text) <= 500 < len(page.text)


def test_window_coverage_rewards_words_together():
    stems = query_stems(["dividends", "treasury"])
    weights = dict.fromkeys(stems, 1.0)
    together = term_positions("dividends paid and treasury stock", stems)
    apart = term_positions("dividends paid" + " filler" * 300 + " treasury stock", stems)
    assert best_window_coverage(together, weights, 100) == 1.0
    assert best_window_coverage(apart, weights, 100) == 0.5
    assert best_window_coverage({}, weights, 100) == 0.0
    assert term_positions("predividends", stems) == {}  # stems start words


_LINES = st.sampled_from(
    [
        "Revenue",
        "Net income",
        "2031",
        "2030",
        "$",
        " ",
        "1,234",
        "(56)",
        "—",
        "12.5 %",
        "(In millions)",
        "Years ended December 31,",
        "Cost of sales rose on higher volumes and freight during the year under review",
        "Dividends paid",
        "Table of Contents",
    ]
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(_LINES, max_size=60),
    st.lists(st.sampled_from(["revenue", "cost", "dividends", "income", "freight"]), max_size=4),
    st.integers(20, 400),
)
def test_passages_stay_in_budget_and_come_from_the_page(lines, terms, budget):
    text = "\n".join(lines)
    passage = select_passage(text, terms, budget)
    assert len(passage.text) <= budget
    rows = page_rows(text)
    assert all(0 <= i < len(rows) for i in passage.rows)
    assert select_passage(text, terms, budget) == passage  # deterministic


@settings(max_examples=100, deadline=None)
@given(st.lists(_LINES, min_size=1, max_size=40), st.data())
def test_selection_length_matches_its_rendering(lines, data):
    rows = page_rows("\n".join(lines))
    if not rows:
        return
    selection = _Selection(rows)
    for _ in range(data.draw(st.integers(1, 6))):
        picked = data.draw(st.sets(st.integers(0, len(rows) - 1), min_size=1, max_size=3))
        predicted = selection.size + selection.cost(picked)
        selection.add(picked)
        assert selection.size == predicted == len("\n".join(_parts(rows, selection.chosen)))
