"""Citation protocol: parse/render, merge/renumber, verification (property + examples)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from strategies import cited_answers

from citations import (
    Citation,
    CitedAnswer,
    merge_answers,
    parse_cited_answer,
    render_cited_answer,
    render_marker,
    renumber,
    split_sentences,
    verify_answer,
)
from citations.markup import parse_marker

REPORT = """3M's capital expenditure was $1,577 million in FY2018.¹ Capex rose 20% from FY2017.¹˒²

| Metric | FY2018 |
| --- | --- |
| Capex | 1,577¹ |

**Sources**

¹ MMM 10-K FY2018 p.61 (page_id: 60211, uid: 3f9c2a81d0e4)
² MMM 10-K FY2017 p.50 (page_id: 60001, uid: 3f9c2a81d0e5)"""


def sentence_uids(answer: CitedAnswer) -> list[frozenset[str]]:
    table = answer.references.by_number()
    return [
        frozenset(table[n].uid for n in s.markers if n in table)
        for s in split_sentences(answer.body)
    ]


def test_parse_realistic_report():
    answer = parse_cited_answer(REPORT)
    assert answer.body.endswith("| Capex | 1,577¹ |")
    assert [f.number for f in answer.references.footnotes] == [1, 2]
    first = answer.references.footnotes[0].citation
    assert (first.doc_label, first.page_index, first.page_id) == ("MMM 10-K FY2018", 60, 60211)
    assert render_cited_answer(answer) == REPORT


def test_markers_separator_distinguishes_twelve_from_one_and_two():
    assert render_marker([12]) == "¹²"
    assert render_marker([1, 2]) == "¹˒²"
    assert parse_marker("¹˒¹⁰") == [1, 10]


def test_footnotes_without_heading_and_lenient_numbering():
    answer = parse_cited_answer(
        "Sales fell.¹\n\n[1] KO 10-Q FY2024 Q1 p.3 (page_id: 7, uid: abcdef12)"
    )
    assert answer.body == "Sales fell.¹"
    assert answer.references.footnotes[0].citation.uid == "abcdef12"


def test_uid_must_be_hex():
    with pytest.raises(ValidationError):
        Citation(uid="not-a-uid", doc_label="MMM 10-K FY2018", page_index=0, page_id=1)


@settings(max_examples=60, deadline=None)
@given(cited_answers())
def test_parse_render_round_trip(answer):
    assert parse_cited_answer(render_cited_answer(answer)) == answer


@settings(max_examples=60, deadline=None)
@given(st.lists(cited_answers(), min_size=1, max_size=4))
def test_merge_keeps_uids_per_sentence_and_numbers_contiguous(answers):
    merged, _ = merge_answers(answers)
    expected = [u for a in answers for u in sentence_uids(a)]
    assert sentence_uids(merged) == expected
    numbers = [f.number for f in merged.references.footnotes]
    assert numbers == list(range(1, len(numbers) + 1))
    uids = [f.citation.uid for f in merged.references.footnotes]
    assert len(uids) == len(set(uids))  # de-duplicated by uid
    used = sorted({n for s in split_sentences(merged.body) for n in s.markers})
    assert used == numbers  # no gaps, nothing unused
    first_seen = []
    for s in split_sentences(merged.body):
        first_seen += [n for n in s.markers if n not in first_seen]
    assert first_seen == numbers  # numbered by first appearance


@settings(max_examples=60, deadline=None)
@given(st.lists(cited_answers(), min_size=1, max_size=3))
def test_renumber_is_idempotent(answers):
    merged, _ = merge_answers(answers)
    assert renumber(merged) == merged
    assert renumber(renumber(answers[0])) == renumber(answers[0])


def test_report_numbering_independent_of_slice_numbering():
    slice_a = parse_cited_answer(
        "KO sales grew 5%.²\n\n² KO 10-Q FY2024 Q1 p.4 (page_id: 11, uid: aaaaaaaaaaaa)"
    )
    slice_b = parse_cited_answer(
        "PEP sales grew 2%.¹ KO grew too.²\n\n"
        "¹ PEP 10-Q FY2024 Q1 p.9 (page_id: 12, uid: bbbbbbbbbbbb)\n"
        "² KO 10-Q FY2024 Q1 p.4 (page_id: 11, uid: aaaaaaaaaaaa)"
    )
    report, mappings = merge_answers([slice_a, slice_b])
    assert report.body == "KO sales grew 5%.¹\n\nPEP sales grew 2%.² KO grew too.¹"
    assert mappings == [{2: 1}, {1: 2, 2: 1}]


@settings(max_examples=60, deadline=None)
@given(cited_answers(), st.data())
def test_verification_drops_exactly_the_fabricated(answer, data):
    uids = sorted(answer.references.uids())
    retrieved = set(data.draw(st.lists(st.sampled_from(uids), unique=True)))
    result = verify_answer(answer, retrieved)
    assert result.fabricated_count == sum(
        f.citation.uid not in retrieved for f in answer.references.footnotes
    )
    assert result.answer.references.uids() <= retrieved
    kept = [u & retrieved for u in sentence_uids(answer)]
    assert sentence_uids(result.answer) == kept


def test_verification_reports_dangling_and_unused():
    answer = parse_cited_answer(
        "Capex was $1,577 million.¹ Sales rose.³ Margin fell.⁴\n\n"
        "¹ MMM 10-K FY2018 p.61 (page_id: 1, uid: 111111111111)\n"
        "² MMM 10-K FY2018 p.62 (page_id: 2, uid: 222222222222)\n"
        "⁴ MMM 10-K FY2018 p.63 (page_id: 3, uid: 999999999999)"
    )
    result = verify_answer(answer, {"111111111111", "222222222222"})
    assert result.fabricated_count == 1
    assert result.dangling_markers == [3]
    assert result.unused_footnotes == [2]
    assert result.answer.body == "Capex was $1,577 million.¹ Sales rose. Margin fell."
    assert [f.citation.uid for f in result.answer.references.footnotes] == ["111111111111"]
