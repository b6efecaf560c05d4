"""A statement figure a draft states of its own company is held to the facts."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citations.markup import Citation, CitedAnswer, Footnote, ReferenceList
from domain.cells import SliceRef
from programs.claim_check import check_figures, misstated_figures
from programs.figures import Figures
from retrieval.companies import load_companies
from retrieval.store import GridFilter

MMM_2018 = SliceRef(ticker="MMM", fy=2018, fq=4)  # capital expenditure $1,577 million


@pytest.fixture
def figures(sample_store):
    return Figures(lambda ref: sample_store.facts(GridFilter(ref.ticker, ref.fy, ref.fq)))


def cited(*sentences: str) -> CitedAnswer:
    foot = Footnote(
        number=1,
        citation=Citation(uid="0" * 12, doc_label="MMM 10-K FY2018", page_index=1, page_id=1),
    )
    return CitedAnswer(
        body=" ".join(f"{s}¹" for s in sentences), references=ReferenceList(footnotes=[foot])
    )


def flagged(figures, *sentences: str, ref: SliceRef = MMM_2018) -> list[str]:
    return [
        text for text, _ in misstated_figures(cited(*sentences), ref, figures, load_companies())
    ]


def test_a_wrong_figure_of_the_company_is_found_and_the_right_one_kept(figures):
    wrong = "3M's capital expenditure in FY2018 was $1,349 million."
    right = "3M's capital expenditure in fiscal 2018 was $1,577 million."
    assert [t.rstrip("¹") for t in flagged(figures, wrong, right)] == [wrong]
    answer, dropped = check_figures(cited(wrong, right), MMM_2018, None, figures)
    assert dropped == 1 and "1,349" not in answer.body and "1,577" in answer.body


def test_an_uncited_sentence_pointing_back_at_a_misstated_figure_goes_with_it(figures):
    wrong = "3M's capital expenditure in FY2018 was $1,349 million¹."
    follower = "This shows a cut in investment."
    other = "3M's capital expenditure in fiscal 2018 was $1,577 million¹."
    answer = cited()
    answer = answer.model_copy(update={"body": f"{wrong} {follower} {other}"})
    checked, dropped = check_figures(answer, MMM_2018, None, figures)
    assert dropped == 1 and checked.body.strip() == other


@pytest.mark.parametrize("wrong", ["$1,950 million", "$2,050 million", "$1,349 million"])
def test_a_wrong_amount_is_found_whatever_its_digits(figures, wrong):
    # An amount whose digits could be a year is an amount: years are not read as numbers.
    sentence = f"3M's capital expenditure in FY2018 was {wrong}."
    assert [t.rstrip("¹") for t in flagged(figures, sentence)] == [sentence]


def test_a_sentence_naming_no_company_is_its_slices_own(figures):
    """A probe researches one company: "The corporation's total current assets … were
    $66,136 million" named none, and was PG&E's PP&E, not its current assets."""
    sentence = "The company's capital expenditure in FY2018 was $1,349 million."
    assert [t.rstrip("¹") for t in flagged(figures, sentence)] == [sentence]


def test_cash_provided_by_operating_activities_is_not_read_as_the_cash_balance(figures):
    # 3M's FY2018 operating cash flow was $6,439 million; its cash balance $2,853 million.
    right = "3M provided net cash of $6,439 million from its operating activities in FY2018."
    wrong = "3M provided net cash of $2,853 million from its operating activities in FY2018."
    assert [t.rstrip("¹") for t in flagged(figures, right, wrong)] == [wrong]


@pytest.mark.parametrize(
    "sentence",
    [
        "PepsiCo's capital expenditure in FY2018 was $1,349 million.",  # another company
        "3M's capital expenditure in FY2017 was $1,373 million.",  # another year
        "3M's capital expenditure in the prior year was $1,373 million.",
        "3M's Safety and Industrial segment capital expenditure was $349 million.",  # a part
        "3M's capital expenditure in FY2018 was below $2,000 million.",  # a benchmark
        "3M's capital expenditure rose in FY2018.",  # no value stated
    ],
)
def test_what_is_not_a_statement_of_the_slices_figure_is_left_alone(figures, sentence):
    assert flagged(figures, sentence) == []


def test_a_quarter_slice_is_not_checked(figures):
    wrong = "3M's capital expenditure in FY2018 was $1,349 million."
    assert flagged(figures, wrong, ref=SliceRef(ticker="MMM", fy=2018, fq=2)) == []


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], max_examples=40)
@given(
    form=st.sampled_from(
        ["$1,577 million", "$1.577 billion", "$1,577m", "1,577 million dollars", "$1.6 billion"]
    ),
    verb=st.sampled_from(["was", "came to", "amounted to", "totalled"]),
)
def test_the_facts_value_in_any_form_is_never_dropped(figures, form, verb):
    assert flagged(figures, f"3M's capital expenditure in FY2018 {verb} {form}.") == []
