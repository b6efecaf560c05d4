"""Code's yes/no on a figure with a shared benchmark, and the drafts that say the opposite."""

from __future__ import annotations

from itertools import pairwise

import dspy
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scripted_lm import ScriptedLM

from programs.inapplicable import inapplicable_verdict
from programs.research_program import ResearchProgram, ResearchSettings
from programs.verdicts import benchmark_verdict, change_verdict, opposes, presence_verdict

HEALTHY = "Does Acme have a reasonably healthy liquidity profile based on its quick ratio?"


@pytest.mark.parametrize(
    ("question", "title", "value", "text", "opening"),
    [
        (HEALTHY, "Quick ratio", 0.54, "0.54", "No: a quick ratio of 0.54 is below 1"),
        (HEALTHY, "Quick ratio", 1.3, "1.30", "Yes: a quick ratio of 1.30 is at or above 1"),
        ("Does Acme have positive working capital in FY2031?", "Working capital", 8.31e8,
         "$831 million", "Yes: a working capital of $831 million is positive"),
        ("Is Acme's current ratio strong enough to meet its obligations?", "Current ratio",
         0.8, "0.80", "No: a current ratio of 0.80 is below 1"),
        ("Is Acme's interest coverage healthy in FY2019?", "Interest coverage", -10.81,
         "-10.81", "No: an interest coverage of -10.81 is below 1, the usual benchmark for "
         "whether operating income covers interest expense"),
    ],
)  # fmt: skip
def test_a_yes_no_question_on_a_benchmarked_figure_gets_codes_verdict(
    question, title, value, text, opening
):
    assert benchmark_verdict(question, title, value, text).startswith(opening)


@pytest.mark.parametrize(
    ("question", "title"),
    [
        ("What was Acme's quick ratio in FY2031?", "Quick ratio"),  # no yes/no asked
        ("Is Acme's quick ratio below 1?", "Quick ratio"),  # asked the other way round
        ("Does Acme have a healthy operating margin?", "Operating margin"),  # no benchmark
        ("Does Acme have healthy liquidity?", "Quick ratio"),  # the figure is not named
    ],
)
def test_no_verdict_where_the_question_or_the_figure_does_not_call_for_one(question, title):
    assert benchmark_verdict(question, title, 0.5, "0.50") is None


@given(st.floats(min_value=-50, max_value=50, allow_nan=False))
def test_interest_coverage_gets_a_verdict_only_below_one(value):
    """How much coverage is healthy depends on the industry; below 1 it is not, anywhere."""
    text = f"{value:.2f}"
    verdict = benchmark_verdict("Is Acme's interest coverage healthy?", "Interest coverage",
                                value, text)  # fmt: skip
    assert (verdict is not None) == (float(text) < 1.0)
    assert verdict is None or verdict.startswith("No: an interest coverage of")


@given(st.floats(min_value=0, max_value=10, allow_nan=False))
def test_the_verdict_is_yes_exactly_when_the_ratio_as_written_reaches_the_benchmark(value):
    text = f"{value:.2f}"
    verdict = benchmark_verdict(HEALTHY, "Quick ratio", value, text)
    assert verdict.startswith("Yes") == (float(text) >= 1.0)
    assert f"of {text} is" in verdict


def test_only_the_other_yes_or_no_opposes_a_verdict():
    verdict = "No: a quick ratio of 0.54 is below 1, the usual benchmark"
    assert opposes("Yes, Acme has a healthy liquidity profile.", verdict)
    assert not opposes("No, it does not.", verdict)
    assert not opposes("Acme's quick ratio is low.", verdict)


def test_a_yes_beside_a_metric_that_does_not_apply_opposes_it():
    """Code's "does not apply" is a no: a draft's "Yes, … is a meaningful metric" beside it
    is a contradiction the report must not print."""
    verdict = inapplicable_verdict(
        "Inventory turnover", "ACME", "its statements carry no inventory"
    )
    assert opposes("Yes, inventory turnover is a meaningful metric for Acme.", verdict)
    assert not opposes("No, Acme carries no inventory.", verdict)
    assert not opposes("Acme sells subscriptions.", verdict)


#: A health question that asks more than code's verdict settles ("what drives it"), so the
#: question is researched beside the figure.
HEALTH_AND_DRIVERS = (
    "Does 3M have a reasonably healthy liquidity profile based on its quick ratio for FY2022? "
    "What drives it?"
)


def test_a_health_question_the_benchmark_settles_is_the_figure_alone(searcher):
    question = (
        "Does 3M have a reasonably healthy liquidity profile based on its quick ratio for FY2022?"
    )
    lm = ScriptedLM(claim="Yes, 3M has a reasonably healthy liquidity profile in FY2022")
    program = ResearchProgram(searcher, settings=ResearchSettings(max_probes=1, max_rounds=1))
    with dspy.context(lm=lm):
        pred = program(question=question)
    assert pred.report.startswith("## Answer\n\nNo: a quick ratio of 0.88 in FY2022 is below 1")
    assert pred.report.count("0.88") == 1  # said once, with its period
    assert len(pred.record["slices"][0]["probes"]) == 1  # no researched probe
    assert "†" not in pred.report


def test_a_researched_yes_beside_a_figure_below_its_benchmark_never_reaches_the_report(searcher):
    question = HEALTH_AND_DRIVERS
    lm = ScriptedLM(claim="Yes, 3M has a reasonably healthy liquidity profile in FY2022")
    program = ResearchProgram(searcher, settings=ResearchSettings(max_probes=1, max_rounds=1))
    with dspy.context(lm=lm):
        pred = program(question=question)
    assert pred.report.startswith("## Answer\n\nNo: a quick ratio of 0.88 in FY2022 is below 1")
    assert "Yes, 3M has" not in pred.report
    researched = pred.record["slices"][0]["probes"][1]["rounds"][0]
    assert "Yes, 3M has" in researched["draft"]  # the model wrote it; code removed it
    assert researched["contradicting_figures_dropped"] >= 1


def test_a_figure_probe_that_is_the_whole_research_says_its_verdict_once(searcher):
    question = "Does 3M have positive working capital based on FY2022 data?"
    program = ResearchProgram(searcher, settings=ResearchSettings(max_probes=1, max_rounds=1))
    with dspy.context(lm=ScriptedLM()):
        pred = program(question=question)
    answer = pred.report.split("\n\n**Sources**")[0]
    assert answer.count("a working capital of") == 1, answer
    assert "Yes: a working capital of $" in answer


def _quick_ratio_figure():
    from signatures.synthesiser import Figure

    return Figure(
        title="Quick ratio", period="FY2022", value=0.54, unit="ratio", text="0.54",
        verdict="No: a quick ratio of 0.54 is below 1, the usual benchmark",
    )  # fmt: skip


@pytest.mark.parametrize("opening", ["Yes, Acme has a healthy liquidity profile.", "Yes¹."])
def test_a_draft_opening_with_the_other_verdict_loses_all_its_prose(opening):
    """It argues for that verdict throughout: "This indicates a reasonably healthy liquidity
    profile", three cited sentences later, says "yes" again without the word."""
    from citations.markup import CitedAnswer
    from programs.figure_check import drop_contradicting_in_slice

    answer = CitedAnswer(
        body=(
            f"{opening} The quick ratio compares quick assets with current liabilities¹. "
            "Current liabilities were $50 billion¹. This indicates that Acme has a reasonably "
            "healthy liquidity profile."
        )
    )
    kept, removed = drop_contradicting_in_slice(answer, [_quick_ratio_figure()])
    assert removed == 4 and not kept.body.strip()


def test_a_later_sentence_with_the_other_verdict_goes_with_its_followers_only():
    from citations.markup import CitedAnswer
    from programs.figure_check import drop_contradicting_in_slice

    answer = CitedAnswer(
        body=(
            "Current liabilities were $50 billion¹. Yes, Acme has a healthy liquidity profile. "
            "This indicates that its cash covers its obligations. This is due to debt¹."
        )
    )
    kept, removed = drop_contradicting_in_slice(answer, [_quick_ratio_figure()])
    assert removed == 1
    assert kept.body == "Current liabilities were $50 billion¹. This is due to debt¹."


def test_one_researched_probe_beside_a_figure_is_the_answer_with_no_summary_or_composer_call(
    searcher,
):
    """Code's verdict and figure first, then the researched answer, each sentence still
    citing the pages its own probe cited, with no model re-telling them."""
    from citations import parse_cited_answer, split_sentences

    question = HEALTH_AND_DRIVERS
    lm = ScriptedLM()
    program = ResearchProgram(searcher, settings=ResearchSettings(max_probes=1, max_rounds=1))
    with dspy.context(lm=lm):
        pred = program(question=question)
    assert lm.calls.get("synthesiser", 0) == 0 and lm.calls.get("composer", 0) == 0
    figure_probe, researched = pred.record["slices"][0]["probes"]
    report = parse_cited_answer(pred.report)
    uid_of = {f.number: f.citation.uid for f in report.references.footnotes}
    answer = pred.report.split("**Sources**")[0]
    sentences = [s for s in split_sentences(answer) if s.markers]
    assert sentences[0].text.startswith("No: a quick ratio of 0.88")
    for sentence in sentences:
        cited = {uid_of[m] for m in sentence.markers}
        own = figure_probe["citations"] if "quick ratio" in sentence.text.lower() else None
        assert cited <= set(own or researched["citations"]), sentence.text


@pytest.mark.parametrize(
    ("question", "formula", "title", "value", "text", "verdict"),
    [
        ("Has Acme paid dividends to common shareholders in FY2031?", "abs(dividends_paid)",
         "Dividends paid", 4.05e6, "$4.05 million", "Yes: dividends paid came to $4.05 million"),
        ("Does Acme carry any long-term debt as of FY2031?", "long_term_debt",
         "Long-term debt", 0.0, "$0 million", "No: long-term debt came to $0 million"),
        ("Did 3M spend anything on capital expenditure in Q2 FY31?", "abs(capex)",
         "Capital expenditure", 1e6, "$1 million", "Yes: capital expenditure came to $1 million"),
        # a span of time is no threshold
        ("Does Acme have any debt maturing within the next 12 months as of FY2031?",
         "short_term_debt", "Short-term debt", 2e6, "$2 million",
         "Yes: short-term debt came to $2 million"),
    ],
)  # fmt: skip
def test_a_yes_no_question_on_whether_an_amount_exists_is_answered_by_the_figure(
    question, formula, title, value, text, verdict
):
    assert presence_verdict(question, formula, title, value, text) == verdict


@pytest.mark.parametrize(
    ("question", "formula"),
    [
        ("What dividends did Acme pay in FY2031?", "abs(dividends_paid)"),  # no yes/no asked
        ("Did Acme pay more dividends than in FY2030?", "abs(dividends_paid)"),  # comparison
        ("Did Acme pay dividends above $1 per share?", "abs(dividends_paid)"),  # threshold
        ("Has Acme increased its debt?", "total_debt"),  # a direction: change_verdict's
        ("Does Acme have a healthy level of debt?", "total_debt"),  # health
        ("Did Acme have net income in FY2031?", "net_income"),  # a signed figure
    ],
)
def test_no_presence_verdict_where_the_question_asks_more_or_the_figure_is_signed(
    question, formula
):
    assert presence_verdict(question, formula, "Total debt", 1.0, "$1 million") is None


@given(
    st.sampled_from(["more", "less", "higher", "at least", "above", "compared with"]),
    st.sampled_from(["abs(dividends_paid)", "total_debt", "abs(capex)", "abs(buybacks)"]),
)
def test_a_comparison_or_threshold_never_gets_a_presence_verdict(word, formula):
    question = f"Did Acme pay {word} dividends in FY2031?"
    assert presence_verdict(question, formula, "Dividends paid", 1.0, "$1 million") is None
    question = f"Does Acme have debt of $2,{word[:1]}00 million?".replace(word[:1], "5")
    assert presence_verdict(question, formula, "Total debt", 1.0, "$1 million") is None


@pytest.mark.parametrize(
    "period", ["FY2031", "fiscal 2031", "Q2 FY31", "2Q31", "Q22031", "H1 2031", "June 30, 2031"]
)
def test_a_period_in_any_form_is_no_threshold(period):
    question = f"Did Acme pay dividends in {period}?"
    assert presence_verdict(question, "abs(dividends_paid)", "Dividends paid", 1e6, "$1 million")


@pytest.mark.parametrize(
    ("question", "margins", "opening"),
    [
        (
            "Are AAA's gross margins historically consistent (not fluctuating more than "
            "roughly 2% each year)?",
            [38.5, 39.0, 39.4],
            "Yes: the gross margin moved by at most 0.5 percentage points a year",
        ),
        (
            "Are AAA's gross margins historically consistent (not fluctuating more than "
            "roughly 2% each year)?",
            [38.5, 42.0, 41.4],
            "No: the gross margin moved by 3.5 percentage points from FY2020 to FY2021",
        ),
        (
            "Did AAA's gross margin fluctuate by more than 2% a year?",
            [38.5, 42.0, 41.4],
            "Yes: the gross margin moved by 3.5 percentage points from FY2020 to FY2021",
        ),
    ],
)
def test_a_margin_held_within_the_band_asked_is_settled_by_its_yearly_moves(
    question, margins, opening
):
    from programs.series_verdicts import steadiness_verdict

    points = [(f"FY{2020 + i}", m, f"{m:.1f}%") for i, m in enumerate(margins)]
    verdict = steadiness_verdict(question, "Gross margin", points)
    assert verdict is not None and verdict.startswith(opening)
    assert verdict.endswith(
        ", ".join(f"{m:.1f}% in FY{2020 + i}" for i, m in enumerate(margins)) + ")"
    )


@pytest.mark.parametrize(
    "question",
    [
        "Are AAA's gross margins historically consistent?",  # no band: the analyst's call
        "What was AAA's gross margin, within 2% of its peers?",  # no yes/no, no steadiness
    ],
)
def test_no_steadiness_verdict_without_a_band_or_a_yes_no_question(question):
    from programs.series_verdicts import steadiness_verdict

    points = [("FY2020", 38.5, "38.5%"), ("FY2021", 39.0, "39.0%")]
    assert steadiness_verdict(question, "Gross margin", points) is None


@pytest.mark.parametrize(
    ("question", "value", "opening"),
    [
        ("Was Acme profitable in FY2031?", 20_899e6, "Yes: net income"),
        ("Was Acme profitable in FY2031?", -88e6, "No: net income"),
        ("Did Acme turn a profit in FY2031?", 5e6, "Yes: net income"),
        # PG&E's "return to a profit" after a loss had drawn a draft on its tax carryforwards
        ("Did Acme return to a profit in FY2031 after its FY2030 loss?", -88e6, "No: net income"),
        ("Did Acme swing back to profitability in FY2031?", 5e6, "Yes: net income"),
        ("Was Acme unprofitable in FY2031?", -88e6, "Yes: net income"),
        ("Was Acme loss-making in FY2031?", 5e6, "No: net income"),
        ("Was Acme profitable or loss-making in FY2031?", -88e6, "Loss-making: net income"),
        ("Based on FY2031 data, was Acme profitable?", 5e6, "Yes: net income"),
        ("Did Acme report a net loss in Q1 FY2031?", -2_758e6, "Yes: net income"),
        ("Did Acme post a loss in FY2031?", 5e6, "No: net income"),
        # PG&E's FY2021 net loss had been stated with no answer to "turn positive?"
        ("Did Acme's net income turn positive in FY2031?", -88e6, "No: net income"),
        ("Did Acme's net income turn negative in FY2031?", -88e6, "Yes: net income"),
    ],
)
def test_whether_a_company_was_profitable_is_net_incomes_sign(question, value, opening):
    verdict = presence_verdict(
        question, "net_income_attributable", "Net income attributable to shareholders", value, "x"
    )
    assert verdict is not None and verdict.startswith(opening)


@pytest.mark.parametrize(
    ("question", "formula"),
    [
        ("How profitable was Acme in FY2031?", "net_income_attributable"),  # not yes/no
        ("Was Acme profitable in FY2031?", "revenue"),  # another figure
        ("Did Acme's net income rise in FY2031?", "net_income_attributable"),  # a direction
    ],
)
def test_no_profit_verdict_where_the_question_or_figure_does_not_ask_it(question, formula):
    assert presence_verdict(question, formula, "Net income", 5e6, "x") is None


_EACH_YEAR = "Did AAA's cash from operations grow in each year from FY2020 through FY{last}?"


@given(st.lists(st.integers(min_value=-50, max_value=50), min_size=3, max_size=5))
def test_growth_asked_of_each_year_is_yes_only_when_every_step_rose(values):
    from programs.series_verdicts import stepwise_verdict
    from programs.verdicts import Point

    points = [Point(f"${v} million", f"FY{2020 + i}", v) for i, v in enumerate(values)]
    question = _EACH_YEAR.format(last=2019 + len(values))
    verdict = stepwise_verdict(question, "Cash from operations", points)
    assert verdict is not None
    rose = [b < a for b, a in pairwise(values)]
    assert verdict.startswith("Yes: the cash from operations rose in each year") == all(rose)
    if not all(rose):
        at = rose.index(False)  # the first step that did not rise is named
        assert verdict.startswith("No: ")
        assert f"in FY{2020 + at} to ${values[at + 1]} million in FY{2021 + at}" in verdict or (
            f"was ${values[at + 1]} million in both FY{2020 + at} and FY{2021 + at}" in verdict
        )
    assert verdict.endswith(", ".join(f"{p.text} in {p.period}" for p in points) + ")")


@pytest.mark.parametrize(
    ("question", "values"),
    [
        ("Did AAA's cash from operations grow from FY2020 to FY2022?", [1, 3, 2]),  # the ends
        ("Did AAA's cash from operations grow in each year from FY2021 to FY2022?", [1, 2]),
        ("Did AAA's cash from operations rise or fall in each year?", [1, 3, 2]),  # both ways
        ("How did AAA's cash from operations change in each year?", [1, 3, 2]),  # no yes/no
    ],
)
def test_no_stepwise_verdict_unless_a_yes_no_direction_is_asked_of_each_step(question, values):
    from programs.series_verdicts import stepwise_verdict
    from programs.verdicts import Point

    points = [Point(str(v), f"FY{2020 + i}", v) for i, v in enumerate(values)]
    assert stepwise_verdict(question, "Cash from operations", points) is None


@pytest.mark.parametrize(
    "question",
    [
        "Did AAA's R&D expense grow faster than its revenue in FY2022?",
        "Has AAA's revenue outpaced its costs in FY2022?",
        "Did AAA's capex rise more quickly than depreciation in FY2022?",
    ],
)
def test_a_direction_set_against_another_figure_gets_no_verdict_from_one(question):
    from programs.verdicts import Point, trend_verdict

    before, after = Point("$1 million", "FY2021", 1.0), Point("$2 million", "FY2022", 2.0)
    for title in ("R&D", "Revenue", "Capital expenditure"):
        assert trend_verdict(question, title, before, after) is None


@pytest.mark.parametrize(
    ("verdict", "value", "said"),
    [
        (  # the figure mid-sentence: dated where it stands
            "No: a quick ratio of 0.54 is below 1, the usual benchmark",
            "0.54",
            "No: a quick ratio of 0.54 in FY2022 is below 1, the usual benchmark",
        ),
        (  # a share keeps what it is a share of
            "Yes: capital-intensive, with capital expenditure of 16.9% of revenue, over a tenth",
            "16.9%",
            "Yes: capital-intensive, with capital expenditure of 16.9% of revenue in FY2022, "
            "over a tenth",
        ),
        (  # at the end, as before
            "Yes: dividends paid came to $489 million",
            "$489 million",
            "Yes: dividends paid came to $489 million in FY2022",
        ),
        (  # a sign's figure
            "Yes: retained earnings stood at -$7,542 million, below zero",
            "-$7,542 million",
            "Yes: retained earnings stood at -$7,542 million in FY2022, below zero",
        ),
        ("No: a quick ratio of 10.54 is above 1", "0.54", None),  # another number's digits
        ("Yes: a quick ratio of 0.545 is low", "0.54", None),
        ("Yes: margin widened", "12.0%", None),  # no figure stated: its sentence follows
    ],
)
def test_a_verdict_dates_the_figure_it_states(verdict, value, said):
    """Verizon's "No: a quick ratio of 0.54 is below 1 …¹. Quick ratio in FY2022 was 0.54¹."
    said the figure twice; a verdict that states it now says it once, with its period."""
    from programs.figure_verdicts import verdict_with_period

    assert verdict_with_period(verdict, value, "in FY2022") == said


@pytest.mark.parametrize(
    ("question", "value", "opening"),
    [
        ("Is Acme's revenue growth accelerating in FY2031?", 0.129, "Yes"),
        ("Is Acme's revenue growth accelerating in FY2031?", -0.02, "No"),
        ("Is Acme's revenue growth decelerating in FY2031?", 0.129, "No"),
        ("Did Acme's revenue growth slow down in FY2031?", -0.02, "Yes"),
    ],
)
def test_growth_speeding_up_or_slowing_down_is_the_sign_of_its_change(question, value, opening):
    """ "Growth" reads as a rise; "decelerating" and "slow down" ask the other way."""
    verdict = change_verdict(question, "Change in revenue growth", value, "2.0 percentage points")
    assert verdict is not None and verdict.startswith(f"{opening}: the revenue growth")


def test_a_sentence_saying_in_words_the_other_way_whether_it_covered_opposes_the_verdict():
    """Intel's free cash flow: code's "Yes: … covered dividends paid of $5,568 million"
    beside the draft's "This amount was not enough to cover its dividends"."""
    covered = "Yes: free cash flow of $21,125 million covered dividends paid of $5,568 million"
    short = "No: cash from operations of $15,433 million did not cover capital expenditure"
    not_enough = "This amount was not enough to cover its dividends."
    enough = "Free cash flow comfortably covered the dividends."
    assert opposes(not_enough, covered) and not opposes(not_enough, short)
    assert opposes(enough, short) and not opposes(enough, covered)
    assert not opposes("Intel paid dividends of $5.6 billion.", covered)  # says neither
