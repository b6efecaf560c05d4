"""Reading the choice a question asks among statement figures (``programs.figure_choice``)."""

from __future__ import annotations

import pytest

from programs.figure_choice import read_choice

CASH = (
    "Among operations, investing, and financing activities, which brought in the most (or "
    "lost the least) cash flow for Nike in FY2023?"
)


def test_options_measure_and_direction_are_read():
    asked = read_choice(CASH)
    assert asked is not None
    assert asked.options == ("operations", "investing", "financing activities")
    assert asked.candidates[0] == (
        "cash flow from operations activities",
        "cash flow from operations",
    )
    assert asked.candidates[2] == ("cash flow from financing activities",)
    assert asked.largest and asked.predicate == "brought in the most cash flow"


@pytest.mark.parametrize(
    ("question", "largest"),
    [
        ("Among operating, investing and financing activities, which used the least cash?", True),
        ("Among operating, investing and financing activities, which used the most cash?", False),
        ("Among revenue and net income, which was the smallest in FY2022?", False),
        ("Among revenue and net income, which was the highest in FY2022?", True),
    ],
)
def test_an_outflow_verb_turns_the_comparison_around(question, largest):
    asked = read_choice(question)
    assert asked is not None and asked.largest is largest


@pytest.mark.parametrize(
    "question",
    [
        "Which segment had the highest net income in FY2022?",  # no options listed
        "Among its segments, which had the highest revenue?",  # one option
        "Among revenue, operating income and net income, which grew the most in FY2022?",
        "Among operating, investing and financing activities, which changed the most?",
        "Among operations and financing, which mattered?",  # no size asked
    ],
)
def test_no_choice_code_cannot_make(question):
    assert read_choice(question) is None


@pytest.mark.parametrize(
    ("question", "largest"),
    [
        ("Which of eBay's cash flow activities used the most cash in FY2022?", False),
        ("Which activities brought in the most cash for Acme in FY2022?", True),
        ("Which of its cash-flow activities used the least cash in FY2022?", True),
        ("Which of PG&E's FY2020 cash flow activities brought in the most cash?", True),
        ("Which of Acme's fiscal 2021 activities used the most cash?", False),
    ],
)
def test_the_three_activities_are_the_options_a_question_leaves_unlisted(question, largest):
    """eBay's "which of its cash flow activities used the most cash?" listed no options and
    was refused; a cash-flow statement prints three, so they are the options."""
    asked = read_choice(question)
    assert asked is not None and asked.largest is largest
    assert asked.options == ("operations", "investing", "financing activities")
    assert read_choice("Which activity grew the most in FY2022?") is None
