"""A question about what drove a figure is answered by the filing's one sentence saying so."""

from __future__ import annotations

import pytest
from cited import filing_page

from domain.cells import SliceRef
from programs.cause_quotes import asks_cause, cause_answer, cause_query, gives_cause, quoted_cause
from programs.page_answers import page_answer
from programs.probe_loop import ProbeLoop
from retrieval.search.hybrid import Hit
from signatures.probes import Probe

ASKED = "What drove the reduction in SG&A expense as a percent of net sales in FY2023?"
ANNUAL = (
    "As a percentage of net sales, SG&A expenses decreased to 23.5% compared to 23.9% in "
    "fiscal 2021, primarily due to lower marketing expenses and leverage of incentive "
    "compensation due to higher sales."
)
QUARTER = (
    "As a percentage of net sales, SG&A expenses decreased to 23.6% compared to 23.8% in the "
    "fourth quarter of fiscal 2021, primarily due to leverage of marketing expenses."
)


_page = filing_page


@pytest.mark.parametrize(
    ("sentence", "gives"),
    [
        (ANNUAL, True),
        (QUARTER, False),  # a quarter the question does not ask about
        ("SG&A expenses increased 5%, primarily due to wage investments.", False),  # direction
        ("Gross margin decreased, primarily due to higher freight costs.", False),  # another figure
        ("SG&A expenses may rise due to wage inflation.", False),  # no change told as done
        ("Segment SG&A expenses decreased due to lower marketing.", False),  # a segment's
        ("SG&A expenses decreased to 23.5%.", False),  # no cause
    ],
)
def test_a_page_sentence_gives_the_cause_of_the_change_asked_or_not(sentence, gives):
    assert gives_cause(sentence, ASKED) is gives


def test_the_one_sentence_is_the_answer_cited_to_its_page():
    pages = [_page("Results of operations.\n" + QUARTER + "\n" + ANNUAL), _page(ANNUAL, 41)]
    found = quoted_cause(ASKED, pages)
    assert found is not None
    page, sentence = found
    assert (page.page_index, sentence) == (40, ANNUAL)  # the same words on two pages: one
    answer = cause_answer(page, sentence)
    assert answer.body == f"In the filing's words: “{ANNUAL}”¹"
    assert answer.references.footnotes[0].citation.page_index == 40


def test_several_different_sentences_leave_the_question_to_the_agents():
    other = ANNUAL.replace("lower marketing expenses", "lower occupancy costs")
    assert quoted_cause(ASKED, [_page(ANNUAL), _page(other, 41)]) is None
    assert quoted_cause(ASKED, [_page("Nothing here.")]) is None


TAX_ASKED = "Why did Acme's effective tax rate change in FY2031?"
TAX_PAGE = (
    "The Company's effective tax rate for 2031 was lower than the statutory federal income "
    "tax rate due primarily to a lower effective tax rate on foreign earnings. The Company's "
    "effective tax rate for 2031 was higher compared to 2030 due primarily to lower tax "
    "benefits from share-based compensation."
)


def test_a_cause_of_the_change_is_told_from_a_cause_of_a_difference():
    """The connective may hold how much it explains ("due primarily to"), and a figure set
    against a benchmark (the statutory rate) says why it differs, not why it changed."""
    found = quoted_cause(TAX_ASKED, [_page(TAX_PAGE)])
    assert found is not None
    assert found[1].startswith("The Company's effective tax rate for 2031 was higher compared")
    assert not gives_cause(TAX_PAGE.split(". ")[0] + ".", TAX_ASKED)
    for between in ("mainly", "largely", "in part"):
        assert gives_cause(
            f"Gross margin fell due {between} to freight.", "Why did gross margin fall?"
        )


REVENUE_PAGE = (
    "Revenue \nRevenue decreased 4% in 2023 primarily due to global volume declines at all of "
    "our transportation segments, partially offset by yield improvement. \nShop Express "
    "revenue decreased 7% in 2023 due to lower global volume. Revenue at Corporate, other, "
    "and eliminations decreased due to lower yields. Shop Ground revenue and Shop Freight "
    "revenue each increased 1% in 2023, primarily due to yield improvement."
)


def test_of_a_companys_and_its_segments_sentences_the_companys_is_quoted():
    """A filing explains its revenue, then each segment's, naming the segment in the
    sentence: the one whose subject is the bare measure is the company's; its heading,
    joined to it by the page text, is not quoted."""
    asked = "What drove revenue change as of FY2023 for Shop?"
    annual_report = _page("- 52 -\n" + REVENUE_PAGE, 41)  # the same words, a page number first
    page, sentence = quoted_cause(asked, [_page(REVENUE_PAGE), annual_report])
    assert cause_answer(page, sentence).body == (
        "In the filing's words: “Revenue decreased 4% in 2023 primarily due to global volume "
        "declines at all of our transportation segments, partially offset by yield "
        "improvement.”¹"
    )
    segments_only = REVENUE_PAGE.split("\nShop Express ")[1]
    assert quoted_cause(asked, [_page("Shop Express " + segments_only)]) is None
    # revenue named in passing is never the company's revenue, even alone
    investees = (
        "The decrease in net sales to, and payments made to, equity method investees in 2020 "
        "was primarily due to the impact of the pandemic."
    )
    assert quoted_cause(asked, [_page(investees)]) is None


MARGIN_ASKED = "What drove the change in Acme's gross margin percentage in FY2031?"
THIS_YEAR = (
    "Gross Margin\nGross margin for 2031, 2030 and 2029 was as follows: 2031 2030 2029 "
    "Gross margin percentage 38.3% 38.5% 39.1%\nGross margin increased in 2031 compared to "
    "2030 due primarily to a favorable shift in mix. Gross margin percentage decreased "
    "year-over-year due primarily to higher product cost structures."
)
YEAR_BEFORE = (
    "Gross margin increased in 2030 compared to 2029 due primarily to higher volumes. Gross "
    "margin percentage decreased year-over-year due primarily to higher product costs."
)


def test_a_sentence_about_the_year_before_is_not_the_years_cause():
    """A 10-K explains the year, then the year before, in the same words: a sentence is
    about the year it names, or the year the sentence before it names, and one about an
    earlier year than another's is not the asked year's. "year-over-year" says how the
    figure moved, not whose it is."""
    found = quoted_cause(MARGIN_ASKED, [_page(YEAR_BEFORE, 29), _page(THIS_YEAR, 28)])
    assert found is not None
    page, sentence = found
    assert page.page_index == 28
    assert sentence == (
        "Gross margin percentage decreased year-over-year due primarily to higher product cost "
        "structures."
    )
    # alone, the year before's sentences are several and of no year to set them against
    assert quoted_cause(MARGIN_ASKED, [_page(YEAR_BEFORE, 29)]) is None


def test_a_basis_and_a_span_say_nothing_of_whose_figure_and_non_operating_is_no_operating():
    """Oracle's FY2019 operating margin sentence opens "In constant currency" and runs
    "during fiscal 2019 relative to fiscal 2018": still the company's; its "non-operating
    income, net decreased … due to" explains another figure."""
    asked = "What drove the change in Acme's operating margin in FY2031?"
    company = (
        "In constant currency, our total operating margin increased during fiscal 2031 "
        "relative to fiscal 2030 primarily due to the increase in revenues."
    )
    other = (
        "On a constant currency basis, our non-operating income, net decreased in fiscal 2031 "
        "compared to fiscal 2030 primarily due to decreases in other income."
    )
    assert not gives_cause(other, asked)
    assert quoted_cause(asked, [_page(company), _page(other, 41)])[1] == company


def test_a_gross_margin_is_explained_by_its_cost_of_sales_where_not_by_itself():
    """eBay explains no gross margin, but its cost of net revenues: a cost that rose is a
    margin that fell. Where the filing explains the margin itself, that sentence is quoted."""
    asked = "What drove the decline in Acme's gross margin in FY2031?"
    cost = (
        "The increase in cost of net revenues in 2031 compared to 2030 was primarily due to "
        "higher payment processing costs."
    )
    assert quoted_cause(asked, [_page(cost)])[1] == cost
    assert not gives_cause(cost.replace("increase", "decrease"), asked)  # a margin that rose
    own = "Gross margin decreased in 2031 compared to 2030 due primarily to a shift in mix."
    assert quoted_cause(asked, [_page(cost), _page(own, 41)])[1] == own
    assert "cost of sales revenues" in cause_query(asked)


def test_only_a_cause_of_one_named_figure_is_asked():
    assert asks_cause(ASKED)
    assert not asks_cause("What was SG&A expense in FY2023?")
    assert not asks_cause("Why did gross margin and SG&A change in FY2023?")  # two figures
    caveat = "If gross margin is not a useful metric for it, state that and explain why."
    assert not asks_cause(f"Does Shop have an improving gross margin profile? {caveat}")
    assert asks_cause(f"What drove gross margin change as of FY2022 for Shop? {caveat}")
    assert asks_cause("What drove revenue change as of FY22 for Shop?")
    assert asks_cause("Why did net sales fall in FY2023?")
    assert not asks_cause("Why did sales and marketing expense rise?")  # no revenue
    assert not asks_cause("Why did gross margin and net sales fall?")  # two figures


class _Searcher:
    """One page of the slice, whatever the query."""

    def search(self, query, where=None, k=5):
        return [
            Hit(
                uid="0123456789ab",
                page_id=7,
                doc_label="SHOP 10-K FY2023",
                doc_name="SHOP",
                ticker="SHOP",
                fy=2023,
                fq=4,
                doc_type="10K",
                page_index=40,
                score=1.0,
                text=f"Results.\n{QUARTER}\n{ANNUAL}",
            )
        ]


def test_the_probe_loop_closes_the_questions_probe_with_the_sentence_and_no_model_call():
    calls: list[str] = []

    def never(**_):
        calls.append("model")
        raise AssertionError("no model call")

    loop = ProbeLoop(never, never, _Searcher(), max_rounds=2, k=3)  # type: ignore[arg-type]
    ref = SliceRef(ticker="SHOP", fy=2023, fq=4)
    outcome = loop.run(ASKED, ref, Probe(probe_title="The question", probe_question=ASKED), 1)
    assert outcome.answer.answer.body == f"In the filing's words: “{ANNUAL}”¹"
    assert outcome.record["answered_by"] == "the filing's sentence"
    assert outcome.record["citations"] == ["0123456789ab"] and outcome.answer.rounds == 0
    assert calls == []
    # a probe the model wrote beside the question is researched as before
    other = Probe(probe_title="Marketing", probe_question="How did marketing spend change?")
    loop.run(ASKED, ref, other, 2)
    assert calls == ["model"]


def test_the_cause_is_also_searched_in_the_filings_own_words():
    """FedEx's FY2023 10-K says "Operating income declined in 2023 primarily due to lower
    volumes …" on a page the question's own words ranked below each segment's discussion;
    a search in the filing's words ("operating income decreased declined primarily due
    to") finds it, and code quotes it."""
    asked = "Why did Acme's operating income decline in FY2031?"
    assert cause_query(asked) == "operating income decreased declined primarily due to"
    assert cause_query("What drove Acme's revenue change?") == (
        "revenue increased decreased primarily due to"
    )
    assert cause_query("What was Acme's revenue?") is None
    segment = _page("Ground segment operating income increased 19% due to yield.")
    company = _page("Operating income declined in 2031 primarily due to lower volumes.", 55)
    queries: list[str] = []

    def search(query, where):
        queries.append(query)
        return [company] if "primarily due to" in query else [segment]

    page, answer, by = page_answer(asked, SliceRef(ticker="ACME", fy=2031, fq=4), search)
    assert (page.page_index, by) == (55, "the filing's sentence")
    assert "lower volumes" in answer.body and queries[0] == asked


def test_a_cause_of_this_increase_is_quoted_with_the_change_it_explains():
    """Filings state a change and give its cause in the next sentence ("This increase was
    partially due to …"): the two are one answer. A sentence that already gives its own
    cause is not joined to the next, and "This increase" alone names no figure."""
    change = "During 2031, net cash provided by operating activities increased by $1.4 billion."
    cause = "This increase was partially due to higher base revenues and lower maintenance costs."
    asked = "What drove the change in Acme's operating cash flow from FY2030 to FY2031?"
    _, sentence = quoted_cause(
        asked, [_page(f"Cash flows are receipts less payments. {change} {cause}")]
    )
    assert sentence == f"{change} {cause}"
    assert not gives_cause(cause, asked)
    caused = change.replace(".", " due to higher collections.")
    assert quoted_cause(asked, [_page(f"{caused} {cause}")])[1] == caused
    assert quoted_cause(asked, [_page(f"Revenue increased 5%. {cause}")]) is None


def test_a_cash_flow_asked_is_explained_by_its_own_activity():
    """The cash flow statement's three activities each have their cause; "operating cash
    flow" asked is not explained by investing's."""
    operating = "Net cash provided by operating activities increased due to higher collections."
    investing = "Net cash used in investing activities increased due to higher capital spending."
    asked = "What drove the change in Acme's operating cash flow in FY2031?"
    assert gives_cause(operating, asked) and not gives_cause(investing, asked)
    assert quoted_cause(asked, [_page(f"{investing} {operating}")])[1] == operating
    assert gives_cause(investing, "Why did Acme's cash flow change in FY2031?")


def test_a_yes_no_question_names_no_direction_the_cause_must_take():
    """ "Did Oracle's operating cash flow increase in FY2022, and what drove it?": it fell,
    and the 10-K's "… decreased … primarily due to lower net income" is the cause to quote;
    "Why did it increase?" says it rose, and a sentence on a decrease is not its cause."""
    fell = (
        "Net cash provided by operating activities decreased in 2031 primarily due to "
        "lower net income."
    )
    assert gives_cause(
        fell, "Did Acme's operating cash flow increase in FY2031, and what drove it?"
    )
    assert not gives_cause(fell, "Why did Acme's operating cash flow increase in FY2031?")
    assert cause_query("Did Acme's operating income increase, and why?") == (
        "operating income increased decreased primarily due to"
    )


def test_a_cost_explained_below_its_table_is_a_gross_margins_cause():
    """eBay explains no gross margin but its cost of net revenues, right below that cost's
    table, with no stop between the table's last figure and the sentence; beside it, the
    size of one effect ("favorably impacted by $7 million attributable to …") is no cause,
    and "The increase in product development expenses …" names its own figure, so it is
    not read with the sentence before it."""
    cause = (
        "The increase in cost of net revenues in 2031 compared to 2030 was primarily due to "
        "an increase in payment processing costs."
    )
    page = _page(
        "The following table presents cost of net revenues: 2031 % Change 2030 Cost of net "
        f"revenues $ 2,473 16 % $ 2,136 As a percentage of net revenues 24.7 % 23.4 % {cause} "
        "Cost of net revenues was favorably impacted by $7 million attributable to foreign "
        "currency movements in 2031. Some costs are reflected as a cost of net revenues. "
        "The increase in product development expenses in 2031 was primarily due to "
        "employee-related costs."
    )
    asked = "What drove the change in Acme's gross margin from FY2030 to FY2031?"
    assert quoted_cause(asked, [page])[1] == cause


def test_a_segments_cause_told_under_its_acronym_is_not_the_companys():
    """Intel's 10-K explains NSG's operating profit under NSG's heading: "NSG had an
    operating profit of $361 million … The operating profit was driven by $716 million
    higher ASPs …"; the second sentence, read alone, named no one, and was quoted as
    Intel's operating margin's cause. Read with the sentence before, it is NSG's; asked of
    NSG, it is the answer."""
    page = _page(
        "NSG had an operating profit of $361 million, up from an operating loss of $1.2 "
        "billion in 2030. The operating profit was driven by $716 million higher ASPs from "
        "market pricing recovery and continued improvements in unit cost."
    )
    assert quoted_cause("What drove Acme's operating margin change in FY2031?", [page]) is None
    found = quoted_cause("What drove NSG's operating profit change in FY2031?", [page])
    assert found is not None and found[1].startswith("NSG had an operating profit")
    gaap = "GAAP revenue increased 5% in 2031 primarily due to higher volumes."
    assert gives_cause(gaap, "What drove Acme's revenue change in FY2031?")
