"""A number stays with the figure its page gives it to (``programs.owner_check``)."""

from __future__ import annotations

from cited import cited_answer
from hypothesis import given
from hypothesis import strategies as st

from programs.owner_check import drop_numbers_of_other_figures, given_to_another

PAGE = (
    "Operating Activities The Utility's cash flows from operating activities primarily "
    "consist of receipts from customers.\nDuring 2031, net cash provided by operating "
    "activities increased by $1.4 billion compared to the same period in 2030. Net income "
    "rose to $1,814 million from a loss of $88 million."
)
PAGES = {"0a1b2c3d4e5f": PAGE}
ASKED = "Did Acme's net income increase in FY2031 compared with FY2030, and why?"


def test_a_number_the_page_gives_another_figure_goes():
    answer = cited_answer("Acme's net income rose by $1.4 billion in FY2031.¹ It rose.¹")
    kept, dropped = drop_numbers_of_other_figures(answer, PAGES, ASKED)
    assert dropped == 1 and kept.body == "It rose.¹"
    # naming no figure, the sentence speaks of the one the question names
    assert given_to_another("The increase was $1.4 billion.", [PAGE], ASKED)


def test_a_number_with_its_own_figure_or_in_a_table_stays():
    assert not given_to_another("Net income rose to $1,814 million.", [PAGE], ASKED)
    assert not given_to_another("Operating cash flow rose $1.4 billion.", [PAGE], ASKED)
    table = "Net income 1,814 (88) Net cash provided by operating activities 6,879 4,379"
    assert not given_to_another("Net income was $6,879 million.", [table], ASKED)
    assert not given_to_another("The increase was $1.4 billion.", [PAGE], "Why?")  # no figure


@given(st.integers(min_value=2, max_value=99).map(lambda n: f"${n / 10:.1f} billion"))
def test_the_owner_decides_whatever_the_amount(amount):
    page = f"Net cash provided by operating activities increased by {amount} in 2031."
    assert given_to_another(f"Net income rose by {amount}.", [page], ASKED)
    assert not given_to_another(f"Operating cash flow rose by {amount}.", [page], ASKED)


RELEASE = (
    "CONDENSED CONSOLIDATED STATEMENT OF INCOME\nQuarters Ended June 30,\n2031\n2030\n"
    "OPERATING INCOME\n3,104.1\n1,711.8\nInterest expense\n330.2\n290.6\n"
    "NET INCOME\n$\n2,310.4\n$\n1,188.0\nRestaurant count\n41,198\n40,000\n"
)


def test_a_number_a_table_row_gives_another_figure_goes():
    asked = "How much cash did Acme return to shareholders through dividends and buybacks?"
    returned = "Acme returned $2,310.4 million through dividends and share repurchases."
    assert given_to_another(returned, [RELEASE], asked)
    # the row that prints it names the figure the sentence speaks of, or names no measure
    assert not given_to_another("Net income was $2,310.4 million.", [RELEASE], asked)
    assert not given_to_another("Acme paid dividends of 41,198 million.", [RELEASE], asked)


def test_a_buybacks_amount_is_no_acquisitions_price():
    """Salesforce's 10-K page gives "$4.0 billion" to its buybacks; a draft gave it to Slack."""
    page = (
        "Net cash used in investing activities during fiscal 2022 was primarily related to "
        "cash consideration for the acquisitions of Slack and Acumen, net of cash acquired, of "
        "approximately $14.9 billion. Net cash used in financing activities during fiscal 2023 "
        "consisted primarily of $4.0 billion from repurchases of common stock."
    )
    asked = "What are major acquisitions that Acme has done in FY2023, FY2022 and FY2021?"
    assert given_to_another("The largest acquisition was Slack, for $4 billion.", [page], asked)
    assert not given_to_another("Acquisitions of Slack cost $14.9 billion.", [page], asked)


def test_a_sentence_speaking_of_nothing_of_the_kind_gives_its_number_to_something_else():
    """McDonald's Q1 2023 share repurchases drafted as "$127 million", the release's
    "Pre-tax expenses of $127 million … to support the Company's business in Russia"; a
    sentence that speaks of repurchases, even loosely, may give it to them."""
    expenses = "Pre-tax expenses of $127 million, or $0.13 per share, were incurred in Russia."
    asked = "How much did Acme spend on share repurchases in Q1 2031?"
    drafted = "Acme spent $127 million on share repurchases in Q1 2031."
    assert given_to_another(drafted, [expenses], asked)
    returned = "Acme returned $900 million, including $127 million of repurchases."
    assert not given_to_another(drafted, [returned], asked)
    row = "Other items 127 88"  # a table row naming no measure: not read
    assert not given_to_another(drafted, [row], asked)
