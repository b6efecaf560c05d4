"""Citations by code for uncited sentences: the page that holds their numbers and words."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from citations.markup import Citation, CitedAnswer, Footnote, ReferenceList
from metrics.numbers import NumberIndex, extract_numbers
from programs.attribution import (
    attribute_to_figure,
    attribute_to_findings,
    attribute_uncited,
    drop_uncited_after_opening,
    drop_uncited_numbers,
    supporting_page,
    uncite_unprinted,
)

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


SPIN_OFF = {
    "2c3d4e5f6071": "On the date of the spin, CTSO's Home Care business will be reported as "
    "discontinued operations, and prior periods will be recast.",
    "3d4e5f607182": "The Industrial segment grew on pricing; the Home Care business grew "
    "on volume.",
}
SPIN_QUESTION = "Which segment of CTSO will be treated as a discontinued operation from the spin?"


def test_a_sentence_restating_its_question_is_cited_where_its_answer_is():
    answer = "The Home Care business segment of CTSO will be treated as discontinued."
    assert supporting_page(answer, SPIN_OFF) is None  # too little of it is on any page
    assert supporting_page(answer, SPIN_OFF, SPIN_QUESTION) == "2c3d4e5f6071"


def test_a_restated_question_with_a_guess_or_no_answer_stays_uncited():
    guess = "The Industrial business of CTSO will be treated as discontinued from the spin."
    assert supporting_page(guess, SPIN_OFF, SPIN_QUESTION) is None  # no page says it
    one_name = "The Industrial segment will be treated as a discontinued operation."
    assert supporting_page(one_name, SPIN_OFF, SPIN_QUESTION) is None  # one added word
    echo = "A segment of CTSO will be treated as a discontinued operation from the spin."
    assert supporting_page(echo, SPIN_OFF, SPIN_QUESTION) is None  # it adds nothing
    aside = "The Home Care business grew on volume."  # restates nothing of the question:
    assert supporting_page(aside, SPIN_OFF, SPIN_QUESTION) is None  # five words, not six


@given(st.sampled_from(sorted(SPIN_OFF)), st.text(alphabet="abcdefgh ", max_size=30))
def test_a_restated_question_is_cited_only_to_a_page_holding_every_added_word(uid, noise):
    sentence = f"The Home Care business {noise} of CTSO will be treated as discontinued."
    cited = supporting_page(sentence, SPIN_OFF, SPIN_QUESTION)
    if cited is not None:
        from programs.attribution import content_words

        added = content_words(sentence) - content_words(SPIN_QUESTION)
        assert len(added) >= 2 and added <= content_words(SPIN_OFF[cited])


def test_a_figure_near_a_page_figure_is_not_cited_to_it_unless_its_rounding_allows():
    # 12,004 is within 1% of 12,050, but "$12,050 million" is not a rounding of it.
    assert supporting_page("Cloud revenue was $12,050 million.", PAGES) is None
    assert supporting_page("Cloud revenue was $12.0 billion.", PAGES) == "1b2c3d4e5f60"


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


#: A margin bridge: percentage points of net sales and dollars a share, no scale stated.
BRIDGE = (
    "The following table provides the increases (decreases) in operating income margins and "
    "diluted earnings per share.\nPercent of net sales\nEarnings per diluted share\n"
    "Same period last year\n20.8 % $\n10.12\nNet costs for significant litigation\n(6.7)\n"
    "(3.20)\nDivestiture costs\n(0.2)\n(0.08)"
)
ACCRUAL = "The company accrued $6.7 million for net costs of significant litigation."


def test_a_short_amount_needs_a_page_that_prints_it_as_an_amount():
    assert supporting_page(ACCRUAL, {"0a1b2c3d4e5f": BRIDGE}) is None  # "(6.7)" points
    with_scale = {"0a1b2c3d4e5f": "(Millions)\n" + BRIDGE}
    assert supporting_page(ACCRUAL, with_scale) == "0a1b2c3d4e5f"
    printed = {"0a1b2c3d4e5f": BRIDGE + "\nThe accrual for litigation was $6.7 million."}
    assert supporting_page(ACCRUAL, printed) == "0a1b2c3d4e5f"
    # Not an amount: a percentage (or a long figure) is matched as before.
    margin = "Net costs for significant litigation cut the margin by 6.7 percent of net sales."
    assert supporting_page(margin, {"0a1b2c3d4e5f": BRIDGE}) == "0a1b2c3d4e5f"


@given(
    st.one_of(  # figures of one or two digits: longer ones are matched as they stand
        st.decimals(min_value="0.1", max_value="9.9", places=1).map(str),
        st.integers(min_value=1, max_value=99).map(str),
    ),
    st.sampled_from(["$", ""]),
    st.sampled_from([" million", " billion", ""]),
)
def test_a_short_amount_is_never_cited_to_a_page_of_bare_figures(figure, sign, scale):
    sentence = f"The company accrued {sign}{figure}{scale} for significant litigation costs."
    page = f"Net costs for significant litigation\n({figure})\n{figure}\nDivestiture costs"
    uid = supporting_page(sentence, {"0a1b2c3d4e5f": page})
    assert uid is None or not (sign or scale)  # only a bare figure may match bare figures


def _cited_to_capex_page(body: str) -> CitedAnswer:
    """``body`` whose marker ¹ cites the capital-expenditure page."""
    footnote = Footnote(number=1, citation=CITES["0a1b2c3d4e5f"])
    return CitedAnswer(body=body, references=ReferenceList(footnotes=[footnote]))


def test_an_uncited_number_goes_and_uncited_words_and_tables_stay():
    answer = _cited_to_capex_page(
        "Capex was $4,817.3 million.¹ It rose 6.9% on the year. Spending grew.\n\n"
        "| Year | Capex |\n| --- | --- |\n| FY2031 | 4,817.3 |\n\nThe outlook is 12% growth."
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

    answer = _cited_to_capex_page(" ".join(sentences))
    kept, _ = drop_uncited_numbers(answer)
    assert all(s.markers for s in split_sentences(kept.body) if extract_numbers(s.text))
    assert kept.body.count("Margins held.") == answer.body.count("Margins held.")


def test_uncited_prose_stays_only_as_the_opening():
    answer = _cited_to_capex_page(
        "Yes, mostly new capacity. Capex was $4,817.3 million.¹ One possible reason "
        "could be a new strategy.\n\n| Year | Capex |\n| --- | --- |\n| FY2031 | 4,817.3 |"
    )
    kept, dropped = drop_uncited_after_opening(answer)
    assert dropped == 1 and "One possible reason" not in kept.body
    assert kept.body.startswith("Yes, mostly new capacity. Capex was $4,817.3 million.¹")
    assert "| FY2031 | 4,817.3 |" in kept.body
    assert drop_uncited_after_opening(kept) == (kept, 0)


@given(
    st.lists(
        st.sampled_from(
            ["Sales rose.", "Sales rose.¹", "Margins held.", "It was 7.¹", "No, not so."]
        )
    )
)
def test_after_the_drop_only_the_opening_and_verdicts_may_be_uncited(sentences):
    from citations.sentences import split_sentences

    answer = _cited_to_capex_page(" ".join(sentences))
    kept, _ = drop_uncited_after_opening(answer)
    said = split_sentences(kept.body)
    assert all(s.markers or s.text == "No, not so." for s in said[1:])
    assert kept.body.count("No, not so.") == answer.body.count("No, not so.")
    assert [s.text for s in said if s.markers] == [
        s.text for s in split_sentences(answer.body) if s.markers
    ]


FINDINGS = CitedAnswer(
    body="### CTSO FY2031 Q4\n\nCapex was $4,817.3 million in FY2031.¹ The chief executive "
    "officer joined from a beauty retailer in the third quarter of the year.²\n\n"
    "### CTSO FY2030 Q4\n\nCapex was $4,102.0 million.³",
    references=ReferenceList(
        footnotes=[Footnote(number=n, citation=CITES["0a1b2c3d4e5f"]) for n in (1, 2, 3)]
    ),
)


def test_a_composer_sentence_restating_a_finding_gets_its_markers():
    answer = CitedAnswer(
        body="Capex rose to $4,817.3 million from $4,102.0 million. Capex was $4,817.3 million "
        "in FY2031. The chief executive officer joined from a beauty retailer in the third "
        "quarter. The company thrives. Capex was $4,102.0 million.³",
        references=FINDINGS.references,
    )
    attributed, added = attribute_to_findings(answer, FINDINGS)
    assert added == 2
    assert attributed.body == (
        "Capex rose to $4,817.3 million from $4,102.0 million. Capex was $4,817.3 million "
        "in FY2031.¹ The chief executive officer joined from a beauty retailer in the third "
        "quarter.² The company thrives. Capex was $4,102.0 million.³"
    )  # two findings' numbers in one sentence is no one finding: it stays uncited
    assert attribute_to_findings(attributed, FINDINGS) == (attributed, 0)


@given(st.lists(st.sampled_from([
    "Capex was $4,817.3 million in FY2031.", "Capex was $4,817.3 million.", "It was 7%.",
    "Capex was $9,999.9 million in FY2031.", "The chief executive officer joined.",
    "The chief executive officer joined from a beauty retailer in the third quarter.",
])))  # fmt: skip
def test_findings_lend_only_their_own_markers_for_their_own_numbers(sentences):
    from citations.sentences import split_sentences

    answer = CitedAnswer(body=" ".join(sentences), references=FINDINGS.references)
    attributed, added = attribute_to_findings(answer, FINDINGS)
    by_marker = {m: s for s in split_sentences(FINDINGS.body) for m in s.markers}
    assert sum(bool(s.markers) for s in split_sentences(attributed.body)) == added
    for sentence in split_sentences(attributed.body):
        for m in sentence.markers:
            source = NumberIndex.from_text(by_marker[m].text)
            assert all(source.matches(n) for n in extract_numbers(sentence.text))


def test_a_sentence_stating_codes_figure_gets_the_figures_pages():
    """Capex as % of revenue is printed on no page: a sentence stating it, and numbers its
    inputs' pages print, is cited to those pages; another percentage is not."""
    answer = CitedAnswer(
        body="Yes, CTSO is capital intensive. Capex of $4,817.3 million was 12.5% of revenue."
    )
    cited, added = attribute_to_figure(answer, "12.5%", PAGES, CITES)
    assert added == 1
    assert cited.body.endswith("12.5% of revenue.¹˒²")
    assert [f.citation.uid for f in cited.references.footnotes] == list(PAGES)
    for other in ("Capex was 12.5% of revenue, up from 11.0%.", "Capex was 13.5% of revenue."):
        unchanged, none = attribute_to_figure(CitedAnswer(body=other), "12.5%", PAGES, CITES)
        assert none == 0 and unchanged.body == other


def test_an_amount_cited_to_a_page_that_does_not_print_it_is_cited_afresh_or_goes():
    """Boston Properties' FFO was cited to the auditor's report, which prints no such
    figure; the retrieved page that prints it gets the citation, and an amount no
    retrieved page prints leaves the answer."""
    wrong = Footnote(number=1, citation=CITES["1b2c3d4e5f60"])
    answer = CitedAnswer(
        body=(
            "Capex was $4,817.3 million.¹ Cloud revenue was $12,004 million.¹ "
            "Devices revenue was $9,999 million.¹ Cloud revenue rose 12.5%.¹"
        ),
        references=ReferenceList(footnotes=[wrong]),
    )
    uncited, count = uncite_unprinted(answer, PAGES)
    assert count == 2  # capex and the made-up devices figure; a percentage is not read here
    assert uncited.body.startswith("Capex was $4,817.3 million. Cloud revenue was $12,004")
    cited, _ = attribute_uncited(uncited, PAGES, CITES)
    kept, dropped = drop_uncited_numbers(cited)
    assert "Capex was $4,817.3 million.²" in kept.body and dropped == 1
    assert "9,999" not in kept.body
    assert uncite_unprinted(kept, PAGES) == (kept, 0)


@given(st.sampled_from(["4,817.3", "4,817", "4.8 billion", "4,102.0"]))
def test_an_amount_its_cited_page_prints_keeps_its_citation(amount):
    cited = Footnote(number=1, citation=CITES["0a1b2c3d4e5f"])
    answer = CitedAnswer(
        body=f"Capital expenditures were ${amount} million.¹".replace("billion million", "billion"),
        references=ReferenceList(footnotes=[cited]),
    )
    assert uncite_unprinted(answer, PAGES) == (answer, 0)


def test_a_short_amount_needs_words_that_say_what_it_is_not_the_companys_name():
    """Apple's made-up "$1.0 billion in goodwill" had been cited to a page printing "1,003"
    (in millions), on the words "Apple" and "ended", which every page of the slice holds."""
    pages = {
        "0a1b2c3d4e5f": "Acme Inc. Years ended September 2031 (in millions) Derivative "
        "adjustments $ 1,003 Total comprehensive income 88,531",
        "1b2c3d4e5f60": "Acme Inc. Years ended September 2031 Goodwill is tested annually "
        "for impairment.",
    }
    made_up = "Acme reported $1.0 billion in goodwill at the year ended 2031."
    assert supporting_page(made_up, pages) is None
    # with one page there is nothing to tell its common words by, as before
    assert supporting_page(made_up, {"0a1b2c3d4e5f": pages["0a1b2c3d4e5f"]}) == "0a1b2c3d4e5f"
    # words the number's own page holds, and the others do not, still support it
    said = "Acme's derivative adjustments were $1.0 billion."
    assert supporting_page(said, pages) == "0a1b2c3d4e5f"
