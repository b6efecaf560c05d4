"""A trend question's answer states every period's figure, the change and its direction,
computed by code and cited to both periods' statement pages."""

from __future__ import annotations

import re

import dspy
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scripted_lm import ScriptedLM

from citations.markup import parse_cited_answer
from domain.cells import SliceRef
from programs.figure_rankings import comparison_sentence
from programs.figure_table import change_sentence, series_lines
from programs.research_program import ResearchProgram
from programs.verdicts import BETTER_WHEN, Point, change_verdict, trend_verdict
from signatures.synthesiser import Figure, ProbeAnswer, SliceReport

_CHANGE = (
    r"from \$([\d,]+) million in FY2021 to \$1,749 million in FY2022, (up|down) "
    r"\$([\d,]+) million \(([+-][\d.]+)%\)([¹²³⁴⁵⁶⁷⁸⁹⁰˒]+)\."
)


@pytest.mark.parametrize(
    ("question", "opening"),
    [
        # No yes/no: code's change line states both periods and the change.
        ("How did 3M's capital expenditure change from FY2021 to FY2022?",
         "MMM capital expenditure went "),
        # A yes/no on the trend: code's verdict opens with both periods and the change, and
        # no change line repeats them.
        ("Is 3M's capital expenditure growing as of FY2022?",
         "Yes: the capital expenditure rose "),
    ],
)  # fmt: skip
def test_the_trend_answer_carries_both_periods_and_the_change_once(searcher, question, opening):
    program = ResearchProgram(searcher)
    with dspy.context(lm=ScriptedLM()):
        pred = program(question=question)
    assert [s.label for s in pred.plan.slices] == ["MMM FY2021 Q4", "MMM FY2022 Q4"]
    answer = pred.report.split("## Comparison")[0]
    found = re.search(re.escape(opening) + _CHANGE, answer)
    assert found, answer
    assert len(re.findall(_CHANGE, answer)) == 1  # stated once, and no one-year line again
    assert " in FY2021 was " not in answer and " in FY2022 was " not in answer
    before = int(found[1].replace(",", ""))
    assert found[2] == ("up" if before < 1749 else "down")
    assert int(found[3].replace(",", "")) == abs(1749 - before)
    assert len(found[5].split("˒")) == 2  # cited to both years' statement pages
    sources = pred.report.split("Sources")[-1]
    assert "MMM 10-K FY2021" in sources and "MMM 10-K FY2022" in sources


def _figure(period: str, value: float, text: str) -> Figure:
    return Figure(title="Operating margin", period=period, value=value, unit="%", text=text)


def test_a_percentage_changes_in_percentage_points_and_a_flat_figure_is_unchanged():
    # The calculator keeps a margin as a fraction: 0.2 is printed "20.0%".
    before, after = _figure("FY2021", 0.2, "20.0%"), _figure("FY2022", 0.185, "18.5%")
    assert change_sentence("ACME", before, after, "¹²") == (
        "ACME operating margin went from 20.0% in FY2021 to 18.5% in FY2022, down 1.5 "
        "percentage points¹²."
    )
    assert "unchanged¹." in change_sentence(
        "ACME", before, before.model_copy(update={"period": "FY2022"}), "¹"
    )


def test_a_change_from_or_to_a_loss_has_no_percentage():
    loss = _figure("FY2021", -88e6, "-$88.00 million")
    profit = _figure("FY2022", 1_814e6, "$1,814 million")
    assert change_sentence("ACME", loss, profit, "¹²").endswith("up $1,902 million¹².")
    assert "%" not in change_sentence("ACME", profit, loss, "¹²")  # to a loss
    rise = change_sentence("ACME", profit, _figure("FY2023", 2_000e6, "$2,000 million"), "¹")
    assert rise.endswith("up $186 million (+10.3%)¹.")


def test_two_companies_margins_differ_by_points_as_printed():
    first = ("MMM", _figure("FY2022", 0.19105, "19.1%"))
    second = ("PEP", _figure("FY2022", 0.13153, "13.2%"))
    assert comparison_sentence(first, second, "¹˒²") == (
        "MMM operating margin in FY2022 (19.1%) was 5.9 percentage points higher than PEP's "
        "(13.2%)¹˒²."
    )


def test_a_two_company_comparison_states_the_gap_computed_by_code(searcher):
    program = ResearchProgram(searcher)
    with dspy.context(lm=ScriptedLM()):
        pred = program(
            question="How did 3M's capital expenditure compare with PepsiCo's in FY2022?"
        )
    answer = pred.report.split("## Comparison")[0]
    assert (
        "PEP capital expenditure in FY2022 ($5,207 million) was $3,458 million higher than "
        "MMM's ($1,749 million)"
    ) in answer


def test_which_of_two_companies_opens_with_the_gap(searcher):
    """ "Which had the higher operating margin in FY2022, eBay or Oracle?" had each
    company's figure first and the gap that answers it last."""
    program = ResearchProgram(searcher)
    with dspy.context(lm=ScriptedLM()):
        pred = program(question="Which spent more on capital expenditure in FY2022, 3M or PepsiCo?")
    answer = pred.report.split("## Answer")[1].split("## Comparison")[0].strip()
    assert answer.startswith(
        "PEP capital expenditure in FY2022 ($5,207 million) was $3,458 million higher than "
        "MMM's ($1,749 million)"
    ), answer


def _p(period: str, value: float, text: str) -> Point:
    return Point(text, period, value)


@pytest.mark.parametrize(
    ("question", "title", "values", "opening"),
    [
        ("Has Acme's quick ratio improved or declined between FY2031 and FY2030?",
         "Quick ratio", (0.53, 0.57), "Improved: the quick ratio rose from 0.53 in FY2030"),
        ("Does Acme have an improving gross margin profile as of FY2031?",
         "Gross margin", (0.2, 0.18), "No: the gross margin fell from 0.2 in FY2030"),
        ("Has Acme's days sales outstanding improved in FY2031?",
         "Days sales outstanding", (50, 45), "Yes: the days sales outstanding fell"),
        ("Did Acme's capital expenditure increase in FY2031?",
         "Capital expenditure", (10, 12), "Yes: the capital expenditure rose"),
        ("Did Acme's capital expenditure decline in FY2031?",
         "Capital expenditure", (10, 12), "No: the capital expenditure rose"),
        ("Did Acme's revenue increase or decrease in FY2031?",
         "Revenue", (10, 9), "Decreased: the revenue fell"),
        ("Did Acme's revenue grow in FY2031?",
         "Revenue", (10, 10), "No: the revenue was 10 in both FY2030 and FY2031"),
        # "Total" left out, as people leave it: "its debt" is total debt.
        ("Has Acme increased its debt on balance sheet between FY2031 and FY2030?",
         "Total debt", (50, 47), "No: the total debt fell from 50 in FY2030 to 47"),
        ("Did Acme's gross margins improve in FY2031?",
         "Gross margin", (0.2, 0.3), "Yes: the gross margin rose"),
        # A plural in -ies names its singular in -y.
        ("Did Acme's inventories increase in FY2031, and why?",
         "Inventory", (84, 85), "Yes: the inventory rose from 84 in FY2030 to 85"),
        # whose figure it is left out, as people leave it: "its net income"
        ("Did Acme's net income decline in FY2031 Q3 compared to FY2030 Q3?",
         "Net income attributable to shareholders", (19442, 19881),
         "No: the net income attributable to shareholders rose from 19442 in FY2030"),
        # a lead-in clause before the yes/no clause
        ("Looking at the income statement, did Acme's operating margin in Q2 of 2031 "
         "decrease compared to the same period in 2030?",
         "Operating margin", (21.7, 20.4), "Yes: the operating margin fell from 21.7"),
        ("Based on FY2031 data, has Acme's quick ratio improved?",
         "Quick ratio", (0.9, 1.1), "Yes: the quick ratio rose"),
        # the figure named in words: net income as a percent of revenue is the net margin
        ("Did Acme's net income as a percent of revenue increase in Q2 of FY2031 compared "
         "to Q2 of FY2030?", "Net margin", (-5.0, 14.1), "Yes: the net margin rose from -5"),
        ("Did Acme's operating income as a % of sales fall in FY2031?",
         "Operating margin", (10, 12), "No: the operating margin rose"),
        # an acronym keeps its capitals
        ("Did Acme's R&D increase in FY2031?", "R&D", (10, 12), "Yes: the R&D rose"),
        # a profit is better higher, from a loss too (PG&E's -$88 million to $1,814 million)
        ("Did Acme's net income improve in FY2031 compared to FY2030, and why?",
         "Net income attributable to shareholders", (-88, 1814),
         "Yes: the net income attributable to shareholders rose from -88 in FY2030"),
        ("Has Acme's revenue improved?", "Revenue", (10, 9), "No: the revenue fell"),
        # leverage is better lower: eBay's debt-to-equity rose from 0.93 to 1.72
        ("Has Acme's debt-to-equity ratio improved between FY2030 and FY2031?",
         "Debt-to-equity", (0.93, 1.72), "No: the debt-to-equity rose from 0.93"),
        ("Has Acme's debt to EBITDA improved or worsened in FY2031?",
         "Debt to EBITDA", (3.2, 2.9), "Improved: the debt to EBITDA fell from 3.2"),
        # the figure asked, then a yes/no clause on its direction
        ("What was Acme's operating margin in Q2 of FY2031, and did it improve year over "
         "year?", "Operating margin", (29.9, 47.8), "Yes: the operating margin rose"),
    ],
)  # fmt: skip
def test_a_yes_no_trend_question_gets_codes_direct_answer(question, title, values, opening):
    before, after = values
    verdict = trend_verdict(
        question, title, _p("FY2030", before, f"{before:g}"), _p("FY2031", after, f"{after:g}")
    )
    assert verdict is not None and verdict.startswith(opening), verdict


def test_a_financial_companys_margin_rising_is_a_fact_but_improving_is_not_read():
    points = _p("FY2030", -5.0, "-5.0%"), _p("FY2031", 14.1, "14.1%")
    rose = "Did Acme's net margin increase in FY2031?"
    assert trend_verdict(rose, "Net margin", *points, sector="Financials") == (
        "Yes: the net margin rose from -5.0% in FY2030 to 14.1% in FY2031"
    )
    improving = "Does Acme have an improving net margin profile as of FY2031?"
    assert trend_verdict(improving, "Net margin", *points, sector="Financials") is None


@pytest.mark.parametrize(
    ("question", "title", "sector"),
    [
        # Capex is read either way: whether more is better is the analyst's judgement.
        ("Is Acme's capital expenditure improving?", "Capital expenditure", ""),
        # A bank's margins are not read: that judgement stays the model's.
        ("Does Acme have an improving operating margin profile?", "Operating margin",
         "Financials"),
        ("Has Acme's quick ratio improved?", "Current ratio", ""),  # another figure
        ("What drove the change in Acme's gross margin?", "Gross margin", ""),  # not yes/no
        ("Is Acme's gross margin above 40%?", "Gross margin", ""),  # no direction asked
        # a question word opens the first clause: no yes/no clause after the lead-in
        ("In FY2031, which of Acme's margins rose?", "Gross margin", ""),
        ("Did Acme's net income as a percent of revenue rise?", "Operating margin", ""),
    ],
)  # fmt: skip
def test_no_trend_verdict_where_the_question_or_the_figure_does_not_call_for_one(
    question, title, sector
):
    points = _p("FY2030", 1.0, "1.0"), _p("FY2031", 2.0, "2.0")
    assert trend_verdict(question, title, *points, sector=sector) is None


@given(
    title=st.sampled_from(sorted(t for t, way in BETTER_WHEN.items() if way == "higher")),
    before=st.floats(min_value=-1e9, max_value=1e9, allow_nan=False),
    after=st.floats(min_value=-1e9, max_value=1e9, allow_nan=False),
)
def test_improving_is_yes_exactly_when_a_higher_is_better_figure_rose(title, before, after):
    question = f"Is Acme's {title} improving as of FY2031?"
    verdict = trend_verdict(question, title, _p("FY2030", before, "a"), _p("FY2031", after, "b"))
    assert verdict is not None
    assert verdict.startswith("Yes") == (after > before)


def test_a_trend_question_opens_with_codes_answer_cited_to_both_years(searcher):
    program = ResearchProgram(searcher)
    with dspy.context(lm=ScriptedLM()):
        pred = program(question="Has 3M's quick ratio improved as of FY2022?")
    assert [s.label for s in pred.plan.slices] == ["MMM FY2021 Q4", "MMM FY2022 Q4"]
    answer = pred.report.split("## Answer")[-1].strip()
    found = re.match(
        r"(Yes|No): the quick ratio (rose|fell) from ([\d.]+) in FY2021 to ([\d.]+) in FY2022, "
        r"(up|down) ([\d.]+) \(([+-][\d.]+)%\)([¹²³⁴⁵⁶⁷⁸⁹⁰˒]+)\.",
        answer,
    )
    assert found, answer
    rose = float(found[4]) > float(found[3])
    assert (found[1], found[2], found[5]) == (
        ("Yes", "rose", "up") if rose else ("No", "fell", "down")
    )
    said = answer.split("## Comparison")[0]
    assert said.count(found[3]) == said.count(found[4]) == 1  # each figure stated once
    assert len(set(found[8].split("˒"))) >= 2  # both years' balance sheets


def test_an_increase_question_is_answered_with_both_years_and_the_change(searcher):
    # "increase in FY2022" asks how the item moved in that year: each year's figure (the
    # planner adds FY2021), the change and its direction, all code's.
    program = ResearchProgram(searcher)
    with dspy.context(lm=ScriptedLM()):
        pred = program(question="Did 3M's capital expenditure increase in FY2022?")
    assert [s.label for s in pred.plan.slices] == ["MMM FY2021 Q4", "MMM FY2022 Q4"]
    answer = pred.report.split("## Answer")[-1].strip()
    found = re.match(
        r"(Yes|No): the capital expenditure (rose|fell) from \$([\d,]+) million in FY2021 to "
        r"\$([\d,]+) million in FY2022, (up|down) \$([\d,]+) million",
        answer,
    )
    assert found, answer
    before, after, change = (int(found[i].replace(",", "")) for i in (3, 4, 6))
    assert abs(after - before) == change
    assert (found[1], found[2], found[5]) == (
        ("Yes", "rose", "up") if after > before else ("No", "fell", "down")
    )


def test_a_computed_change_answers_a_direction_question():
    question = "Did Acme's capital expenditure decrease in FY2031?"
    assert change_verdict(question, "Change in capital expenditure", -5e6, "-$5 million") == (
        "Yes: the capital expenditure fell by $5 million"
    )
    assert change_verdict(question, "Capital expenditure", -5e6, "-$5 million") is None


def test_every_figure_read_one_way_is_a_calculator_metric():
    """A title the calculator never gives would silently never get a verdict."""
    from calculator.concepts import CONCEPTS
    from calculator.definitions import METRICS

    titles = {m.title.lower() for m in METRICS} | {c.title.lower() for c in CONCEPTS.values()}
    assert set(BETTER_WHEN) <= titles


def _deficit_year_slices():
    """Oracle-like: FY2022's equity was a deficit, so its debt-to-equity does not apply."""
    from domain.cells import SliceRef
    from signatures.synthesiser import ProbeAnswer, SliceReport

    equity = Figure(
        title="Shareholders' equity", period="FY2022", value=-6.22e9, unit="USD",
        text="-$6,220 million", uids=["a1"],
        verdict="Debt-to-equity does not apply to ACME: its shareholders' equity was negative",
    )  # fmt: skip
    ratio = Figure(
        title="Debt-to-equity", period="FY2023", value=84.331, unit="ratio", text="84.33",
        uids=["b2"],
    )  # fmt: skip

    def report(fy: int, title: str, figure: Figure) -> SliceReport:
        probe = ProbeAnswer(index=1, probe_title=title, probe_question="?", figures=[figure])
        return SliceReport(slice=SliceRef(ticker="ACME", fy=fy, fq=4), probe_answers=[probe])

    return [
        report(2022, "Debt-to-equity (does not apply)", equity),
        report(2023, "Debt-to-equity (from the statements)", ratio),
    ]


def test_a_trend_across_a_period_where_the_figure_does_not_apply_is_not_drawn():
    from programs.figure_table import incomparable_verdicts, trend_verdicts

    slices, numbers = _deficit_year_slices(), {"a1": 1, "b2": 2}
    asked = "Is Acme's debt-to-equity ratio higher in FY2023 than in FY2022?"
    assert trend_verdicts(asked, slices, numbers) == []
    assert incomparable_verdicts(asked, slices, numbers) == [
        "Not comparable: debt-to-equity does not apply in FY2022; it was 84.33 in FY2023²."
    ]
    # Asked no direction, or of another figure, code says nothing of a trend.
    for question in (
        "What was Acme's debt-to-equity ratio in FY2023?",
        "Is Acme's current ratio higher in FY2023 than in FY2022?",
    ):
        assert incomparable_verdicts(question, slices, numbers) == []


def test_no_yes_or_no_stands_beside_not_comparable():
    from programs.composer import _without_opposing

    body = "Yes, the debt-to-equity ratio rose in FY2023¹. Total debt was $90,481 million¹."
    assert _without_opposing(body, [], incomparable=True).strip() == (
        "Total debt was $90,481 million¹."
    )
    assert _without_opposing(body, []) == body


@pytest.mark.parametrize(
    ("question", "opening"),
    [
        ("Did 3M's capital expenditure grow in each year from FY2020 through FY2022?",
         "Yes: the capital expenditure rose in each year ($1,501 million in FY2020, "
         "$1,603 million in FY2021, $1,749 million in FY2022)"),
        # From the ends alone revenue rose (FY2020 to FY2022); it fell in FY2022.
        ("Did 3M's revenue increase every year from FY2020 to FY2022?",
         "No: the revenue fell from $35,355 million in FY2021 to $34,229 million in FY2022 "
         "($32,184 million in FY2020, $35,355 million in FY2021, $34,229 million in FY2022)"),
    ],
)  # fmt: skip
def test_a_direction_asked_of_each_year_is_settled_step_by_step(searcher, question, opening):
    program = ResearchProgram(searcher)
    with dspy.context(lm=ScriptedLM()):
        pred = program(question=question)
    assert [s.label for s in pred.plan.slices] == [
        "MMM FY2020 Q4",
        "MMM FY2021 Q4",
        "MMM FY2022 Q4",
    ]
    answer = pred.report.split("## Answer")[1].split("## Comparison")[0].strip()
    assert answer.startswith(opening + "¹˒²˒³."), answer  # cited to all three years


def test_a_share_asked_after_the_figure_keeps_both_pages_in_the_report(searcher):
    """FedEx's "6.8% of revenue ($90,155 million)" had lost its income-statement citation
    in the report and stood cited to the cash-flow page alone."""
    program = ResearchProgram(searcher)
    question = (
        "How much did 3M spend on capital expenditures in FY2022, and what share of revenue "
        "was that?"
    )
    with dspy.context(lm=ScriptedLM()):
        pred = program(question=question)
    answer = pred.report.split("## Answer")[1].split("**Sources**")[0]
    share = re.search(r"That is [\d.]+% of revenue \(\$[\d,]+ million\)([¹²³˒]+)\.", answer)
    assert share, answer
    assert len(share[1].split("˒")) == 2  # the cash-flow and the income statement


def test_a_one_figure_sentence_beside_the_change_line_goes_even_without_its_period():
    def report(fy: int, text: str, value: float, uid: str) -> SliceReport:
        figure = Figure(title="Effective tax rate", period=f"FY{fy}", value=value, unit="ratio",
                        text=text, uids=[uid])  # fmt: skip
        body = f"Effective tax rate in FY{fy} was {text}¹.\n\n**Sources**\n\n" + (
            f"¹ ACME 10-K FY{fy} p.9 (page_id: {fy}, uid: {uid})"
        )
        probe = ProbeAnswer(index=1, probe_title="Effective tax rate", probe_question="?",
                            answer=parse_cited_answer(body), figures=[figure])  # fmt: skip
        return SliceReport(slice=SliceRef(ticker="ACME", fy=fy, fq=4), probe_answers=[probe])

    slices = [report(2022, "12.2%", 0.122, "a" * 12), report(2023, "6.8%", 0.068, "b" * 12)]
    stated = "ACME effective tax rate went from 12.2% in FY2022 to 6.8% in FY2023, down 5.4"
    lines = series_lines(slices, {"a" * 12: 1, "b" * 12: 2}, stated)
    assert lines is not None
    for said in ("Effective tax rate was 12.2%.", "Effective tax rate in FY2023 was 6.8%."):
        assert lines.fullmatch(said)
    assert not lines.fullmatch("Effective tax rate was 9.9%.")  # another figure is not a copy
    assert not lines.fullmatch("Effective tax rate was 12.2%, below the statutory 21%.")


def test_a_presence_verdict_opens_the_answer_once(searcher):
    """MGM's "Has it paid dividends?" read `Yes: dividends paid came to $4.05 million¹.`
    twice once the figure's own line said the verdict with its period."""
    program = ResearchProgram(searcher)
    with dspy.context(lm=ScriptedLM()):
        pred = program(question="Did 3M pay dividends in FY2018?")
    answer = pred.report.split("## Answer")[-1].split("**Sources**")[0]
    assert answer.count("came to") == 1, answer
    assert "came to $3,193 million in FY2018" in answer


def _debt(period: str, value: float, uid: str) -> Figure:
    return Figure(
        title="Total debt", period=period, value=value, unit="USD",
        text=f"${value / 1e6:,.0f} million", uids=[uid],
    )  # fmt: skip


def _debt_slices(earlier: list[Figure]) -> list[SliceReport]:
    def report(fy: int, figures: list[Figure]) -> SliceReport:
        probe = ProbeAnswer(index=1, probe_title="Total debt", probe_question="?", figures=figures)
        return SliceReport(slice=SliceRef(ticker="FL", fy=fy, fq=4), probe_answers=[probe])

    return [report(2022, earlier), report(2023, [_debt("FY2023", 452e6, "c3")])]


def test_a_trend_verdict_spans_the_periods_planned():
    """Asked whether Foot Locker's total debt rose in FY2023, FY2022 was planned beside it;
    FY2022's filing also printed FY2021's figure, and the verdict had run from FY2021 to
    FY2023 ("Yes: rose from $110 million") where FY2023's fell from FY2022's."""
    from programs.figure_table import trend_verdicts

    numbers = {"a1": 1, "b2": 2, "c3": 3}
    asked = "Did Foot Locker's total debt rise in FY2023?"
    slices = _debt_slices([_debt("FY2021", 110e6, "a1"), _debt("FY2022", 457e6, "b2")])
    assert trend_verdicts(asked, slices, numbers) == [
        "No: the total debt fell from $457 million in FY2022 to $452 million in FY2023, "
        "down $5 million (-1.1%)²˒³."
    ]
    # The earlier year read only from a comparative column is the one earlier figure: kept.
    alone = [_debt_slices([])[1]]
    alone[0].probe_answers[0].figures.insert(0, _debt("FY2022", 457e6, "b2"))
    assert trend_verdicts(asked, alone, numbers)[0].startswith(
        "No: the total debt fell from $457 million in FY2022"
    )


def test_a_figure_negative_in_any_period_is_a_yes_naming_the_period():
    """Asked whether eBay's net income turned negative in any year from FY2020 to FY2022, the
    composer described each year's change and never answered; FY2022's was a loss."""
    from programs.series_verdicts import sign_verdict

    title = "Net income attributable to shareholders"
    points = [_p("FY2020", 5667, "$5,667 million"), _p("FY2021", 13608, "$13,608 million"),
              _p("FY2022", -1269, "-$1,269 million")]  # fmt: skip
    series = "$5,667 million in FY2020, $13,608 million in FY2021, -$1,269 million in FY2022"
    asked = "Did eBay's net income turn negative in any year between FY2020 and FY2022?"
    assert sign_verdict(asked, title, points) == (
        f"Yes: the net income attributable to shareholders was negative in FY2022 ({series})"
    )
    every = "Was eBay's net income positive in every year from FY2020 to FY2022?"
    assert sign_verdict(every, title, points).startswith("No: the net income attributable")
    gains = [_p("FY2020", 5667, "$5,667 million"), _p("FY2021", 13608, "$13,608 million")]
    positive = "No: the net income attributable to shareholders was positive in every period"
    assert sign_verdict(asked, title, gains).startswith(positive)
    # another figure, no yes/no, or no sign asked: code says nothing
    for question in (
        "Did eBay's revenue turn negative in any year between FY2020 and FY2022?",
        "Which year was eBay's net income negative?",
        "Did eBay's net income grow between FY2020 and FY2022?",
    ):
        assert sign_verdict(question, title, points) is None, question


def test_a_figure_turned_positive_is_answered_of_the_last_period():
    """Asked whether PG&E returned to a profit in FY2020 after its FY2019 loss, each year had
    its own verdict ("FY2019: No: net income was -$7,642 million"), and none said whether
    the loss ended."""
    from programs.series_verdicts import recovery_verdict

    title = "Net income attributable to shareholders"
    losses = [_p("FY2019", -7642, "-$7,642 million"), _p("FY2020", -1304, "-$1,304 million")]
    asked = "Did PG&E return to a profit in FY2020 after its FY2019 loss?"
    assert recovery_verdict(asked, title, losses) == (
        "No: the net income attributable to shareholders was still negative in FY2020 "
        "(-$7,642 million in FY2019, -$1,304 million in FY2020)"
    )
    ended = [losses[0], _p("FY2020", 45, "$45 million")]
    assert recovery_verdict(asked, title, ended).startswith(
        "Yes: the net income attributable to shareholders turned positive in FY2020"
    )
    gains = [_p("FY2019", 5, "$5 million"), _p("FY2020", 45, "$45 million")]
    positive = "Yes: the net income attributable to shareholders was positive in FY2020"
    assert recovery_verdict(asked, title, gains).startswith(positive)
    back = "Did PG&E's net income turn positive in FY2020?"
    assert recovery_verdict(back, title, losses).startswith("No: ")
    # one period, a sign asked of any period, another figure, no yes/no: code says nothing
    assert recovery_verdict(asked, title, losses[1:]) is None
    for question in (
        "Did PG&E's net income turn negative in any year between FY2019 and FY2020?",
        "Did PG&E's revenue return to growth in FY2020?",
        "How did PG&E return to a profit in FY2020?",
    ):
        assert recovery_verdict(question, title, losses) is None, question


def test_a_return_to_profit_opens_the_report_with_one_verdict(searcher):
    """Each year's own verdict goes where code answered the series as one."""
    program = ResearchProgram(searcher)
    question = "Did 3M return to a profit in FY2022 after FY2021?"
    with dspy.context(lm=ScriptedLM()):
        pred = program(question=question)
    answer = pred.report.split("## Answer")[1].split("## Comparison")[0].strip()
    assert answer.startswith("Yes: the net income attributable to shareholders was positive "
                             "in FY2022 ($"), answer  # fmt: skip
    assert "FY2021 Q4: Yes" not in answer and "FY2022 Q4: Yes" not in answer, answer


def test_the_sign_verdict_opens_the_report(searcher):
    program = ResearchProgram(searcher)
    question = "Did 3M's net income turn negative in any year between FY2020 and FY2022?"
    with dspy.context(lm=ScriptedLM()):
        pred = program(question=question)
    answer = pred.report.split("## Answer")[1].split("## Comparison")[0].strip()
    assert answer.startswith("No: the net income attributable to shareholders was positive in "
                             "every period ($"), answer  # fmt: skip


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Did Acme pay more in dividends in FY2022 than in FY2021?", "Yes"),
        ("Did Acme pay less in dividends in FY2022 than in FY2021?", "No"),
        ("Did Acme pay more in dividends in FY2021 than in FY2022?", "No"),
        ("Was Acme's revenue higher in FY2021 than in FY2022?", "No"),
        ("Was Acme's revenue lower in 2021 than in 2022?", "Yes"),
        ("Is Acme's revenue higher in FY2022 than in FY2021?", "Yes"),
    ],
)
def test_more_or_less_than_another_period_is_read_in_the_periods_order(question, answer):
    """McDonald's "Did it pay more in dividends in FY2022 than in FY2021?" got both figures
    and no answer; "higher in FY2021 than in FY2022" asks of the earlier year."""
    from programs.verdicts import direction_answer

    assert direction_answer(question, changed=True, rose=True, reading=None) == answer


def test_more_than_another_period_opens_the_report(searcher):
    program = ResearchProgram(searcher)
    question = "Did 3M pay more in dividends in FY2022 than in FY2021?"
    with dspy.context(lm=ScriptedLM()):
        pred = program(question=question)
    answer = pred.report.split("## Answer")[1].split("##")[0].strip()
    assert re.match(r"(Yes|No): the dividends paid (rose|fell) from \$", answer), answer
