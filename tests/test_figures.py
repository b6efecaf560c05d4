"""The figure probe: a question's figure from statement facts, and the questions it is not."""

from __future__ import annotations

import re

import pytest

from domain.cells import SliceRef
from programs.figure_questions import asks_beyond_figure, asks_to_choose, outside_the_statements
from programs.figures import Figures
from retrieval.facts.model import Fact
from retrieval.store import GridFilter

MMM_2018 = SliceRef(ticker="MMM", fy=2018, fq=4)


@pytest.fixture
def figures(sample_store):
    return Figures(lambda ref: sample_store.facts(GridFilter(ref.ticker, ref.fy, ref.fq)))


def test_a_question_for_a_figure_gets_the_figure_probe(figures):
    probe = figures.probe("What was 3M's capital expenditure in FY2018?", MMM_2018)
    assert probe is not None and "FY2018" in probe.probe_question
    answer, figure = figures.answer("What was 3M's capital expenditure in FY2018?", MMM_2018)
    assert "1,577" in answer.body and figure.uids


@pytest.mark.parametrize(
    "question",
    [
        "Roughly how many times did 3M sell its inventory in FY2018?",
        "How many times has 3M turned over its inventories in FY2018?",
    ],
)
def test_times_it_sold_its_inventory_is_the_turnover_not_the_balance(figures, question):
    probe = figures.probe(question, MMM_2018)
    assert probe is not None and probe.probe_title.startswith("Inventory turnover")


def test_uses_or_sources_of_cash_are_flows_not_the_cash_balance(figures):
    for question in (
        "What were 3M's main uses of cash in FY2018?",
        "What were 3M's sources of cash in FY2018?",
    ):
        assert figures.probe(question, MMM_2018) is None  # researched: a list of items
    balance = figures.probe("How much cash did 3M hold at the end of FY2018?", MMM_2018)
    assert balance is not None and balance.probe_title.startswith("Cash")


@pytest.mark.parametrize("wording", ["capital-intensive", "capital intensive"])
def test_a_capital_intensity_judgement_gets_the_figure_and_is_researched(figures, wording):
    question = f"Is 3M a {wording} business based on FY2018 data?"
    probe = figures.probe(question, MMM_2018)
    assert probe is not None and "Capex as % of revenue" in probe.probe_title
    assert asks_beyond_figure(question)  # the verdict is read against the business: no benchmark


@pytest.mark.parametrize(
    "question",
    [
        "Which of 3M's business segments had the highest capital expenditure in FY2018?",
        "In FY2018, which segment of 3M had the highest net income?",
        "Among operations, investing, and financing activities, which grew the most for 3M "
        "in FY2018?",
        "Who are the primary customers of 3M as of FY2018?",
    ],
)
def test_a_question_that_asks_which_item_gets_no_figure_probe(figures, question):
    assert asks_to_choose(question) and figures.probe(question, MMM_2018) is None


CASH_CHOICE = (
    "Among operations, investing, and financing activities, which brought in the most (or "
    "lost the least) cash flow for 3M in FY2018?"
)


def test_a_choice_among_statement_figures_is_made_by_code(figures):
    probe = figures.probe(CASH_CHOICE, MMM_2018)
    assert probe is not None and probe.probe_question.startswith("Which of operations")
    assert not asks_beyond_figure(CASH_CHOICE)
    answer, figure = figures.answer(CASH_CHOICE, MMM_2018)
    chosen, computed = figures.choose(CASH_CHOICE, MMM_2018)
    values = [c.calculation.value for c in computed]
    assert [c.choice.formula for c in computed] == ["cfo", "cfi", "cff"]
    winner = chosen.options[values.index(max(values))]
    assert answer.body.startswith(f"{winner[:1].upper()}{winner[1:]} brought in the most cash")
    for c in computed:  # every option's figure, cited to its statement page
        assert c.value_text in answer.body
    assert figure.value == max(values) and figure.verdict in answer.body
    assert answer.references.footnotes and figure.uids


def test_a_choice_that_asks_more_is_researched_beside_it(figures):
    asked = CASH_CHOICE.replace("?", ", and why?")
    assert figures.probe(asked, MMM_2018) is not None and asks_beyond_figure(asked)


def test_a_choice_whose_options_the_statements_lack_stays_with_the_agents(figures):
    question = "Among its products, services and licences, which earned the most for 3M in FY2018?"
    assert figures.probe(question, MMM_2018) is None


@pytest.mark.parametrize(
    "question",
    [
        "How did 3M's US sales growth compare to international sales growth in FY2018?",
        "What was 3M's U.S. revenue in FY2018?",
        "What were 3M's net sales in Asia Pacific in FY2018?",
        "What was the operating income of 3M's Health Care segment in FY2018?",
        "How much revenue did 3M earn outside the United States in FY2018?",
        "What was 3M's interest coverage using FY2018 adjusted EBIT as the numerator?",
        "What was 3M's non-GAAP operating margin in FY2018?",
        "What was 3M's organic sales growth in FY2018?",
        "How much did 3M's sales change in FY2018 if we exclude the impact of FX movements?",
        "What was 3M's FY2018 revenue growth in constant currency?",
    ],
)
def test_a_question_on_what_the_statements_do_not_print_gets_no_figure_probe(figures, question):
    assert outside_the_statements(question) and figures.probe(question, MMM_2018) is None


@pytest.mark.parametrize(
    "question",
    [
        "What was 3M's capital expenditure in FY2018 (in US$ millions)?",
        "What is 3M's FY2018 revenue in US dollars?",
        "Using US GAAP figures, what was 3M's FY2018 net income?",
        "Can you tell us 3M's FY2018 revenue?",
        "What was 3M's FY2018 capital expenditure, before foreign exchange effects?",
        "What is 3M's FY2018 unadjusted EBITDA?",
    ],
)
def test_currency_gaap_us_the_pronoun_and_unadjusted_are_read_from_statements(figures, question):
    assert not outside_the_statements(question) and figures.probe(question, MMM_2018) is not None


def test_who_inside_a_clause_is_not_a_choice():
    question = (
        "What is 3M's FY2018 capital expenditure? Answer as an analyst who can only use the "
        "statement of cash flows."
    )
    assert not asks_to_choose(question)


def test_slices_a_fixed_years_figure_reads_are_not_researched_apart(searcher):
    from programs.research_program import ResearchProgram
    from signatures.planner import ResearchPlan

    program = ResearchProgram(searcher)
    question = "What is the FY2016 - FY2018 3 year average of capex as a % of revenue for 3M?"
    years = [SliceRef(ticker="MMM", fy=fy, fq=4) for fy in (2016, 2017, 2018)]
    plan = ResearchPlan(question=question, slices=years)
    assert program.figures.fixed_years(question, MMM_2018) == [2016, 2017]
    folded = program._fold_fixed_years(plan)
    assert folded.labels == ["MMM FY2018 Q4"]
    assert "MMM FY2016 Q4: read within MMM FY2018 Q4's figure, not researched apart" in folded.notes
    one_year = ResearchPlan(question="What was 3M's capex in FY2018?", slices=years)
    assert program._fold_fixed_years(one_year) == one_year  # a figure of one year folds nothing


def test_an_instruction_to_the_reader_is_not_an_ask_beyond_the_figure():
    from programs.figure_questions import asks_beyond_figure

    boilerplate = (
        "What is the FY2022 capital expenditure for 3M? Answer in USD millions. Respond to "
        "the question by assuming the perspective of an investment analyst who can only use "
        "the details shown within the statement of cash flows."
    )
    assert not asks_beyond_figure(boilerplate)
    assert asks_beyond_figure("What drove 3M's capital expenditure in FY2022?")
    assert asks_beyond_figure("Which segment had the highest capital expenditure in FY2022?")


def test_healthy_asks_no_more_when_a_shared_benchmark_judges_the_figure():
    asked = "Does Acme have a reasonably healthy liquidity profile based on its quick ratio?"
    assert asks_beyond_figure(asked)  # no benchmark verdict: the model judges
    assert not asks_beyond_figure(asked, judged=True)
    assert asks_beyond_figure("Why is Acme's quick ratio healthy?", judged=True)


def test_a_caveat_on_the_metric_is_not_an_ask_beyond_it_unless_the_company_is_financial():
    caveated = (
        "Does Acme have an improving gross margin profile as of FY2022? If gross margin is "
        "not a useful metric for a company like this, then state that and explain why."
    )
    assert not asks_beyond_figure(caveated)
    assert not asks_beyond_figure(caveated, "Industrials")
    assert asks_beyond_figure(caveated, "Financials")  # a bank's margin is in doubt
    asked_more = (
        "What drove gross margin change as of FY2022 for Acme? If gross margin is not a "
        "useful metric for a company like this, then please state that and explain why."
    )
    assert asks_beyond_figure(asked_more, "Industrials")  # "drove" is the ask
    another = (
        "Is Acme's quick ratio healthy for FY2022? If the quick ratio is not relevant, "
        "please name another metric."
    )
    assert asks_beyond_figure(another)  # no caveat form: "healthy" and "another" ask more


def test_a_researched_probe_reads_its_slices_computed_figure_and_may_cite_it(searcher):
    """A judgement beside a figure ("is capex high?") is written with the figure computed
    from the statements in the evidence, behind the hit number of its page."""
    import dspy
    from scripted_lm import ScriptedLM

    from programs.research_program import ResearchProgram, ResearchSettings

    lm = ScriptedLM()
    program = ResearchProgram(searcher, settings=ResearchSettings(max_probes=1, max_rounds=1))
    question = "Was 3M's capital expenditure in FY2018 high for its business, and why?"
    with dspy.context(lm=lm):
        pred = program(question=question)
    probes = pred.record["slices"][0]["probes"]
    assert [p.get("answered_by") for p in probes] == ["statement facts", None]
    figure = probes[0]["figure"]
    extract = next(h for h in lm.history if "evidence" in str(h["messages"][-1]["content"]).lower())
    prompt = str(extract["messages"][-1]["content"])
    line = rf"= {re.escape(figure['text'])} \(Capital expenditure, FY2018\) \[1\]"
    shown = re.search(line, prompt)
    assert shown is not None, prompt[:2000]  # its page was retrieved first: hit [1]


# -- a metric that does not apply to a financial company -----------------------------------

BANK_2022 = SliceRef(ticker="BANK", fy=2022, fq=4)


def _bank_facts(ref: SliceRef) -> list[Fact]:
    """A bank's income statement: net revenue, no cost of sales; no classified balance sheet."""
    row = dict(uid="abcdef012345", page_id=7, doc_name="BANK_2022_10K",
               doc_label="BANK 10-K FY2022", page_index=60, ticker="BANK", statement="income",
               fy=2022, fq=None, duration="year", column="2022", unit="USD")  # fmt: skip
    return [
        Fact(label="Total net revenue", concept="revenue", value=128_695e6, **row),
        Fact(label="Net income", concept="net_income", value=37_676e6, **row),
    ]


@pytest.fixture
def bank_figures():
    return Figures(_bank_facts, sectors={"BANK": "Financials", "SHOP": "Consumer Discretionary"})


@pytest.mark.parametrize(
    ("question", "lacking"),
    [
        ("What was BANK's gross margin in FY2022?", "no cost of sales"),
        ("What is BANK's inventory turnover in FY2022?", "no cost of sales and no inventory"),
        ("What was BANK's quick ratio in FY2022?", "no current assets or liabilities"),
    ],
)
def test_a_metric_a_financial_company_cannot_report_is_said_not_to_apply(
    bank_figures, question, lacking
):
    probe = bank_figures.probe(question, BANK_2022)
    assert probe is not None and probe.probe_title.endswith("(does not apply)")
    answer, figure = bank_figures.answer(question, BANK_2022)
    opening, revenue = answer.body.split("¹. ", 1)
    assert re.match(
        r"(Gross margin|Inventory turnover|Quick ratio) does not apply to BANK: ", opening
    )
    assert f"a financial company reports {lacking}" in opening
    assert revenue == "Revenue (total net revenue) in FY2022 was $128,695 million¹."
    assert (figure.title, figure.uids) == ("Revenue", ["abcdef012345"])


def test_a_metric_applies_where_the_statements_hold_it_or_outside_financials(bank_figures):
    # net margin reads what a bank reports: computed as for any company
    answer, figure = bank_figures.answer("What was BANK's net profit margin in FY2022?", BANK_2022)
    assert "does not apply" not in answer.body and figure.title != "Revenue"
    # outside financials a missing cost of sales is a gap in the facts, not a business trait
    shop = SliceRef(ticker="SHOP", fy=2022, fq=4)
    assert bank_figures.inapplicable("What was SHOP's gross margin in FY2022?", shop) is None
    # a segment's margin is not the company's: the agents read it
    assert bank_figures.inapplicable("What was BANK's gross margin by segment?", BANK_2022) is None


def test_code_saying_a_metric_does_not_apply_answers_the_caveat_asking_so(searcher, bank_figures):
    from programs.research_program import ResearchProgram

    program = ResearchProgram(searcher)
    program.figures = bank_figures
    caveated = (
        "Does BANK have an improving gross margin profile as of FY2022? If gross margin is not "
        "a useful metric for a company like this, then please state that and explain why."
    )
    probes = program._generate_probes(caveated, BANK_2022).probes
    assert [p.probe_title for p in probes] == ["Gross margin (does not apply)"]


def test_the_first_half_is_the_year_to_date_column_of_the_q2_filing():
    row = dict(uid="abcdef012346", page_id=8, doc_name="SHOP_2023_Q2_10Q",
               doc_label="SHOP 10-Q FY2023 Q2", page_index=4, ticker="SHOP", statement="income",
               fy=2023, fq=2, column="June 30, 2023", unit="USD")  # fmt: skip
    facts = [
        Fact(label="Net revenue", concept="revenue", value=22_322e6, duration="quarter", **row),
        Fact(label="Net revenue", concept="revenue", value=40_168e6, duration="ytd", **row),
    ]
    figures = Figures(lambda ref: facts)
    q2 = SliceRef(ticker="SHOP", fy=2023, fq=2)
    answer, figure = figures.answer("What was SHOP's revenue in the first half of 2023?", q2)
    assert answer.body == "Revenue (net revenue) in FY2023Q2 year to date was $40,168 million¹."
    assert figure.period == "FY2023Q2 year to date"
    answer, _ = figures.answer("What was SHOP's revenue in Q2 2023?", q2)
    assert "$22,322 million" in answer.body and "year to date" not in answer.body


def test_the_year_before_is_read_from_the_filing_when_its_own_cell_cannot_give_it(figures):
    # The sample grid's first 3M filing is FY2018's; its cash-flow statement prints FY2017.
    compared = "How did 3M's capital expenditure in FY2018 compare with the prior year?"
    answer, figure = figures.year_ago(compared, MMM_2018)
    assert figure.period == "FY2017" and figure.title == "Capital expenditure"
    assert answer.body.startswith("Capital expenditure") and "in FY2017 was $1,373 million¹" in (
        answer.body
    )
    assert not figure.verdict  # the year before is a figure, not an answer
    # none when the year-ago cell gives it itself, when nothing is compared, or when the
    # figure is a change already
    mmm_2019 = SliceRef(ticker="MMM", fy=2019, fq=4)
    assert figures.year_ago(compared.replace("FY2018", "FY2019"), mmm_2019) is None
    assert figures.year_ago("What was 3M's capital expenditure in FY2018?", MMM_2018) is None
    assert figures.year_ago("What was 3M's revenue growth in FY2018?", MMM_2018) is None
