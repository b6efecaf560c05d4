"""A cause quoted from a page stays with the figure the page gives it to
(``programs.cause_check``)."""

from __future__ import annotations

import dspy
from hypothesis import given, settings
from hypothesis import strategies as st

from citations.markup import CitedAnswer
from domain.cells import SliceRef
from programs.cause_check import (
    MEASURES,
    drop_misattributed_causes,
    measures_named,
    mentions_measure,
    misattributed_cause,
    page_sentences,
)
from programs.probe_loop import ProbeLoop
from signatures.probes import Probe
from signatures.reviewer import ReviewVerdict

# Ulta's fourth-quarter release, as PyMuPDF prints it: wrapped lines.
PAGE = (
    "Gross profit increased 18.0% to $1.2 billion compared to $1.0 billion in the fourth\n"
    "quarter of fiscal 2021. As a percentage of net sales, gross profit of 37.6% was flat\n"
    "compared to the fourth quarter of fiscal 2021, primarily due to leverage of fixed costs,\n"
    "favorable channel mix shifts, and strong growth in other revenue, offset by higher\n"
    "inventory shrink.\n"
    "Selling, general and administrative (SG&A) expenses increased 17.3% to $762.7 million\n"
    "compared to $650.0 million in the fourth quarter of fiscal 2021."
)
CAUSE = (
    ", primarily due to leverage of fixed costs, favorable channel mix shifts, and strong "
    "growth in other revenue."
)
SOURCES = (
    "\n\n¹ ULTA Earnings FY2023 Q4 p.2 (page_id: 1, uid: aaaaaaaaaaaa)\n"
    "² ULTA Earnings FY2023 Q4 p.1 (page_id: 2, uid: bbbbbbbbbbbb)"
)


def test_a_page_cause_hung_on_another_figure_is_dropped_with_its_footnote():
    moved = "SG&A expenses increased 17.3% to $762.7 million" + CAUSE + "²"
    kept = "Net sales were $3,226.8 million.¹"
    answer = CitedAnswer.from_markdown(f"{kept} {moved}{SOURCES}")
    checked, dropped = drop_misattributed_causes(answer, [PAGE])
    assert dropped == 1
    assert checked.body.strip() == kept
    assert [f.citation.uid for f in checked.references.footnotes] == ["aaaaaaaaaaaa"]
    assert misattributed_cause(moved, [PAGE]) == (
        "the page gives these causes to gross profit, not to SG&A"
    )


def test_the_cause_on_its_own_figure_stays():
    right = "Gross profit as a percentage of net sales was flat at 37.6%" + CAUSE + "¹"
    answer = CitedAnswer.from_markdown(right + SOURCES)
    assert drop_misattributed_causes(answer, [PAGE]) == (answer, 0)


def test_a_sentence_naming_no_figure_explains_the_one_the_question_names():
    change = "The change was primarily driven by" + CAUSE.split("due to", 1)[1]
    sga = "What drove the reduction in SG&A expense as a percent of net sales?"
    assert misattributed_cause(change, [PAGE], sga) == (
        "the page gives these causes to gross profit, not to SG&A"
    )
    assert misattributed_cause(change, [PAGE], "What drove gross margin?") is None
    assert misattributed_cause(change, [PAGE], "What drove SG&A and EPS?") is None  # two
    assert misattributed_cause(change, [PAGE]) is None


def test_interest_incomes_cause_is_not_net_incomes():
    page = (
        "Interest Income The Utility's interest income that impacted earnings increased by "
        "$140 million, or 636%, in 2022 compared to 2021, primarily due to higher interest\n"
        "rates earned on regulatory balancing accounts."
    )
    moved = "The increase was primarily due to higher interest rates earned on regulatory "
    moved += "balancing accounts."
    asked = "Did PG&E's net income increase in FY2022 compared with FY2021, and why?"
    assert misattributed_cause(moved, [page], asked) == (
        "the page gives these causes to interest income, not to net income"
    )
    assert misattributed_cause(moved, [page], "Why did interest income rise?") is None


def test_what_the_pages_do_not_say_is_left_to_the_other_checks():
    # A cause no page gives, a sentence naming no figure, and a cause too short to place.
    for sentence in (
        "SG&A expenses rose, driven by new store openings and higher wages across regions.",
        "Results improved" + CAUSE,
        "SG&A expenses rose due to fixed costs.",
    ):
        assert misattributed_cause(sentence, [PAGE]) is None
    assert misattributed_cause("SG&A expenses rose" + CAUSE, []) is None


FIGURES = ["gross margin", "operating income", "SG&A expenses", "net income", "EPS"]
WORDS = st.sampled_from(
    "pricing volume channel freight commodity inflation currency headwinds productivity "
    "restructuring savings promotional investment wages logistics".split()
)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(FIGURES),
    st.sampled_from(FIGURES),
    st.lists(WORDS, min_size=4, max_size=8, unique=True),
)
def test_a_cause_belongs_to_the_figure_the_page_names(page_figure, draft_figure, words):
    cause = ", ".join(words)
    page = f"Filler text here. In 2022, {page_figure} decreased, driven by {cause}. More text."
    verdict = misattributed_cause(f"The {draft_figure} fell, driven by {cause}.", [page])
    assert (verdict is None) == (page_figure == draft_figure)


DRIVERS = "What drove 3M's gross margin in FY2022?"
# 3M's 10-K gives these causes to its segments' operating income margins.
MOVED = (
    "Gross margin decreased as a result of increased raw materials, logistics and outsourced "
    "hardgoods manufacturing costs along with manufacturing productivity headwinds {cite}."
)


def test_the_probe_loop_drops_a_moved_cause_and_records_it(searcher):
    def researcher(*, tool, first_query, first_skip, **_):
        hits = tool.slice_function(skip_first=first_skip)(first_query)
        page = next(h for h in hits if "hardgoods" in tool.retrieved[h["uid"]].text)
        return dspy.Prediction(answer_markdown=MOVED.format(cite=page["cite"]))

    def reviewer(**_):
        return ReviewVerdict(done=True)

    loop = ProbeLoop(researcher, reviewer, searcher, max_rounds=1, k=3)  # type: ignore[arg-type]
    probe = Probe(probe_title="The question", probe_question=DRIVERS)
    outcome = loop.run(DRIVERS, SliceRef(ticker="MMM", fy=2022, fq=4), probe, 1)
    (first,) = outcome.record["rounds"]
    assert first["misattributed_causes_dropped"] == 1
    assert "hardgoods" in first["draft"] and "hardgoods" not in first["verified_draft"]
    assert "hardgoods" not in outcome.answer.answer.body


@given(st.sampled_from(MEASURES))
def test_every_measure_named_is_mentioned_by_its_own_name(measure):
    # Each figure a question may name has the looser words a draft may answer it in.
    assert measures_named(measure) == {measure}
    assert mentions_measure(measure, f"The {measure} was $5 million.")


# McDonald's 10-K on its capital expenditures, wrapped as PyMuPDF prints it.
CAPEX_PAGE = (
    "Capital expenditures decreased $141 million or 7% in 2022 due to lower reinvestment\n"
    "in existing restaurants, primarily as a result of the sale of the Company's business\n"
    "in Russia and temporary restaurant closures in Ukraine."
)
RUSSIA = "due to closures in Russia and temporary restaurant closures in Ukraine."


def test_a_cause_of_a_fall_does_not_explain_a_figures_size():
    size = (
        "The company has significant capital expenditures in the form of restaurant "
        "development, which are primarily " + RUSSIA
    )
    assert misattributed_cause(size, [CAPEX_PAGE]) == (
        "the page gives these causes to a fall, not to the figure's size"
    )
    # the fall itself, or a sentence going on from the one that stated it, is the page's
    fall = "Capital expenditures decreased 7% in 2022, " + RUSSIA
    assert misattributed_cause(fall, [CAPEX_PAGE]) is None
    assert misattributed_cause("This was primarily " + RUSSIA, [CAPEX_PAGE]) is None
    # a page's cause of a rise may still be read as why a figure is large
    risen = CAPEX_PAGE.replace("decreased", "increased").replace("lower", "new")
    assert misattributed_cause(size, [risen]) is None


def test_a_page_sentence_runs_past_an_abbreviation_and_a_stop_before_lower_case():
    """Apple's tax-rate cause had been quoted up to "the impact to U.S."."""
    page = (
        "The rate was higher compared to 2030 due primarily to the impact to U.S. foreign\n"
        "tax credits under guidance of the U.S. Department of the Treasury. Liquidity "
        "and Capital Resources The Company believes; its cash is ample."
    )
    assert page_sentences(page) == [
        "The rate was higher compared to 2030 due primarily to the impact to U.S. foreign "
        "tax credits under guidance of the U.S. Department of the Treasury.",
        "Liquidity and Capital Resources The Company believes;",
        "its cash is ample.",
    ]


def test_a_cause_of_this_increase_belongs_to_the_figure_the_sentence_before_names():
    """PG&E's 10-K states its operating cash flow's change, then "This increase was
    partially due to …": a draft giving that cause to net income moved it."""
    page = (
        "During 2031, net cash provided by operating activities increased by $1.4 billion. "
        "This increase was partially due to higher base revenues and lower wildfire costs."
    )
    cause = " due to higher base revenues and lower wildfire costs."
    assert misattributed_cause("Net income increased" + cause, [page])
    assert misattributed_cause("Operating cash flow increased" + cause, [page]) is None
