"""The rerank's page titles, figure-free passages and question intent, and the query's
instruction stripping: the mechanisms that lifted retrieval on unseen companies."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.retrieval import load_cases, load_splits
from retrieval.pages import Page
from retrieval.search.hybrid import HybridSearcher, SearchSettings
from retrieval.search.query import drop_instructions, prepare_query
from retrieval.search.rerank import (
    RerankWeights,
    _page_shape,
    _pairs,
    best_window_coverage,
    page_features,
    prose_words,
    rerank,
    term_positions,
    title_zone,
)
from retrieval.store import GridFilter

STATEMENT = (
    "Table of Contents\n3M Company and Subsidiaries\nConsolidated Balance Sheet\n"
    "At December 31\n(Dollars in millions)\n2018\n2017\nAssets\nCash\n2,853\n3,053\n"
)
PROSE_MENTION = (
    "losses recorded as a component of accumulated other comprehensive income. Securities are "
    "classified as current assets in the consolidated balance sheets, otherwise they are long\n"
    "term. Management determines the classification of its investments at each balance sheet"
)


def page(text: str, index: int = 0) -> Page:
    return Page(
        doc_name="X_2031_10K", ticker="X", company="X", fy=2031, fq=4, doc_type="10-K",
        page_index=index, text=text, page_id=index + 1,
    )  # fmt: skip


def test_title_is_the_opening_short_lines_past_running_headers():
    assert title_zone(STATEMENT.lower()) == (
        "3m company and subsidiaries consolidated balance sheet at december 31"
    )
    assert title_zone("page 4 of 15\nsegment results\n2022\n2021\nnet income\n") == (
        "segment results net income"
    )
    assert title_zone(PROSE_MENTION.lower()) == ""  # a wrapped line of prose is no title
    note = "table of contents\nnote 7. supplemental balance sheet information\naccounts"
    assert title_zone(note) == ""  # a note about a statement is not the statement


def test_statement_heading_counts_only_in_the_title():
    query = prepare_query("What is the year end FY2018 total cash? Use the balance sheet.")
    assert query.headings
    assert page_features(query, page(STATEMENT)).heading == 1.0
    assert page_features(query, page(PROSE_MENTION)).heading == 0.0


def test_boilerplate_is_found_through_runs_of_spaces():
    auditor = "Table of Contents \nReport  of Independent Registered Public Accounting Firm\n"
    assert _page_shape(auditor + "To the Shareholders ...", 400).boilerplate


def test_passage_reads_a_tables_label_and_heading_as_near():
    table = "segment results\n" + "12,614 $ (1) % 4,891 5,698 " * 60 + "\nnet income\n3,1"
    stems = ["segmen", "net", "income"]
    weights = dict.fromkeys(stems, 1.0)
    raw = best_window_coverage(term_positions(table, stems), weights, 1000)
    prose = best_window_coverage(term_positions(prose_words(table), stems), weights, 1000)
    assert raw < 1.0 and prose == 1.0


def test_a_title_naming_the_question_lifts_its_page():
    body = "The effective tax rate was 21% in 2022 compared with 18% in 2021, reflecting " * 3
    titled = page("Income taxes\n" + body, 1)
    untitled = page(body + "\nIncome taxes", 2)  # the same words, none of them in a title
    query = prepare_query("How much has the effective tax rate changed between FY2021 and FY2022?")
    ranked = rerank(query, [(untitled, 1.0), (titled, 1.0)])
    assert ranked[0][0] is titled and ranked[0][1] > ranked[1][1]
    flat = rerank(query, [(untitled, 1.0), (titled, 1.0)], RerankWeights(title=0.0))
    assert flat[0][1] == flat[1][1]  # without the title signal the two tie


def test_a_question_about_causes_wants_prose_not_the_statement():
    why = prepare_query(
        "What drove gross margin change as of FY2022 for JnJ? If gross margin is not a useful "
        "metric for a company like this, then please state that and explain why."
    )
    assert why.explanatory and not why.headings
    assert not {"useful", "metric", "like"} & set(why.terms)  # the conditional is gone
    assert "gross" in why.terms and "profit" in why.terms
    figures = page("Consolidated Statement of Earnings\nGross profit\n63,854 63,920 54,157")
    assert page_features(why, figures).figures == 0.0
    what = prepare_query("Does Boeing have an improving gross margin profile as of FY2022?")
    assert not what.explanatory and "statements of operations" in what.headings


def test_instructions_to_the_reader_leave_the_terms():
    q = prepare_query(
        "Assume that you are a public equities analyst. Answer the following question by "
        "primarily using information that is shown in the balance sheet: what is the year end "
        "FY2018 net PPNE for 3M? Answer in USD billions."
    )
    assert not {"assume", "analyst", "equities", "public", "primarily"} & set(q.terms)
    assert {"ppne", "property", "plant", "equipment"} <= set(q.terms)
    assert "balance sheets" in q.headings  # the statement an instruction names still counts
    lead = prepare_query(
        "Using the cash flow statement, answer the following question to the best of your "
        "abilities: how much did Block generate in cash flow from operating activities in FY2020?"
    )
    assert "abilities" not in lead.terms and {"operating", "activities"} <= set(lead.terms)
    assert "statements of cash flows" in lead.headings
    kept = "If we exclude the impact of M&A, which segment has dragged down 3M's growth in 2022?"
    assert drop_instructions(kept).strip() == kept  # a question is never dropped


def test_keyword_searches_keep_every_word():
    # An agent's query has no question mark: nothing in it is an instruction to drop.
    keywords = "Compare US and international sales. Management response to inflation"
    assert drop_instructions(keywords) == keywords
    assert {"us", "international", "management", "inflation"} <= set(prepare_query(keywords).terms)


def test_word_pairs_stay_within_the_question_and_each_expansion():
    pairs = _pairs(prepare_query("What drove gross margin change as of FY2022?"))
    assert ("gross", "margin") in pairs and ("gross", "profit") in pairs
    assert ("change", "gross") not in pairs  # question's last word, expansion's first


def test_search_settings_carry_rerank_weights(sample_store):
    query = "purchases of property, plant and equipment"
    where = GridFilter("MMM", 2018, 4)
    default = HybridSearcher(sample_store).search(query, where, k=5)
    titled = HybridSearcher(
        sample_store, settings=SearchSettings(rerank_weights=RerankWeights(title=5.0))
    ).search(query, where, k=5)
    assert default and titled and {h.ticker for h in titled} == {"MMM"}
    assert [h.score for h in default] != [h.score for h in titled]


def test_benchmark_reports_company_grouped_splits(sample_store, tmp_path: Path):
    splits = load_splits()
    assert set(splits.values()) == {"train", "dev", "test"}
    questions = tmp_path / "questions.jsonl"
    rows = [
        {"financebench_id": "q-in", "question": "capex?", "doc_name": "3M_2018_10K",
         "evidence": [{"evidence_page_num": 59}]},
        {"financebench_id": "q-new", "question": "capex?", "doc_name": "3M_2018_10K",
         "evidence": [{"evidence_page_num": 60}]},
        {"financebench_id": "q-gone", "question": "x?", "doc_name": "NOPE_2018_10K",
         "evidence": [{"evidence_page_num": 1}]},
    ]  # fmt: skip
    questions.write_text("\n".join(json.dumps(r) for r in rows))
    locked, shared, skipped = load_cases(questions, sample_store, {"q-in": "dev"})
    assert skipped == 1
    assert [(c.qid, c.split, c.group("split")) for c in locked] == [
        ("q-in", "dev", "dev"),
        ("q-new", "unknown", "unknown"),
    ]
    assert all(c.group("half") in ("tune", "holdout") for c in shared)
