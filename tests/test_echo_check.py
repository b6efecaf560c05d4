"""A sentence that only restates its question cites nothing unless a page says it
(``programs.echo_check``)."""

from __future__ import annotations

from cited import cited_answer
from hypothesis import given
from hypothesis import strategies as st

from programs.echo_check import uncite_echoes

QUESTION = "Is Acme's gross margin a useful metric for a utility?"
RATES = (
    "Acme's earnings depend on the outcomes of its ratemaking proceedings and on its "
    "ability to manage costs; the utility's revenue requirement is set by the commission."
)
SAYS_IT = "For a utility such as Acme, gross margin is a useful metric of its results."
PAGES = {"0a1b2c3d4e5f": RATES, "1b2c3d4e5f60": SAYS_IT}


def test_an_echo_cited_to_a_page_that_does_not_say_it_loses_its_citation():
    answer = cited_answer("Acme Corporation's gross margin is a useful metric for a utility.¹")
    kept, uncited = uncite_echoes(answer, PAGES, QUESTION)
    assert uncited == 1
    assert kept.body == "Acme Corporation's gross margin is a useful metric for a utility."
    assert not kept.references.footnotes  # a draft that cites nothing: the round's floor


def test_an_echo_opening_stays_before_the_sentence_that_supports_it():
    answer = cited_answer(
        "Yes, Acme's gross margin is a useful metric for a utility.¹ Its earnings depend on "
        "the outcomes of its ratemaking proceedings and its ability to manage costs.¹"
    )
    kept, uncited = uncite_echoes(answer, PAGES, QUESTION)
    assert uncited == 1
    assert kept.body.startswith("Yes, Acme's gross margin is a useful metric for a utility. ")
    assert kept.body.endswith("manage costs.¹") and len(kept.references.footnotes) == 1


def test_an_echo_after_the_opening_goes_like_other_uncited_prose():
    answer = cited_answer(
        "Its earnings depend on its ratemaking proceedings.¹ Acme's gross margin is a "
        "useful metric for a utility.¹"
    )
    kept, uncited = uncite_echoes(answer, PAGES, QUESTION)
    assert uncited == 1 and kept.body == "Its earnings depend on its ratemaking proceedings.¹"


def test_an_echo_its_page_holds_a_claim_or_a_number_keeps_its_citation():
    says_it = cited_answer(
        "Yes, Acme's gross margin is a useful metric for a utility.¹", uid="1b2c3d4e5f60"
    )
    assert uncite_echoes(says_it, PAGES, QUESTION) == (says_it, 0)
    claim = cited_answer("Acme's ratemaking proceedings set its revenue requirement.¹")
    assert uncite_echoes(claim, PAGES, QUESTION) == (claim, 0)  # adds what it answers
    number = cited_answer("Acme's gross margin of 41% is a useful metric for a utility.¹")
    assert uncite_echoes(number, PAGES, QUESTION) == (number, 0)  # numbers: other checks


@given(
    st.sampled_from(["Yes, ", "", "No, "]),
    st.sampled_from(["Acme", "Acme Corporation", "Acme Group"]),
)
def test_a_restated_question_is_uncited_whatever_its_verdict_or_legal_form(lead, name):
    answer = cited_answer(f"{lead}{name}'s gross margin is a useful metric for a utility.¹")
    kept, uncited = uncite_echoes(answer, PAGES, QUESTION)
    assert uncited == 1 and not kept.references.footnotes


def test_an_echo_naming_the_questions_period_is_still_an_echo():
    """FedEx's "depends on a few major customers in FY2023." stood under five citations: its
    only number was the year the question named."""
    asked = "Does Acme depend on a few major customers in FY2023?"
    answer = cited_answer("Acme depends on a few major customers in FY2023.¹")
    kept, uncited = uncite_echoes(answer, PAGES, asked)
    assert uncited == 1 and not kept.references.footnotes
    for period in ("in fiscal 2023", "as of December 31, 2023", "in Q2 FY2023"):
        echo = cited_answer(f"Acme depends on a few major customers {period}.¹")
        assert uncite_echoes(echo, PAGES, asked.replace("in FY2023", period))[1] == 1, period
    counted = cited_answer("Acme depends on 3 major customers in FY2023.¹")
    assert uncite_echoes(counted, PAGES, asked) == (counted, 0)  # a count: other checks
