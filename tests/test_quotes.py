"""Copied passages are not answers: pasted hits, rows and fact lines leave the draft; a
page's sentence with a number changed, or with a denial dropped or added, is a misquote and
leaves it too."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citations.markup import CitedAnswer
from programs.drafts import verify_draft
from programs.quotes import drop_copied_lines, drop_misquoted, is_copied
from retrieval.search.hybrid import Hit

PAGE = (
    "Consolidated Performance Summary\n2021\n2020\nGross profit\n10,573\n10,048\n"
    "Our gross profit rate declined in fiscal 2021 primarily due to higher supply chain costs."
)


def test_pasted_hits_rows_and_fact_lines_are_dropped_and_own_words_stay():
    draft = (
        "[2] BBY 10-K FY2021 p.29: Consolidated Performance Summary\n"
        "Gross profit | 10,573 | 10,048\n"
        "…\n"
        "Our gross profit rate declined in fiscal 2021 primarily due to higher supply chain "
        "costs. [2]\n"
        "[4] gross_profit FY2021: 10,573 million USD ('Gross profit', BBY 10-K FY2021 p.29)\n"
        "Gross margins were steady, within 1 point a year [2]."
    )
    own, dropped = drop_copied_lines(draft, [PAGE])
    assert own == "Gross margins were steady, within 1 point a year [2]."
    assert dropped == 5


def test_a_short_phrase_is_copied_only_when_it_is_a_whole_row():
    page = "Goodwill\nDescription\nDetermining fair value is complex."
    assert is_copied("Goodwill", [page]) and is_copied("- Description [3]", [page])
    assert not is_copied("Goodwill rose.", [page])  # the model's own sentence
    assert not is_copied("", [PAGE]) and not is_copied("Revenue rose 5% [1].", [])


def test_rows_run_into_one_line_are_pasted_and_a_line_keeps_its_own_claims():
    run_on = (
        "[2] Consolidated Performance Summary 2021 2020 Gross profit 10,573 10,048 [2] "
        "Consolidated Performance Summary 2021 2020 Gross profit 10,573 10,048 [2]"
    )
    assert is_copied(run_on, [PAGE])
    mixed = (
        "Gross margins held steady [2]. Our gross profit rate declined in fiscal 2021 "
        "primarily due to higher supply chain costs. [2]"
    )
    own, dropped = drop_copied_lines(mixed, [PAGE])
    assert own == "Gross margins held steady [2]." and dropped == 1


def test_what_is_left_of_a_paste_goes_but_a_short_cited_answer_stays():
    draft = "Gross profit | 10,573 | 10,048\nPreviously, Ms.\nYes, it fell [2]."
    assert drop_copied_lines(draft, [PAGE]) == ("Yes, it fell [2].", 1)
    assert drop_copied_lines("Previously, Ms.", [PAGE]) == ("Previously, Ms.", 0)  # no paste


def test_a_hit_header_after_a_claim_is_pasted_and_goes():
    line = (
        "Benefit payments are expected to stay near $2 billion a year [3] "
        "VZ 10-K FY2021 p.43: reporting units during the fourth quarter of 2020."
    )
    own, dropped = drop_copied_lines(line, [PAGE])
    assert own == "Benefit payments are expected to stay near $2 billion a year [3]"
    assert dropped == 1


PENSIONS = (
    "Employer Contributions\nNo qualified pension plans contributions are expected to be made\n"
    "in 2022. Nonqualified pension plans contributions are estimated to be approximately\n"
    "$60 million in 2022.\nDuring 2020, we recorded net pre-tax pension and benefits charges of "
    "$1.6 billion in our pension and postretirement benefit plans."
)


def test_a_pages_sentence_with_a_number_changed_is_a_misquote():
    body = (
        "No qualified pension plans contributions are expected to be made in 2024.¹ "
        "This leaves the plans unfunded. "  # uncited, points back at the misquote: goes too
        "During 2020, we recorded net pre-tax pension and benefits charges of $1.6 billion in "
        "our pension and postretirement benefit plans.¹ "  # the page's own words: a quote
        "Verizon expects to make no qualified pension contributions in 2022.¹"  # its own
    )
    answer, dropped = drop_misquoted(CitedAnswer(body=body), [PENSIONS])
    assert dropped == 1
    assert "2024" not in answer.body and "unfunded" not in answer.body
    assert "$1.6 billion" in answer.body and "Verizon expects" in answer.body


@given(year=st.integers(min_value=1990, max_value=2040))
def test_only_the_pages_own_number_makes_the_sentence_a_quote(year):
    sentence = f"No qualified pension plans contributions are expected to be made in {year}.¹"
    _, dropped = drop_misquoted(CitedAnswer(body=sentence), [PENSIONS])
    assert dropped == (0 if year == 2022 else 1)


class _Tool:
    """The two pages a probe retrieved, under hit numbers [1] and [2]."""

    def __init__(self, *texts: str) -> None:
        self.retrieved = {
            f"{n:012x}": Hit(
                uid=f"{n:012x}",
                page_id=n,
                doc_label="VZ 10-K FY2021",
                doc_name="VZ_2021_10K",
                ticker="VZ",
                fy=2021,
                fq=4,
                doc_type="10-K",
                page_index=n,
                score=1.0,
                text=text,
            )
            for n, text in enumerate(texts, start=1)
        }
        self.numbers = {uid: n for n, uid in enumerate(self.retrieved, start=1)}


def test_a_misquote_leaves_with_the_page_only_it_cited():
    tool = _Tool(PENSIONS, PAGE)
    draft = (
        "No qualified pension plans contributions are expected to be made in 2024 [1]. "
        "Verizon's gross profit rate declined in fiscal 2021 on supply chain costs [2]."
    )
    verified = verify_draft(draft, tool)  # type: ignore[arg-type]
    assert verified.misquoted_dropped == 1 and "2024" not in verified.answer.body
    assert [f.citation.uid for f in verified.answer.references.footnotes] == [f"{2:012x}"]


FFO_PAGE = (
    "FFO should not be considered as an alternative to net income (determined in accordance\n"
    "with GAAP) as an indication of our performance. FFO does not represent cash generated\n"
    "from operating activities determined in accordance with GAAP and is not a measure of\n"
    "liquidity or an indicator of our ability to make cash distributions."
)


@pytest.mark.parametrize(
    ("sentence", "misquoted"),
    [
        (  # Boston Properties' draft: both of the page's denials dropped
            "The company's FFO does represent cash generated from operating activities "
            "determined in accordance with GAAP and is a measure of liquidity.¹",
            True,
        ),
        (  # one dropped, in a contraction's place
            "FFO doesn't represent cash generated from operating activities determined in "
            "accordance with GAAP and is a measure of liquidity.¹",
            True,
        ),
        (  # one added
            "FFO should not be considered as an alternative to net income determined in "
            "accordance with GAAP as not an indication of our performance.¹",
            True,
        ),
        (  # the page's words, fewer than eight in a row, then the model's own
            "FFO should be considered, the filing says, as no measure of liquidity.¹",
            False,
        ),
        (  # the page's words and denials, in a contraction
            "FFO doesn't represent cash generated from operating activities determined in "
            "accordance with GAAP and is not a measure of liquidity.¹",
            False,
        ),
        ("FFO is a supplemental measure used by REITs, not a cash measure.¹", False),
    ],
)
def test_a_pages_words_with_a_denial_dropped_or_added_are_a_misquote(sentence, misquoted):
    answer, dropped = drop_misquoted(CitedAnswer(body=sentence), [FFO_PAGE])
    assert dropped == int(misquoted)
    assert (answer.body.strip() == "") == misquoted


def test_a_run_the_page_prints_both_ways_is_a_quote():
    page = FFO_PAGE + " We do believe FFO does represent cash generated from operating activities."
    sentence = "We believe FFO does represent cash generated from operating activities.¹"
    assert drop_misquoted(CitedAnswer(body=sentence), [page])[1] == 0


_WORDS = st.sampled_from(["cash", "flow", "is", "a", "measure", "of", "not", "the"])


@given(words=st.lists(_WORDS, min_size=12, max_size=40), start=st.integers(0, 20))
def test_the_pages_own_words_are_never_a_denial_misquote(words, start):
    page = " ".join(words)
    quoted = " ".join(words[start:])
    assert drop_misquoted(CitedAnswer(body=quoted + ".¹"), [page])[1] == 0
