from hypothesis import given
from hypothesis import strategies as st

from domain.periods import parse_fq, parse_fy
from retrieval.search.fusion import reciprocal_rank_fusion
from retrieval.search.query import prepare_query

rankings = st.lists(st.lists(st.integers(0, 30), unique=True, max_size=15), min_size=1, max_size=3)


@given(rankings)
def test_rrf_covers_every_item_once_in_descending_score(lists):
    fused = reciprocal_rank_fusion(lists)
    ids = [i for i, _ in fused]
    assert sorted(ids) == sorted(set().union(*map(set, lists)))
    scores = [s for _, s in fused]
    assert scores == sorted(scores, reverse=True)


@given(st.lists(st.integers(0, 30), unique=True, min_size=1, max_size=15))
def test_rrf_of_agreeing_lists_keeps_their_order(ranking):
    assert [i for i, _ in reciprocal_rank_fusion([ranking, ranking])] == ranking


def test_rrf_rewards_agreement():
    fused = dict(reciprocal_rank_fusion([[1, 2, 3], [3, 4, 5]]))
    assert fused[3] > fused[1] > fused[4]


def test_zero_weight_ignores_a_ranking():
    fused = reciprocal_rank_fusion([[1, 2], [9, 8]], weights=[1.0, 0.0])
    assert [i for i, s in fused if s > 0] == [1, 2]


def test_query_strips_boilerplate_and_maps_statements():
    q = prepare_query(
        "What is the FY2018 capital expenditure amount (in USD millions) for 3M? Give a "
        "response to the question by relying on the details shown in the cash flow statement.",
        drop_words=("MMM", "3M"),
    )
    assert "relying" not in q.terms and "give" not in q.terms and "usd" not in q.terms
    assert "2018" in q.terms and "3m" not in q.terms
    assert "consolidated statements of cash flows" in q.dense_text
    assert {"purchases", "property", "plant", "equipment"} <= set(q.terms)


def test_fiscal_year_forms():
    for text in ("FY2019 revenue", "FY19 revenue", "fiscal 2019 revenue", "fiscal year 2019"):
        assert "2019" in prepare_query(text).terms
    assert parse_fy("FY18") == 2018 and parse_fy("fiscal 2021") == 2021 and parse_fy(2020) == 2020
    assert parse_fq("Q3") == 3 and parse_fq("4") == 4


def test_plurals_and_compound_spellings_name_the_same_term():
    margins = prepare_query("Are Best Buy's gross margins historically consistent?")
    assert margins.headings == prepare_query("Best Buy's gross margin").headings != ()
    assert "gross profit net sales cost of sales" in margins.expansions
    cashflow = prepare_query("What does the cashflow statement show?")
    assert "consolidated statements of cash flows" in cashflow.dense_text
    intensive = prepare_query("Is Verizon a capital-intensive business?")
    assert intensive.headings == prepare_query("Is Verizon capital intensive?").headings != ()
    assert prepare_query("the epsilon of the model").expansions == ()  # a word, not "eps"
    for jargon in ("topline", "top-line", "top line"):  # analysts' one-word forms too
        assert "revenue net sales total revenues" in prepare_query(f"{jargon} growth").expansions
    assert "net income net earnings" in prepare_query("bottomline impact").expansions


def test_a_question_about_what_a_company_expects_looks_for_its_outlook():
    """Filings title their forecasts "Outlook" or "Guidance"; a question asks what the
    company expects, forecasts or anticipates."""
    for asked in (
        "Does Acme expect sales to grow?",
        "What is Acme forecasting for FY2031?",
        "Is growth expected to slow?",
        "What does Acme anticipate for margins?",
    ):
        assert "outlook guidance expects" in prepare_query(asked).expansions
    assert "outlook guidance expects" not in prepare_query("Did sales grow?").expansions


def test_a_question_about_what_a_company_is_looks_for_item_1_business():
    """ "What industry does Oracle primarily operate in?" had been answered from a page on
    its "industry-specific hardware offerings" ("Oracle primarily operates in the hardware
    industry"); the 10-K says what the company is where Item 1 opens. Where it operates,
    how it earns and its lines of business are asked elsewhere."""
    for asked in (
        "What industry does Acme primarily operate in?",
        "What is the primary business of Acme as of FY2031?",
        "What does Acme Corp do?",
    ):
        assert "item 1. business" in prepare_query(asked).headings
    for asked in (
        "Which region does Acme primarily operate in?",
        "Which business model drives Acme's revenue?",
        "What was Acme's revenue by line of business?",
    ):
        assert "item 1. business" not in prepare_query(asked).headings
