"""Citation by hit number: ``[n]`` marks in, the superscript protocol out, nothing made up."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from strategies import cited_answers

from citations.hit_numbers import has_hit_marks, numbered_markdown, parse_numbered_answer
from citations.markup import Citation, parse_cited_answer
from citations.sentences import split_sentences

PAGES = {
    2: Citation(uid="0a1b2c3d4e5f", doc_label="CTSO 10-K FY2031", page_index=47, page_id=7),
    5: Citation(uid="1b2c3d4e5f60", doc_label="CTSO 10-K FY2031", page_index=60, page_id=8),
}


def test_marks_become_superscripts_numbered_in_order_of_first_use():
    draft = parse_numbered_answer(
        "Capex was $4,817.3 million [5] in FY2031 [5]. Revenue rose 12% [2][5].", PAGES
    )
    assert draft.answer.body == "Capex was $4,817.3 million¹ in FY2031¹. Revenue rose 12%¹˒²."
    assert [(f.number, f.citation.uid) for f in draft.answer.references.footnotes] == [
        (1, "1b2c3d4e5f60"),
        (2, "0a1b2c3d4e5f"),
    ]
    assert draft.unknown == []


def test_grouped_marks_and_unknown_numbers():
    markdown = "Margins held [2, 5]. Guidance rose [9]. Cash fell [5; 2]."
    draft = parse_numbered_answer(markdown, PAGES)
    assert draft.answer.body == "Margins held¹˒². Guidance rose. Cash fell¹˒²."
    assert draft.unknown == [9]  # a number never handed out cites nothing, and is counted


def test_a_sources_block_written_anyway_is_dropped_and_links_are_not_marks():
    markdown = (
        "Capex was $4,817.3 million [2]. See [the filing](https://example.com) [5].\n\n"
        "**Sources:**\n[2] CTSO 10-K FY2031 p.48\n[5] CTSO 10-K FY2031 p.61"
    )
    draft = parse_numbered_answer(markdown, PAGES)
    assert draft.answer.body == (
        "Capex was $4,817.3 million¹. See [the filing](https://example.com)²."
    )
    assert "Sources" not in draft.answer.to_markdown().split("**Sources**")[0]
    unheaded = parse_numbered_answer("Capex rose [2].\n[2] CTSO 10-K FY2031 p.48", PAGES)
    assert unheaded.answer.body == "Capex rose¹."


def test_marks_that_open_a_line_cite_its_first_sentence():
    draft = parse_numbered_answer(
        "[2] [5] Capex rose 12%. It was funded by cash.\n- [5] Revenue fell.", PAGES
    )
    assert draft.answer.body == "Capex rose 12%.¹˒² It was funded by cash.\n- Revenue fell.²"


def test_a_line_of_marks_alone_cites_the_prose_it_stands_by():
    opening = parse_numbered_answer("[2] [5]\nCash flow was highest in operations. It fell.", PAGES)
    assert opening.answer.body == "Cash flow was highest in operations.¹˒² It fell."
    after = parse_numbered_answer("Capex rose 12%.\n[5]\n\nRevenue fell [2].", PAGES)
    assert after.answer.body == "Capex rose 12%.¹\n\nRevenue fell²."
    trailing = parse_numbered_answer("Capex rose 12%.\n\n[5]", PAGES)
    assert trailing.answer.body == "Capex rose 12%.¹"
    alone = parse_numbered_answer("[2][5] [5]", PAGES)
    assert alone.answer.body == "" and not alone.answer.references.footnotes


def test_only_prose_with_marks_counts_as_hit_numbered():
    assert has_hit_marks("Capex rose [2].")
    assert not has_hit_marks(
        "Capex rose.¹\n\n**Sources**\n\n¹ CTSO 10-K FY2031 p.48 (page_id: 7, uid: 0a1b2c3d4e5f)"
    )
    assert not has_hit_marks("Capex rose.\n\n**Sources**\n[2] CTSO 10-K FY2031 p.48")


def test_a_bold_sources_heading_with_its_colon_inside_is_a_heading():
    answer = parse_cited_answer(
        "Capex rose.¹\n**Sources:**\n¹ CTSO 10-K FY2031 p.48 (page_id: 7, uid: 0a1b2c3d4e5f)"
    )
    assert answer.body == "Capex rose.¹" and len(answer.references) == 1


def _cited_uids(answer) -> list[set[str]]:
    table = answer.references.by_number()
    return [
        {table[n].uid for n in sentence.markers if n in table}
        for sentence in split_sentences(answer.body)
    ]


@given(cited_answers(), st.randoms(use_true_random=False))
def test_a_draft_shown_by_hit_number_reads_back_to_the_same_citations(answer, rnd):
    uids = [f.citation.uid for f in answer.references.footnotes]
    hit_numbers = rnd.sample(range(1, 60), len(uids))
    hit_of_uid = dict(zip(uids, hit_numbers, strict=True))
    pages = {hit_of_uid[f.citation.uid]: f.citation for f in answer.references.footnotes}
    shown = numbered_markdown(answer, hit_of_uid)
    assert has_hit_marks(shown) and "¹" not in shown
    read = parse_numbered_answer(shown, pages)
    assert read.unknown == []
    assert _cited_uids(read.answer) == _cited_uids(answer)
    assert [f.number for f in read.answer.references.footnotes] == list(
        range(1, len(read.answer.references) + 1)
    )
