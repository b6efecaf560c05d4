"""Whether one statement figure covers another, is the larger, or grew the faster, said by
code (``programs.comparisons``)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.cells import SliceRef
from domain.periods import Period
from programs.comparisons import CoverQuestion, cover_answer, race_answer, read_cover
from programs.figures import Figures
from retrieval.store import GridFilter

MMM_2018 = SliceRef(ticker="MMM", fy=2018, fq=4)


@pytest.fixture
def figures(sample_store):
    return Figures(lambda ref: sample_store.facts(GridFilter(ref.ticker, ref.fy, ref.fq)))


@pytest.mark.parametrize(
    ("question", "source", "use"),
    [
        ("Did Intel's operating cash flow cover its capital expenditure in FY2022?",
         "operating cash flow", "capital expenditure"),
        ("Does 3M's free cash flow fully cover the dividends?", "free cash flow", "dividends"),
        ("Was Apple's cash from operations enough to fund its share repurchases in 2022?",
         "cash from operations", "share repurchases"),
        # asked the other way round: what is covered comes first
        ("Is Activision Blizzard's dividend covered by its free cash flow in FY2022?",
         "free cash flow", "dividend"),
        ("Were 3M's buybacks fully funded by operating cash flow?",
         "operating cash flow", "buybacks"),
        # a figure asked, then whether it covered another (its answer states the figure)
        ("What was FedEx's free cash flow in FY2023, and did it cover its dividends?",
         "free cash flow", "dividends"),
        ("How much was 3M's operating cash flow, and could it fund its capital expenditure?",
         "operating cash flow", "capital expenditure"),
        # "enough to cover" is a cover
        ("What was Intel's free cash flow in FY2020, and was it enough to cover its dividends?",
         "free cash flow", "dividends"),
        ("Was Intel's free cash flow sufficient to cover its dividends in FY2020?",
         "free cash flow", "dividends"),
    ],
)  # fmt: skip
def test_a_cover_question_names_what_covers_and_what_is_covered(question, source, use):
    assert read_cover(question) == CoverQuestion(source, use)


@pytest.mark.parametrize(
    "question",
    [
        "What was 3M's interest coverage ratio in FY2018?",
        "What does 3M's insurance cover?",  # a "what" question
        "How much capital expenditure did 3M fund in FY2018?",  # how much, not whether
        "What was 3M's free cash flow in FY2018, and why did it fall?",  # no cover asked
    ],
)
def test_other_questions_are_no_cover_question(figures, question):
    assert figures.cover(question, MMM_2018) is None


def test_code_says_whether_cash_from_operations_covered_capex(figures):
    question = "Did 3M's operating cash flow cover its capital expenditure in FY2018?"
    assert figures.compute(question, MMM_2018) is None  # not the first figure alone
    probe = figures.probe(question, MMM_2018)
    assert probe is not None and probe.probe_title.endswith("(from the statements)")
    answer, figure = figures.answer(question, MMM_2018)
    assert answer.body.startswith("Yes: cash from operations of $6,439 million covered ")
    assert "capital expenditure of $1,577 million in FY2018¹" in answer.body
    assert figure.verdict and answer.references.footnotes


def test_asked_the_other_way_round_and_in_the_singular(figures):
    """Activision Blizzard's "Is its dividend covered by its free cash flow?" had been a
    researched "Yes" beside a "$194 million" of no named line."""
    question = "Is 3M's dividend covered by its operating cash flow in FY2018?"
    answer, _ = figures.answer(question, MMM_2018)
    assert answer.body.startswith("Yes: cash from operations of $6,439 million covered ")
    assert "dividends paid of" in answer.body


@dataclass
class _Figure:
    """What :func:`cover_answer` reads of a calculation."""

    title: str
    value: float
    period: Period
    unit: str = "USD"
    citations: tuple[str, ...] = ()
    inputs: tuple = ()

    def input_lines(self) -> list[str]:
        return []


@given(st.integers(1, 10**6), st.integers(1, 10**6))
def test_covered_exactly_when_the_source_is_at_least_the_use(source, use):
    year = Period(fy=2030, fq=None)
    cash, capex = _Figure("Cash", source, year), _Figure("Capex", -use, year)  # an outflow
    answer, figure = cover_answer(cash, f"${source}", capex, f"${use}")  # type: ignore[arg-type]
    assert answer.body.startswith("Yes:" if source >= use else "No:")
    assert figure.verdict == answer.body.removesuffix(".")


@pytest.mark.parametrize(
    ("question", "source", "use"),
    [
        ("Did Apple pay more in dividends than it spent on buybacks in FY2022?",
         "dividends", "buybacks"),
        ("Was Apple's capital expenditure larger than its depreciation in FY2022?",
         "capital expenditure", "depreciation"),
        ("Did 3M spend more on research and development than on capital expenditure?",
         "research and development", "capital expenditure"),
        # Intel's "exceed" had got the capex alone
        ("Did Intel's capital expenditure exceed its depreciation in FY2020?",
         "capital expenditure", "depreciation"),
        ("Has Apple's operating cash flow surpassed its net income in FY2022?",
         "operating cash flow", "net income"),
    ],
)  # fmt: skip
def test_a_more_than_question_names_the_two_figures(question, source, use):
    assert read_cover(question) == CoverQuestion(source, use, "more")


@pytest.mark.parametrize(
    "question",
    [
        "Did Oracle's revenue exceed $40 billion in FY2022?",  # a level, not a figure
        "Was 3M's operating margin higher than 20% in FY2018?",
    ],
)
def test_a_level_is_no_second_figure(question):
    assert read_cover(question) is None


def test_code_says_which_of_two_figures_is_the_larger(figures):
    question = "Did 3M pay more in dividends than it spent on capital expenditure in FY2018?"
    probe = figures.probe(question, MMM_2018)
    assert probe is not None and probe.probe_question.startswith("Did dividends paid exceed ")
    answer, figure = figures.answer(question, MMM_2018)
    assert answer.body.startswith("Yes: dividends paid of $3,193 million exceeded ")
    assert "capital expenditure of $1,577 million in FY2018" in answer.body
    assert figure.verdict and answer.references.footnotes


@given(st.integers(1, 10**6), st.integers(1, 10**6))
def test_more_exactly_when_the_first_is_the_larger(first, second):
    year = Period(fy=2030, fq=None)
    paid, spent = _Figure("Dividends", -first, year), _Figure("Buybacks", -second, year)
    answer, _ = cover_answer(paid, f"${first}", spent, f"${second}", "more")  # type: ignore[arg-type]
    assert answer.body.startswith("Yes:" if first > second else "No:")


def test_a_list_of_figures_is_covered_by_their_sum(figures):
    """A cover question of "capex and dividends" was answered on capex alone:
    the phrases read "capex and dividends" as capex."""
    capex = "Did 3M's operating cash flow cover its capital expenditure in FY2018?"
    dividends = "Is 3M's dividend covered by its operating cash flow in FY2018?"
    both = "Did 3M's operating cash flow cover its capex and dividends in FY2018?"
    amounts = [
        figures.cover(question, MMM_2018)[1].calculation.value for question in (capex, dividends)
    ]
    _, use, _ = figures.cover(both, MMM_2018)
    assert use.calculation.value == pytest.approx(sum(amounts))
    answer, _ = figures.answer(both, MMM_2018)
    parts = " and ".join(f"${abs(a) / 1e6:,.0f} million" for a in amounts)
    assert "covered capital expenditure and dividends paid of $" in answer.body
    assert f"million ({parts}) in FY2018¹" in answer.body  # what was added, shown


@pytest.mark.parametrize(
    ("text", "formula"),
    [
        ("capex and dividends", "abs(capex) + abs(dividends_paid)"),
        ("capex, dividends and buybacks", "abs(capex) + abs(dividends_paid) + abs(buybacks)"),
        ("dividends and share buybacks", "shareholder_returns"),  # one figure of its own
        ("research and development expense", "rnd"),  # "and" inside one line's name
        ("selling, general and administrative expenses", "sga"),
        ("property, plant and equipment", "ppe_net"),
        ("capex", "abs(capex)"),
        ("capex and its pet projects", None),  # a listed figure it cannot read
    ],
)
def test_the_size_asked_of_a_list_is_the_sum_of_its_figures(text, formula):
    from programs.figure_formulas import size_asked

    choice = size_asked(text, Period(2018, 4))
    assert (choice.formula if choice else None) == formula


@given(st.lists(st.text(alphabet="abc", min_size=1, max_size=3), min_size=1, max_size=5))
def test_items_are_listed_with_and_before_the_last(items):
    from textnorm.listing import listed

    text = listed(items)
    assert text.endswith(items[-1]) and text.count(" and ") >= min(1, len(items) - 1)
    assert text.count(", ") == max(0, len(items) - 2)


def test_a_listed_payment_the_statements_do_not_print_adds_nothing_and_is_named():
    """PG&E paid no dividends in FY2022: "capex and dividends" is its capex, said so."""
    from programs.figure_formulas import size_asked

    period = Period(2022, 4)
    choice = size_asked("capex and dividends", period, lambda item: item == "dividends_paid")
    assert (choice.formula, choice.title) == (
        "abs(capex)",
        "Capital expenditure (no dividends paid)",
    )
    assert size_asked("dividends and capex", period, lambda item: True) is None  # none at all
    assert size_asked("capex", period, lambda item: True).formula == "abs(capex)"  # not listed


@pytest.mark.parametrize(
    ("question", "source", "use", "relation"),
    [
        ("Did Intel's revenue grow faster than its operating expenses in FY2022?",
         "revenue", "operating expenses", "faster"),
        ("Has Apple's R&D grown more quickly than its revenue?", "R&D", "revenue", "faster"),
        ("Did opex rise faster than revenue did in FY2022?", "opex", "revenue", "faster"),
        ("Has revenue grown more slowly than SG&A for Apple in FY2022?",
         "revenue", "SG&A", "slower"),
        ("Did Apple's revenue growth outpace its operating expense growth in FY2022?",
         "revenue", "operating expense", "faster"),
        ("Did revenue outgrow costs and expenses in 2022?",
         "revenue", "costs and expenses", "faster"),
    ],
)  # fmt: skip
def test_a_race_question_names_the_two_figures_and_the_way(question, source, use, relation):
    assert read_cover(question) == CoverQuestion(source, use, relation)


def test_code_says_which_of_two_figures_grew_faster(figures):
    question = "Did 3M's capital expenditure grow faster than its revenue in FY2018?"
    assert figures.compute(question, MMM_2018) is None  # not one growth alone
    probe = figures.probe(question, MMM_2018)
    assert probe is not None
    assert probe.probe_question == "Did capital expenditure grow faster than revenue in FY2018?"
    answer, figure = figures.answer(question, MMM_2018)
    assert answer.body.startswith(
        "Yes: capital expenditure grew 14.9% (from $1,373 million to $1,577 million) in "
        "FY2018, faster than revenue, which grew 3.5% (from $31,657 million to $32,765 million)"
    )
    assert figure.verdict and answer.references.footnotes
    assert figures.fixed_years(question, MMM_2018) == [2017]  # FY2017 is read, not planned
    slower = "Did 3M's capital expenditure grow more slowly than its revenue in FY2018?"
    assert figures.answer(slower, MMM_2018)[0].body.startswith("No: capital expenditure grew ")


@dataclass
class _Growth(_Figure):
    unit: str = "ratio"


@given(st.integers(-99, 300), st.integers(-99, 300), st.sampled_from(["faster", "slower"]))
def test_a_race_is_won_exactly_by_the_larger_growth(first, second, relation):
    year = Period(fy=2030, fq=None)
    a, b = _Growth("Revenue growth", first / 100, year), _Growth("R&D growth", second / 100, year)
    answer, _ = race_answer(a, b, relation)  # type: ignore[arg-type]
    holds = first > second if relation == "faster" else first < second
    assert answer.body.startswith("Yes:" if holds else "No:")
    assert f"{'grew' if first >= 0 else 'fell'} {abs(first):.1f}%" in answer.body
    assert ("R&D, which" if first >= 0 and second >= 0 else "while R&D") in answer.body
