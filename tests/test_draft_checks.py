"""Code's floor under the reviewer: a self-contradicting draft or one that answers another
figure than asked is sent back with the reason; a follow-up becomes a new query, and one
that names nothing new ends the loop instead of a round that changes nothing."""

from __future__ import annotations

import dspy
import pytest
from cited import cited_answer
from scripted_lm import ScriptedLM

from citations.markup import Citation, CitedAnswer, Footnote, ReferenceList
from programs.draft_checks import (
    PASTED_DRAFT,
    contradicts_itself,
    draft_problem,
    drop_dangling_lead_in,
    drop_pasted_formulas,
    drop_repeats,
    leaves_cause_unstated,
    leaves_level_unfigured,
    pasted_verdict,
)
from programs.research_program import ResearchProgram, ResearchSettings
from retrieval.search.query import follow_up_query


def _draft(body: str) -> CitedAnswer:
    return CitedAnswer(body=body)


@pytest.mark.parametrize(
    ("body", "contradicts"),
    [
        ("Yes, working capital was positive¹. No, it was negative in FY2022².", True),
        ("**Yes.** Liquidity is healthy¹.\n\nNo. The quick ratio is 0.6².", True),
        ("Yes. Working capital was $831 million¹.", False),
        ("No. The company paid no dividend in Q2¹. There is no longer a buyback².", False),
    ],
)
def test_contradiction(body, contradicts):
    assert contradicts_itself(body) is contradicts


@pytest.mark.parametrize(
    ("question", "body", "problem"),
    [
        ("Is it profitable?", "Yes, it is¹. No, margins fell².", "both yes and no"),
        ("What was the FY2022 operating margin?", "Operating income was $6,539 million¹.",
         "asks for a percentage"),
        ("What was the FY2022 operating margin?", "Operating margin was 19.2%¹.", None),
        ("What drove the operating margin change?", "Higher costs of $1.2 billion¹.", None),
        ("What percent of the year's buybacks occurred in Q4?",
         "Repurchases in Q4 were $900 million¹.", "asks for a percentage"),
        ("What share of revenue came from services?", "Services were $4.1 billion¹.",
         "asks for a percentage"),
        ("What share of revenue came from services?", "Services were 12% of revenue¹.", None),
        ("What portion of the debt matures in 2025?", "$1.2 billion matures in 2025¹.", None),
        ("What is the average operating margin for FY2020-FY2022?",
         "Operating margin was 19.2% in FY2022¹.", "asks for an average"),
        ("What is the average operating margin for FY2020-FY2022?",
         "The three-year average operating margin was 20.1%¹.", None),
        # another line of the statements than the one asked about
        ("What drove the reduction in SG&A expense as a percent of net sales?",
         "Gross profit was flat at 38.0%, primarily due to these factors¹.",
         "asks about SG&A; the draft speaks of gross profit"),
        ("What drove the reduction in SG&A expense?",
         "SG&A fell on lower marketing expenses¹.", None),
        ("What drove net income growth in FY2022?",
         "Net income rose on higher operating income and a lower tax rate¹.", None),
        ("What drove the change in EPS?", "Revenue grew 5% on higher prices¹.", None),
        # figures of a measure the draft never names as asked
        ("Is growth in Acme's adjusted EPS expected to accelerate in FY2031?",
         "Yes, operational sales growth of 4.6% is expected to rise to 6.1%¹.",
         "asks about EPS; the draft's figures are not EPS's"),
        ("Is growth in Acme's adjusted EPS expected to accelerate in FY2031?",
         "No, adjusted earnings growth slows from 3.6% to 3.5%¹.", None),
        ("Is Acme's gross margin improving?", "Yes, margin rose from 40% to 42%¹.", None),
        ("Is Acme's gross margin improving?", "Yes, revenue rose 8% to $5 billion¹.",
         "asks about gross profit; the draft's figures are not gross profit's"),
        ("Is Acme's gross margin improving?", "Yes, it is improving¹.", None),  # no figures
        # the question's words repeated, the figures another measure's; a caveat asks no cause
        ("Does Acme have an improving gross margin profile? If gross margin is not a useful "
         "metric for a company like this, then state that and explain why.",
         "Yes, Acme has an improving gross margin profile. Its operating margin rose from "
         "18% to 26%¹.", "the draft's figures are not gross profit's"),
        ("Does Acme have an improving gross margin profile?",
         "Yes: its gross margin rose from 40% to 42%, as operating margin rose to 26%¹.", None),
        # an amount asked, only a rate's change given
        ("How much restructuring charges did Acme record in Q1 FY2031?",
         "Acme recorded restructuring charges of (860) bps in Q1 FY2031¹.", "asks for an amount"),
        ("How much restructuring charges did Acme record in Q1 FY2031?",
         "Acme recorded $1,090 million of restructuring charges, 8.6% of revenue¹.", None),
        ("How much has Acme's effective tax rate changed?",
         "The effective tax rate rose from 20% to 23%¹.", None),
        # a count of other things than the ones asked
        ("How many employees did Acme have at the end of FY2031?",
         "Acme had 134 million active buyers and 1.7 billion live listings¹.",
         "asks how many employees; the draft counts other things"),
        ("How many employees did Acme have at the end of FY2031?",
         "Acme had approximately 11,600 employees globally¹.", None),
        ("How many people did Acme employ in FY2031?", "Acme had 2.1 million associates¹.", None),
        ("How many stores did Acme operate in FY2031?", "Acme had 8.2 million members¹.",
         "asks how many stores"),
        ("How many stores did Acme operate in FY2031?", "Acme operated 1,355 locations¹.", None),
        ("How many units did Acme ship in FY2031?", "Acme shipped 4.2 million cars¹.", None),
        # a yes to "was there any …?" on a cited sentence that names none of it
        ("Did Acme record any impairment of goodwill in FY2031?",
         "Yes, Acme recorded impairment of goodwill in FY2031. Acme recorded approximately "
         "$337 million of goodwill attributed to the assembled workforce¹.",
         "asks whether there was any impairment of goodwill"),
        ("Did Acme record any impairment of goodwill in FY2031?",
         "Yes. Acme recognized a goodwill impairment of $1.2 billion in FY2031¹.", None),
        ("Did Acme record any impairment of goodwill in FY2031?",
         "No. Acme's goodwill was not impaired in FY2031¹.", None),
        # no accounting item asked: a qualifier or a filing's other words are no test
        ("Does Acme have any significant customer concentration in FY2031?",
         "Yes. Two customers accounted for 39% of revenue¹.", None),
    ],
)  # fmt: skip
def test_draft_problem(question, body, problem):
    found = draft_problem(question, _draft(body))
    assert (found is None) if problem is None else (problem in found)


@pytest.mark.parametrize(
    ("question", "body", "unstated"),
    [
        # two asks, the second answered by nobody
        ("Did Acme report a net loss in Q1 2031, and what drove its revenue change?",
         "Yes: net income was -$2,758 million¹.", True),
        ("Did Acme report a net loss in Q1 2031, and what drove its revenue change?",
         "Yes: net income was -$2,758 million¹. Revenue fell 36%, primarily due to lower "
         "PC demand².", False),
        # a cause given to another figure than the one asked about
        ("Did Acme report a net loss in Q1 2031, and what drove its revenue change?",
         "Yes: net income was -$2,758 million¹. The loss was primarily due to restructuring².",
         True),
        # the sentence before names what the cause is of
        ("Did Acme report a net loss in Q1 2031, and what drove its revenue change?",
         "Revenue fell 36%¹. This decline was driven by lower PC demand².", False),
        ("Why did Acme's revenue fall in FY2031?", "Revenue fell 20% on weaker demand¹.", False),
        ("Why did Acme's revenue fall in FY2031?", "Revenue was $63.1 billion¹.", True),
        ("What factors drove the gross margin change?", "Gross margin was 42%¹.", True),
        ("What were the reasons for the restructuring?",
         "The plan reflects a reorganisation of the sales force¹.", False),
        # no cause asked: the caveat's "explain why" is no question of what drove a figure
        ("Does Acme have positive working capital? If working capital is not a useful metric, "
         "then state that and explain why.", "Yes: working capital was $831 million¹.", False),
        ("How much did Acme pay in dividends?", "Dividends paid were $4.1 billion¹.", False),
    ],
)  # fmt: skip
def test_an_unanswered_cause_is_found(question, body, unstated):
    assert leaves_cause_unstated(question, _draft(body)) is unstated


@pytest.mark.parametrize(
    ("question", "body", "unfigured"),
    [
        # the level repeated, and a figure of another kind beside it
        ("Is Acme's FY2031 interest coverage ratio above 10?",
         "Yes, Acme's interest coverage ratio is above 10¹. It generated $7.7 billion of "
         "operating cash flow².", True),
        ("Is Acme's FY2031 interest coverage ratio above 10?", "No: it was 4.7 times¹.", False),
        ("Is Acme's operating margin above 40% in FY2031?", "Yes, it is above 40%¹.", True),
        ("Is Acme's operating margin above 40% in FY2031?",
         "Yes: operating margin of 40.4% is above 40%¹.", False),
        ("Did Acme's revenue exceed $40 billion in FY2031?", "Yes, it exceeded $40 billion¹.",
         True),
        ("Did Acme's revenue exceed $40 billion in FY2031?", "Yes: revenue was $42.4 billion¹.",
         False),
        # no level, or no yes/no: nothing to check
        ("Is Acme's operating margin healthy?", "Yes, it is healthy¹.", False),
        ("Which segments had more than 20% of revenue?", "Services did¹.", False),
    ],
)  # fmt: skip
def test_a_side_of_a_level_needs_the_figure(question, body, unfigured):
    assert leaves_level_unfigured(question, _draft(body)) is unfigured


class CauseLaterLM(ScriptedLM):
    """Drafts name no cause until the feedback asks for one; then the second draft does."""

    def __init__(self, gives_cause_when_asked: bool) -> None:
        super().__init__()
        self.gives_cause_when_asked = gives_cause_when_asked

    def _researcher_extract(self, inputs):
        drafted = super()._researcher_extract(inputs)
        if self.gives_cause_when_asked and inputs.get("reviewer_feedback"):
            drafted["answer_markdown"] += " Revenue fell, primarily due to lower demand [1]."
        return drafted


@pytest.mark.parametrize("gives_cause", [True, False])
def test_a_draft_that_gives_no_cause_for_a_what_drove_question_is_sent_back(searcher, gives_cause):
    question = "Did 3M pay dividends in FY2022, and what drove its revenue change?"
    probe = _probe_records(searcher, CauseLaterLM(gives_cause), question)
    first = probe["rounds"][0]
    assert first["verdict"]["done"] is False  # the reviewer accepted; code sent it back
    assert "gives no cause" in first["verdict"]["follow_up_prompts"][0]
    if gives_cause:
        assert len(probe["rounds"]) == 2 and probe["status"] == "accepted"
    else:  # sent back until the last round, which closes under a dagger naming the question
        assert len(probe["rounds"]) == 3 and probe["status"] == "insufficient_evidence"
        assert probe["reason"] == "the question asks what drove it and the answer gives no cause"


@pytest.mark.parametrize(
    ("follow_up", "query"),
    [
        ("The draft does not directly answer the probe question.", None),
        ("Try again.", None),
        ("Find the exact figure.", None),
        ("Cite the cash flow statement's purchases of PP&E.",
         "cash flow statement's purchases PP&E"),
        ("The draft should state the segment operating income for Safety and Industrial.",
         "segment operating income Safety Industrial"),
    ],
)  # fmt: skip
def test_a_follow_up_becomes_a_query_or_nothing(follow_up, query):
    assert follow_up_query(follow_up, "What was 3M's capital expenditure in FY2022?") == query


def test_a_follow_up_that_repeats_what_was_asked_names_nothing_new():
    asked = "What was 3M's segment operating income in FY2022?"
    assert follow_up_query("State the segment operating income.", asked) is None
    # the reviewer's words about an explanation are no new search (a default run's round 2
    # searched "explanation operating margin useful … without justification context")
    asked = "What drove operating margin change as of FY2022 for 3M?"
    follow_up = (
        "The explanation of the operating margin change is without justification or context."
    )
    assert follow_up_query(follow_up, asked) is None
    # nor are its words about where a number appears (a default run's search, word for word)
    follow_up = "Every numeric figure must appear on the primary page of the filing's tables."
    assert follow_up_query(follow_up, asked) is None


class ContradictingLM(ScriptedLM):
    """The first draft says yes and no; a draft written after feedback answers once."""

    def _researcher_extract(self, inputs):
        drafted = super()._researcher_extract(inputs)
        if not inputs.get("reviewer_feedback"):
            drafted["answer_markdown"] = "Yes. " + drafted["answer_markdown"] + " No."
        return drafted


def _probe_records(searcher, lm, question):
    settings = ResearchSettings(figures=False, max_probes=1, max_rounds=3)
    program = ResearchProgram(searcher, settings=settings)
    with dspy.context(lm=lm):
        pred = program(question=question)
    return pred.record["slices"][0]["probes"][0]


def test_a_self_contradicting_draft_is_sent_back_with_the_reason(searcher):
    probe = _probe_records(searcher, ContradictingLM(), "Did 3M pay dividends in FY2022?")
    first, second = probe["rounds"][:2]
    assert not first["verdict"]["done"]
    assert "both yes and no" in first["verdict"]["follow_up_prompts"][0]
    assert second["follow_up_prompts"] == first["verdict"]["follow_up_prompts"]
    assert second["verdict"]["done"] and probe["status"] == "accepted"


def test_follow_ups_that_name_nothing_end_the_loop_at_once(searcher):
    lm = ScriptedLM(reviewer="never_done")  # "Try again.", "More.", ...
    probe = _probe_records(searcher, lm, "Did 3M pay dividends in FY2022?")
    assert len(probe["rounds"]) == 1 and probe["status"] == "insufficient_evidence"
    assert lm.calls["reviewer"] == 1


def test_a_sentence_naming_one_company_and_citing_anothers_filing_is_removed():
    from citations.markup import Citation, Footnote, ReferenceList
    from programs.company_check import drop_misattributed
    from retrieval.companies import load_companies

    def footnote(n: int, label: str) -> Footnote:
        citation = Citation(uid=f"{n:012d}", doc_label=label, page_index=1, page_id=n)
        return Footnote(number=n, citation=citation)

    answer = CitedAnswer(
        body=(
            "3M's capital expenditure was $1,749 million¹. "
            "PepsiCo's capital expenditure was $1,749 million¹. "
            "PepsiCo spent $5,207 million². Both grew¹²."
        ),
        references=ReferenceList(
            footnotes=[footnote(1, "MMM 10-K FY2022"), footnote(2, "PEP 10-K FY2022")]
        ),
    )
    kept, removed = drop_misattributed(answer, load_companies())
    assert removed == 1
    assert kept.body == (
        "3M's capital expenditure was $1,749 million¹. PepsiCo spent $5,207 million². Both grew¹²."
    )


def test_a_ranking_that_names_a_company_without_a_figure_is_removed():
    """eBay against Activision Blizzard's gross margin: code read eBay's, none for
    Activision Blizzard, and the composer ranked Activision Blizzard higher anyway."""
    from domain.cells import SliceRef
    from programs.company_check import drop_unfigured_rankings
    from retrieval.companies import load_companies
    from signatures.synthesiser import Figure, ProbeAnswer, SliceReport

    margin = Figure(title="Gross margin", period="FY2022", value=0.726, unit="%", text="72.6%")
    figured = ProbeAnswer(index=1, probe_title="margin", probe_question="?", figures=[margin])
    researched = ProbeAnswer(index=1, probe_title="The question", probe_question="?")
    slices = [
        SliceReport(slice=SliceRef(ticker="PEP", fy=2022, fq=4), probe_answers=[figured]),
        SliceReport(slice=SliceRef(ticker="MMM", fy=2022, fq=4), probe_answers=[researched]),
    ]
    answer = cited_answer(
        "PepsiCo's gross margin in FY2022 was 72.6%.¹ 3M had a higher gross margin compared "
        "to PepsiCo.¹ 3M makes adhesives.¹"
    )
    kept, removed = drop_unfigured_rankings(answer, slices, load_companies())
    assert removed == 1
    assert kept.body == "PepsiCo's gross margin in FY2022 was 72.6%.¹ 3M makes adhesives.¹"
    both = [
        slices[0],
        slices[0].model_copy(update={"slice": SliceRef(ticker="MMM", fy=2022, fq=4)}),
    ]
    assert drop_unfigured_rankings(answer, both, load_companies()) == (answer, 0)


def test_a_figure_the_facts_hold_is_checked_against_them():
    from domain.cells import SliceRef
    from programs.figure_check import drop_contradicting
    from retrieval.companies import load_companies
    from signatures.synthesiser import Figure, ProbeAnswer, SliceReport

    def report(ticker: str, value: float, text: str) -> SliceReport:
        figure = Figure(
            title="Capital expenditure", period="FY2022", value=value, unit="USD", text=text
        )
        probe = ProbeAnswer(index=1, probe_title="capex", probe_question="?", figures=[figure])
        return SliceReport(slice=SliceRef(ticker=ticker, fy=2022, fq=4), probe_answers=[probe])

    slices = [report("MMM", 1_749e6, "$1,749 million"), report("PEP", 5_207e6, "$5,207 million")]
    answer = CitedAnswer(
        body=(
            "3M's capital expenditure in FY2022 was $1,749 million¹. "
            "PepsiCo's capital expenditure was $1,749 million². "
            "PepsiCo's capital expenditure was 12% of its cash flow². "
            "3M's capital expenditure was lower than PepsiCo's¹²."
        )
    )
    kept, removed = drop_contradicting(answer, slices, load_companies())
    assert removed == 1
    assert "PepsiCo's capital expenditure was $1,749 million" not in kept.body
    assert "3M's capital expenditure in FY2022 was $1,749 million¹." in kept.body
    assert "12% of its cash flow" in kept.body  # a percentage is not the amount's kind


@pytest.mark.parametrize(
    ("raw", "pasted"),
    [
        # Intel's segments: the blocks pasted on the lead-in's own line
        (
            "Intel's segments include the following: [1] INTC 10-K FY2020 p.87: … ▪ Historical "
            "results [2] INTC 10-K FY2020 p.37: Market and Business Overview",
            True,
        ),
        (
            "Intel's segments include the following:\n[1] INTC 10-K FY2020 p.87: … ▪ Historical",
            True,
        ),
        # a sentence citing its page by hit number is no pasted block
        ("Intel reports six operating segments [1]. Revenue was $77.9 billion [2].", False),
    ],
)
def test_a_pasted_evidence_block_is_sent_back_wherever_it_starts(raw, pasted):
    lead_in = CitedAnswer(body="Intel's segments include the following:¹")
    verdict = pasted_verdict(raw, 2, lead_in)
    assert (verdict is not None) is pasted
    if pasted:
        assert verdict.follow_up_prompts == [PASTED_DRAFT]


def test_a_lead_in_left_with_nothing_after_it_goes():
    """Intel's segments: the pasted list went, and "… include the following:" was accepted."""
    lead_in = cited_answer("The major product lines of Intel include the following:¹")
    kept, dropped = drop_dangling_lead_in(lead_in)
    assert dropped == 1 and kept.body == "" and not kept.references.footnotes
    stopped = cited_answer(
        "Intel reported a net loss of $2,758 million.¹ The company's revenue change was "
        "driven by the following factors:¹˒²."
    )
    kept, dropped = drop_dangling_lead_in(stopped)
    assert dropped == 1 and kept.body == "Intel reported a net loss of $2,758 million.¹"
    after = cited_answer("Intel reports six segments:¹ DCG, IOTG, Mobileye, NSG, PSG and CCG.¹")
    assert drop_dangling_lead_in(after) == (after, 0)
    ended = cited_answer("Revenue was $77.9 billion.¹ It was a record.¹")
    assert drop_dangling_lead_in(ended) == (ended, 0)


@pytest.mark.parametrize(
    "stub",
    ["The evidence cites", "The page shows", "As the 10-K states", "This is stated in¹ and²"],
)
def test_a_short_sentence_that_stops_at_its_verb_goes_wherever_it_stands(stub):
    """Oracle's headcount: "… The evidence cites [1] ORCL 10-K FY2022 p.53: …" lost its
    pasted page reference and left "The evidence cites¹"."""
    answer = cited_answer(f"{stub}.¹ Oracle employed about 143,000 people.¹")
    kept, dropped = drop_dangling_lead_in(answer)
    assert dropped == 1 and kept.body == "Oracle employed about 143,000 people.¹"
    told = cited_answer("Revenue rose in FY2022, as the segment table of the 10-K shows.¹")
    assert drop_dangling_lead_in(told) == (told, 0)


@pytest.mark.parametrize(
    "empty",
    ["a combination of factors", "various factors", "several reasons", "a number of issues"],
)
def test_a_cause_that_names_nothing_goes(empty):
    """Intel's FY2022 revenue decline: "… declined in FY2022 due to a combination of
    factors¹." was accepted as the cause."""
    answer = cited_answer(
        f"Intel's revenue declined in FY2022 due to {empty}.¹ Client revenue fell 36%.¹"
    )
    kept, dropped = drop_dangling_lead_in(answer)
    assert dropped == 1 and kept.body == "Client revenue fell 36%.¹"
    named = cited_answer("Revenue fell due to several factors, chiefly lower PC demand.¹")
    assert drop_dangling_lead_in(named) == (named, 0)


@pytest.mark.parametrize(
    "cut",
    [
        "The increase was due to lower purchases of marketable securities and",
        "The gain came from the sale of three facilities in Russia (",
        "Margins rose as a result of higher prices and the",
    ],
)
def test_a_sentence_cut_off_at_a_word_that_wants_more_goes(cut):
    """Oracle's operating cash flow: "The increase was primarily due to a decrease in the
    cash used for the purchases of marketable securities and²˒³." stood as a finding."""
    answer = cited_answer(f"{cut}.¹ Operating cash flow fell 40%.¹")
    kept, dropped = drop_dangling_lead_in(answer)
    assert dropped == 1 and kept.body == "Operating cash flow fell 40%.¹"
    whole = cited_answer("Revenue rose on higher prices, volumes and mix.¹ It fell in 2020.¹")
    assert drop_dangling_lead_in(whole) == (whole, 0)


def test_a_sentence_in_the_calculators_notation_goes():
    """Intel's inventory turnover: code's formula pasted from its calculation."""
    answer = cited_answer(
        "Yes, inventory turnover is a meaningful metric for Intel.¹ The formula used is: "
        "Inventory turnover = |cost of revenue| ÷ average(inventory, inventory FY2019)).¹"
    )
    kept, dropped = drop_pasted_formulas(answer)
    assert (
        dropped == 1 and kept.body == "Yes, inventory turnover is a meaningful metric for Intel.¹"
    )
    prose = cited_answer("Turnover was 3.99, cost of revenue divided by average inventory.¹")
    assert drop_pasted_formulas(prose) == (prose, 0)


def test_a_sentence_said_twice_goes_once():
    """PG&E's dividends: the same sentence, cited to two pages, stood twice in the report;
    the second goes, with the footnote only it marked."""
    twice = "PG&E Corporation paid no dividends on preferred stock in 2021 or 2020."
    answer = cited_answer(f"{twice}¹ {twice}²")
    second = Footnote(number=2, citation=Citation(uid="1b2c3d4e5f60", doc_label="ACME 10-K FY2030",
                                                  page_index=23, page_id=8))  # fmt: skip
    answer = answer.model_copy(
        update={"references": ReferenceList(footnotes=[*answer.references.footnotes, second])}
    )
    kept, dropped = drop_repeats(answer)
    assert dropped == 1 and kept.body == f"{twice}¹"
    assert [f.number for f in kept.references.footnotes] == [1]
    other = cited_answer("Revenue rose 5% in FY2030.¹ Revenue rose 7% in FY2031.¹")
    assert drop_repeats(other) == (other, 0)  # a figure of its own is no repeat


@pytest.mark.parametrize("heading", ["Sources¹,²,³†", "Notes:", "**Sources**¹"])
def test_a_heading_written_into_the_prose_goes(heading):
    """A composed Oracle answer ended on "Sources¹,²,³†", the report's heading as prose."""
    answer = cited_answer(f"Operating cash flow fell 40%.¹ {heading}")
    kept, dropped = drop_dangling_lead_in(answer)
    assert dropped == 1 and kept.body.strip() == "Operating cash flow fell 40%.¹"
    one_word = cited_answer("Yes.¹ Operating cash flow fell 40%.¹")
    assert drop_dangling_lead_in(one_word) == (one_word, 0)
