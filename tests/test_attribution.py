"""Citations by code for uncited sentences: the page that holds their numbers and words."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from citations.markup import Citation, CitedAnswer, Footnote, ReferenceList
from metrics.numbers import extract_numbers
from programs.attribution import attribute_uncited, drop_uncited_numbers, supporting_page

PAGES = {
    "0a1b2c3d4e5f": "Cash flows from investing activities\nCapital expenditures | (4,817.3) | "
    "(4,102.0)\nWe expect capital spending to be financed through internally generated funds.",
    "1b2c3d4e5f60": "Revenue by segment | Cloud | 12,004 | Devices | 8,311\nCloud revenue rose "
    "on new contracts.",
}
CITES = {
    uid: Citation(uid=uid, doc_label="CTSO 10-K FY2031", page_index=n, page_id=n)
    for n, uid in enumerate(PAGES)
}


def test_a_sentence_gets_the_page_holding_its_numbers_and_words():
    assert supporting_page("Capex was $4,817.3 million in FY2031.", PAGES) == "0a1b2c3d4e5f"
    assert supporting_page("Cloud revenue was $12,004 million.", PAGES) == "1b2c3d4e5f60"
    copied = "We expect capital spending to be financed through internally generated funds."
    assert supporting_page(copied, PAGES) == "0a1b2c3d4e5f"


def test_a_sentence_no_page_supports_stays_uncited():
    assert supporting_page("Capex was $9,999.9 million.", PAGES) is None  # no page has it
    assert supporting_page("Management expects strong growth ahead.", PAGES) is None
    assert supporting_page("Capital spending is financed by funds.", PAGES) is None  # 4 words
    assert supporting_page("Yes.", PAGES) is None


def test_uncited_sentences_are_cited_and_cited_ones_are_left_alone():
    cited = Footnote(number=1, citation=CITES["1b2c3d4e5f60"])
    answer = CitedAnswer(
        body="Cloud revenue was $12,004 million.¹ Capex was $4,817.3 million. It is large.",
        references=ReferenceList(footnotes=[cited]),
    )
    attributed, added = attribute_uncited(answer, PAGES, CITES)
    assert added == 1
    assert attributed.body == (
        "Cloud revenue was $12,004 million.¹ Capex was $4,817.3 million.² It is large."
    )
    assert [f.citation.uid for f in attributed.references.footnotes] == [
        "1b2c3d4e5f60",
        "0a1b2c3d4e5f",
    ]
    assert attribute_uncited(attributed, PAGES, CITES) == (attributed, 0)  # idempotent


@given(st.text(max_size=200))
def test_every_citation_added_points_at_a_page_holding_the_sentence_numbers(text):
    from citations.sentences import split_sentences
    from metrics.numbers import NumberIndex, extract_numbers

    attributed, added = attribute_uncited(CitedAnswer(body=text), PAGES, CITES)
    table = attributed.references.by_number()
    assert len(table) <= len(PAGES) and (added == 0) == (attributed.body == text)
    for sentence in split_sentences(attributed.body):
        for n in (m for m in sentence.markers if m in table):
            page = NumberIndex.from_text(PAGES[table[n].uid])
            assert all(page.matches(t) for t in extract_numbers(sentence.text))


def test_an_uncited_number_goes_and_uncited_words_and_tables_stay():
    answer = CitedAnswer(
        body="Capex was $4,817.3 million.¹ It rose 6.9% on the year. Spending grew.\n\n"
        "| Year | Capex |\n| --- | --- |\n| FY2031 | 4,817.3 |\n\nThe outlook is 12% growth.",
        references=ReferenceList(footnotes=[Footnote(number=1, citation=CITES["0a1b2c3d4e5f"])]),
    )
    kept, dropped = drop_uncited_numbers(answer)
    assert dropped == 2
    assert kept.body.startswith("Capex was $4,817.3 million.¹ Spending grew.")
    assert "| FY2031 | 4,817.3 |" in kept.body and "6.9%" not in kept.body
    assert "12%" not in kept.body and kept.references == answer.references
    assert drop_uncited_numbers(kept) == (kept, 0)


@given(st.lists(st.sampled_from(["Sales rose 4%.", "Sales rose.¹", "Margins held.", "It was 7.¹"])))
def test_after_the_drop_every_prose_number_is_cited(sentences):
    from citations.sentences import split_sentences

    answer = CitedAnswer(
        body=" ".join(sentences),
        references=ReferenceList(footnotes=[Footnote(number=1, citation=CITES["0a1b2c3d4e5f"])]),
    )
    kept, _ = drop_uncited_numbers(answer)
    assert all(s.markers for s in split_sentences(kept.body) if extract_numbers(s.text))
    assert kept.body.count("Margins held.") == answer.body.count("Margins held.")
