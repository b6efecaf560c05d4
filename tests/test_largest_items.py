"""The largest or smallest liability, chosen by code from the balance sheet's rows."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.cells import SliceRef
from programs.figures import Figures
from programs.largest_items import (
    largest_answer,
    largest_probe,
    liability_rows,
    read_largest_ask,
)
from retrieval.facts.model import Fact

UTIL_2031 = SliceRef(ticker="UTIL", fy=2031, fq=4)


def _sheet(liabilities: list[tuple[str, float]], fy: int = 2031, page_id: int = 100) -> list[Fact]:
    """A balance sheet: two assets, total assets, the liabilities given, then equity."""
    page = dict(uid=f"abcdef0{page_id:05d}", page_id=page_id, doc_name="UTIL_2031_10K",
                doc_label="UTIL 10-K FY2031", page_index=page_id - 1, ticker="UTIL", fy=fy,
                fq=None, column=str(fy), unit="USD", statement="balance",
                duration="instant")  # fmt: skip
    rows = [
        ("Cash and cash equivalents", "cash", 734e6),
        ("Net property, plant, and equipment", "ppe_net", 76_208e6),
        ("TOTAL ASSETS", "total_assets", 118_644e6),
        *((label, None, value) for label, value in liabilities),
        ("Common stock, no par value", None, 32_887e6),
        ("Total shareholders’ equity", "equity", 22_823e6),
    ]
    return [Fact(label=label, concept=concept, value=value, **page)
            for label, concept, value in rows]  # fmt: skip


LIABILITIES = [
    ("Short-term borrowings", 2_055e6),
    ("Total current liabilities", 15_788e6),
    ("Long-term debt (includes $10.31 billion related to VIEs at respective dates)", 47_742e6),
    ("Regulatory liabilities", 17_630e6),
    ("Total noncurrent liabilities", 79_781e6),
]


@pytest.mark.parametrize(
    ("question", "largest"),
    [
        ("What was the largest liability on UTIL's balance sheet at the end of FY2031?", True),
        ("What are UTIL's biggest liabilities in FY2031?", True),
        ("Which liability was the largest on UTIL's balance sheet in FY2031?", True),
        ("What was UTIL's smallest liability in FY2031?", False),
        ("Which segment had the largest revenue in FY2031?", None),
        ("What was UTIL's largest asset in FY2031?", None),
        ("What were UTIL's total liabilities in FY2031?", None),
    ],
)
def test_a_question_asking_the_largest_or_smallest_liability_is_read(question, largest):
    ask = read_largest_ask(question)
    assert (ask.largest if ask else None) == largest


def test_the_largest_liability_is_a_row_as_printed_and_no_total_or_equity():
    facts = _sheet(LIABILITIES)
    rows = liability_rows(facts, UTIL_2031)
    assert [f.label.split(" (")[0] for f in rows] == [
        "Short-term borrowings", "Long-term debt", "Regulatory liabilities"
    ]  # fmt: skip
    question = "What was the largest liability on UTIL's balance sheet at the end of FY2031?"
    answer, figure = largest_answer(question, facts, UTIL_2031)
    assert answer.body == (
        "Long-term debt was the largest liability on the balance sheet at the end of FY2031: "
        "$47,742 million¹. Next was regulatory liabilities, $17,630 million¹."
    )
    assert figure.value == 47_742e6 and figure.uids == ["abcdef000100"]
    smallest = largest_answer("What was UTIL's smallest liability?", facts, UTIL_2031)
    assert smallest[0].body.startswith("Short-term borrowings was the smallest liability")


def test_a_capital_lease_is_a_liability_and_paid_in_capital_opens_equity():
    facts = _sheet([("Capital lease obligations", 9e9), ("Accounts payable", 3e9),
                    ("Additional paid-in capital", 29e9)])  # fmt: skip
    rows = liability_rows(facts, UTIL_2031)
    assert [f.label for f in rows] == ["Capital lease obligations", "Accounts payable"]


def test_a_summary_pages_lone_total_assets_row_opens_no_liabilities():
    summary = [f for f in _sheet([], page_id=40) if f.concept == "total_assets"]
    assets_page = [f for f in _sheet([("Electric", 74_772e6)], page_id=99)][:2]
    rows = liability_rows([*summary, *assets_page, *_sheet(LIABILITIES)], UTIL_2031)
    assert max(f.value for f in rows) == 47_742e6  # not the gross plant after the summary


def test_the_first_sheet_is_read_and_another_year_or_a_subsidiarys_is_not():
    first = _sheet(LIABILITIES)
    subsidiary = _sheet([("Long-term debt", 90_000e6), ("Other", 1e6)], page_id=107)
    prior_year = _sheet([("Long-term debt", 95_000e6), ("Other", 1e6)], fy=2030)
    rows = liability_rows([*prior_year, *first, *subsidiary], UTIL_2031)
    assert max(f.value for f in rows) == 47_742e6


def test_no_choice_without_two_liabilities_or_a_total_assets_row():
    question = "What was UTIL's largest liability in FY2031?"
    assert largest_answer(question, _sheet([("Long-term debt", 5e9)]), UTIL_2031) is None
    no_total = [f for f in _sheet(LIABILITIES) if f.concept != "total_assets"]
    assert largest_probe(question, no_total, UTIL_2031) is None


@given(st.lists(st.floats(min_value=1e6, max_value=1e12), min_size=2, max_size=12))
def test_the_chosen_liability_is_the_largest_row(values):
    facts = _sheet([(f"Liability {i}", v) for i, v in enumerate(values)])
    _, figure = largest_answer("What was UTIL's largest liability?", facts, UTIL_2031)
    assert figure.value == max(values)


def test_the_figure_probe_answers_it_with_no_model_call():
    figures = Figures(lambda ref: _sheet(LIABILITIES))
    question = "Which liability was the largest on UTIL's balance sheet at the end of FY2031?"
    probe = figures.probe(question, UTIL_2031)
    assert probe is not None and probe.probe_title == "Liabilities (from the balance sheet)"
    answer, _ = figures.answer(question, UTIL_2031)
    assert answer.body.startswith("Long-term debt was the largest liability")


CURRENT = [
    ("Accounts payable", 64_115e6),
    ("Other current liabilities", 60_845e6),
    ("Deferred revenue", 7_912e6),
    ("Commercial paper", 9_982e6),
    ("Term debt", 11_128e6),
    ("Total current liabilities", 153_982e6),
    ("Term debt, non-current", 98_959e6),
]


def _with_current_total(liabilities: list[tuple[str, float]]) -> list[Fact]:
    """The sheet, its "Total current liabilities" row named as the facts name it."""
    return [
        dataclasses.replace(f, concept="current_liabilities")
        if f.label == "Total current liabilities"
        else f
        for f in _sheet(liabilities)
    ]


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("What were the three largest components of UTIL's current liabilities in FY2031?", 3),
        ("What are UTIL's two biggest current liabilities in FY2031?", 2),
        ("What were the main items of UTIL's current liabilities at the end of FY2031?", 3),
    ],
)
def test_the_largest_current_liabilities_are_the_rows_before_their_total(question, count):
    """Apple's "three largest components of current liabilities" had got their total alone."""
    ask = read_largest_ask(question)
    assert ask is not None and ask.current and ask.count == count
    answer, figure = largest_answer(question, _with_current_total(CURRENT), UTIL_2031)
    three = (
        "The three largest current liabilities at the end of FY2031: accounts payable, "
        "$64,115 million¹; other current liabilities, $60,845 million¹; term debt, $11,128 "
        "million¹; of total current liabilities of $153,982 million¹."
    )
    if count == 3:
        assert answer.body == three
    else:
        assert answer.body.startswith("The two largest current liabilities at the end of")
        assert "term debt" not in answer.body  # the third is not listed
    assert figure.value == 64_115e6


def test_no_current_liabilities_answer_without_their_total_row():
    question = "What were the three largest components of UTIL's current liabilities in FY2031?"
    assert largest_answer(question, _sheet(CURRENT), UTIL_2031) is None  # the total unnamed
    assert largest_answer(question, _with_current_total(CURRENT[-2:]), UTIL_2031) is None
