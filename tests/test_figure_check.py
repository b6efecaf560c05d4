"""Within a slice, a researched draft may not give the slice's computed figure another value:
the figure read from the statements wins over a small model's copy of it."""

from __future__ import annotations

import dspy
from scripted_lm import ScriptedLM

from citations.markup import Citation, CitedAnswer, Footnote, ReferenceList
from domain.cells import SliceRef
from programs.claim_check import check_figures
from programs.figure_check import drop_contradicting_in_slice
from programs.research_program import ResearchProgram, ResearchSettings
from signatures.synthesiser import Figure

QUICK = Figure(title="Quick ratio", period="FY2022", value=0.5405, unit="ratio", text="0.54")


def test_a_sentence_giving_the_slices_figure_another_value_is_removed():
    answer = CitedAnswer(
        body=(
            "Verizon's quick ratio was 1.87 at year end¹. "
            "The quick ratio was 0.54¹. "
            "Current liabilities include $9,963 million of debt maturing within one year¹. "
            "A quick ratio below 1 means quick assets do not cover current liabilities¹."
        )
    )
    kept, removed = drop_contradicting_in_slice(answer, [QUICK])
    assert removed == 1
    assert "1.87" not in kept.body
    assert "The quick ratio was 0.54¹." in kept.body
    assert "$9,963 million" in kept.body  # another figure: not the quick ratio's to judge
    assert "below 1 means" in kept.body  # a benchmark the figure is compared with stays


def test_a_ratio_given_a_percent_sign_is_removed():
    """A debt-to-equity ratio of 84.33 is 84 times equity; "84.33%" says 0.84 times, with
    the figure's own digits, which the check of amounts alone would pass."""
    ratio = Figure(
        title="Debt-to-equity ratio", period="FY2023", value=84.331, unit="ratio", text="84.33"
    )
    right = "Oracle's debt-to-equity ratio in FY2023 was 84.33¹."
    wrong = "Oracle's debt-to-equity ratio rose to 84.33% in FY2023¹."
    kept, removed = drop_contradicting_in_slice(CitedAnswer(body=f"{right} {wrong}"), [ratio])
    assert removed == 1 and kept.body.strip() == right
    other = "The debt-to-equity ratio was 84.33, and revenue grew 12.5%¹."
    assert drop_contradicting_in_slice(CitedAnswer(body=other), [ratio])[1] == 0


def test_a_figure_named_in_words_its_title_abbreviates_is_checked_too():
    """Intel's draft: "capital expenditure as a percentage of revenue was 39.4%, which
    represents approximately 15% of its annual sales" beside code's capex ratio of 39.4%."""
    capex = Figure(
        title="Capex as % of revenue", period="FY2022", value=0.394, unit="ratio", text="39.4%"
    )
    wrong = (
        "The company's total capital expenditure as a percentage of revenue was 39.4%, which "
        "represents approximately 15% of its annual sales¹."
    )
    right = "Capital spending came to 39.4% of revenue¹."
    kept, removed = drop_contradicting_in_slice(CitedAnswer(body=f"{wrong} {right}"), [capex])
    assert removed == 1 and kept.body.strip() == right


MARGIN_CHANGE = Figure(
    title="Change in operating margin", period="FY2022", value=-0.01739, unit="ratio", text="-1.7%"
)


def test_a_drivers_effect_on_the_figure_and_its_rounded_value_are_not_another_value():
    """What drove a margin that fell 1.7 points: a driver's effect of 0.3 points is not the
    change, and "-1.7%" is code's own figure rounded (2% off the value, within its decimal)."""
    kept_sentences = [
        "The change in operating margin was driven by declines in respirator demand, "
        "negatively impacting operating margins by 0.3 percent¹.",
        "Pricing was a 0.5 percentage point tailwind to the change in operating margin¹.",
        "The change in operating margin in FY2022 was -1.7%¹.",
    ]
    wrong = "The change in operating margin in FY2022 was -0.3%¹."
    answer = CitedAnswer(body=" ".join([*kept_sentences, wrong]))
    kept, removed = drop_contradicting_in_slice(answer, [MARGIN_CHANGE])
    assert removed == 1 and wrong not in kept.body
    assert all(sentence in kept.body for sentence in kept_sentences)


def test_a_margins_change_in_percentage_points_is_stated_in_points():
    points = MARGIN_CHANGE.model_copy(update={"text": "-1.7 percentage points"})
    right = "The change in operating margin was a fall of 1.7 percentage points¹."
    wrong = "The change in operating margin was a fall of 0.3 percentage points¹."
    kept, removed = drop_contradicting_in_slice(CitedAnswer(body=f"{right} {wrong}"), [points])
    assert removed == 1 and kept.body.strip() == right


def test_a_removed_sentence_takes_the_footnote_only_it_marked():
    def foot(number: int) -> Footnote:
        page = Citation(
            uid=f"{number:012d}", doc_label="MMM 10-K FY2022", page_index=number, page_id=number
        )
        return Footnote(number=number, citation=page)

    answer = CitedAnswer(
        body="The change in operating margin in FY2022 was -0.3%². Sales fell 3%¹.",
        references=ReferenceList(footnotes=[foot(1), foot(2)]),
    )
    ref = SliceRef(ticker="MMM", fy=2022, fq=4)
    checked, removed = check_figures(answer, ref, MARGIN_CHANGE, None)
    assert removed == 1 and checked.body == "Sales fell 3%¹."
    assert [f.number for f in checked.references.footnotes] == [1]
    untouched, none = check_figures(checked, ref, MARGIN_CHANGE, None)
    assert none == 0 and untouched == checked


def test_a_researched_probe_beside_a_figure_never_prints_another_value(searcher):
    """End to end with a scripted researcher that copies a wrong capex, the prior year's, as
    printed on the cash-flow page: the draft's sentence is removed before the reviewer sees
    it and never reaches the report. (A capex no retrieved page prints goes earlier, as an
    amount its page does not print: :func:`programs.attribution.uncite_unprinted`.)"""
    question = "What drove 3M's capital expenditure in FY2022?"
    lm = ScriptedLM(claim="3M's capital expenditure in FY2022 was $1,603 million")
    program = ResearchProgram(searcher, settings=ResearchSettings(max_probes=1))
    with dspy.context(lm=lm):
        pred = program(question=question)
    assert "1,603" not in pred.report.split("## Sources")[0]
    (record,) = pred.record["slices"]
    researched = [p for p in record["probes"] if p.get("answered_by") != "statement facts"]
    assert researched[0]["rounds"][0]["contradicting_figures_dropped"] == 1


def test_a_composed_sentence_stating_a_number_no_finding_states_is_removed():
    from programs.figure_check import drop_unfounded

    findings = (
        "### MMM FY2022 Q4\\n\\n3M's capital expenditure in FY2022 was $1,749 million¹.\\n\\n"
        "### PEP FY2022 Q4\\n\\nPepsiCo's capital expenditure in FY2022 was $5.2 billion²."
    )
    answer = CitedAnswer(
        body=(
            "3M spent $1,749 million on capital expenditure in FY2022¹. "
            "PepsiCo spent $5,207 million². "  # the finding's $5.2 billion, written out
            "3M's spending was 33.6% of PepsiCo's¹². "  # the model's own arithmetic
            "Its net cash flow was $5,851 million¹. "  # a number no finding states
            "A ratio below 1 would mean less¹."  # a benchmark, not a claim
        )
    )
    kept, removed = drop_unfounded(answer, findings)
    assert removed == 2
    assert kept.body == (
        "3M spent $1,749 million on capital expenditure in FY2022¹. "
        "PepsiCo spent $5,207 million². A ratio below 1 would mean less¹."
    )


def _margin_slices():
    from domain.cells import SliceRef
    from signatures.synthesiser import ProbeAnswer, SliceReport

    def report(fy: int, value: float, text: str) -> SliceReport:
        figure = Figure(title="Gross margin", period=f"FY{fy}", value=value, unit="%", text=text)
        probe = ProbeAnswer(index=1, probe_title="margin", probe_question="?", figures=[figure])
        return SliceReport(slice=SliceRef(ticker="JNJ", fy=fy, fq=4), probe_answers=[probe])

    return [report(2021, 0.682, "68.2%"), report(2022, 0.673, "67.3%")]


def test_a_sentence_moving_a_figure_the_wrong_way_is_removed():
    """The figures are right, the direction word is not: "increased to 67.3%" (or
    "improved … to 67.3%", or "67.3%, which increased") of a margin that fell from 68.2%."""
    from programs.figure_check import drop_contradicting
    from retrieval.companies import load_companies

    answer = CitedAnswer(
        body=(
            "Gross margin in FY2021 was 68.2%¹, while it increased to 67.3%² in FY2022. "
            "Gross margin improved in FY2022 from 68.2% to 67.3%². "
            "Cost of products sold increased to $31,089 million, while gross margin "
            "decreased to 67.3%². "
            "The FY2022 gross margin was 67.3%², which increased from FY2021. "
            "Gross margin was 67.3%², and higher costs weighed on it. "
            "Sales rose by 1.3%²."
        )
    )
    kept, removed = drop_contradicting(answer, _margin_slices(), load_companies())
    assert removed == 3
    assert "which increased" not in kept.body  # the word said of the figure, after it
    assert "and higher costs weighed on it" in kept.body  # a word said of something else
    assert "increased to 67.3%" not in kept.body
    assert "improved" not in kept.body  # a margin that fell did not improve
    assert "decreased to 67.3%²" in kept.body  # the right way; costs may rise as it falls
    assert "Sales rose by 1.3%²." in kept.body  # another figure's movement


def test_a_figure_said_to_move_the_other_way_outright_is_removed():
    """ "Oracle's operating cash flow increased in FY2022 by $9,539 million", of cash from
    operations that fell from $15,887 million to $9,539 million: the figure named right
    before the word, no landing "to"."""
    from programs.figure_check import drop_contradicting
    from retrieval.companies import load_companies
    from signatures.synthesiser import ProbeAnswer, SliceReport

    def report(fy: int, value: float) -> SliceReport:
        figure = Figure(title="Cash from operations", period=f"FY{fy}", value=value,
                        unit="USD", text=f"${value / 1e6:,.0f} million")  # fmt: skip
        probe = ProbeAnswer(index=1, probe_title="cfo", probe_question="?", figures=[figure])
        return SliceReport(slice=SliceRef(ticker="JNJ", fy=fy, fq=4), probe_answers=[probe])

    kept = [
        "Cash from operations was reduced by increased tax payments in FY2022.",  # an adjective
        "Operating cash flow increased in FY2021.",  # another year's movement
        "Operating cash flow fell in FY2022 while receivables increased.",  # the right way too
        "Receivables increased in FY2022.",  # another figure
    ]
    wrong = "Operating cash flow increased in FY2022 by $9,539 million from the prior year."
    answer = CitedAnswer(body=" ".join([wrong, *kept]))
    slices = [report(2021, 15_887e6), report(2022, 9_539e6)]
    checked, removed = drop_contradicting(answer, slices, load_companies())
    assert removed == 1 and wrong not in checked.body
    assert all(sentence in checked.body for sentence in kept)


def test_a_movement_the_other_way_as_a_sentences_subject_is_removed():
    """ "The increase was driven by higher services revenues" of cash from operations that
    fell: with one figure that moved, the unnamed movement is that figure's. A movement
    qualified by another figure ("The increase in receivables was …") stays, and so does
    the right way, and any movement where two figures moved."""
    from programs.figure_check import drop_contradicting
    from retrieval.companies import load_companies
    from signatures.synthesiser import ProbeAnswer, SliceReport

    def report(fy: int, cfo: float, margin: float | None = None) -> SliceReport:
        figures = [Figure(title="Cash from operations", period=f"FY{fy}", value=cfo,
                          unit="USD", text=f"${cfo / 1e6:,.0f} million")]  # fmt: skip
        if margin is not None:
            figures.append(Figure(title="Gross margin", period=f"FY{fy}", value=margin,
                                  unit="%", text=f"{margin:.1%}"))  # fmt: skip
        probe = ProbeAnswer(index=1, probe_title="cfo", probe_question="?", figures=figures)
        return SliceReport(slice=SliceRef(ticker="JNJ", fy=fy, fq=4), probe_answers=[probe])

    wrong = [
        "The increase was driven by higher services revenues and a decrease in costs¹.",
        "This significant increase¹ reflects stronger collections.",
        "The rise of $1,200 million came from working capital.",
    ]
    kept = [
        "The increase in receivables was driven by billing.",  # another figure's movement
        "The decrease was driven by higher tax payments¹.",  # the right way
        "Receivables increased.",
    ]
    answer = CitedAnswer(body=" ".join([*wrong, *kept]))
    one_moved = [report(2021, 15_887e6), report(2022, 9_539e6)]
    checked, removed = drop_contradicting(answer, one_moved, load_companies())
    assert removed == len(wrong)
    assert all(s not in checked.body for s in wrong)
    assert all(s in checked.body for s in kept)
    two_moved = [report(2021, 15_887e6, 0.70), report(2022, 9_539e6, 0.72)]
    _, removed = drop_contradicting(answer, two_moved, load_companies())
    assert removed == 0  # "the increase" may be the margin's


def _two_company_margins():
    from domain.cells import SliceRef
    from signatures.synthesiser import ProbeAnswer, SliceReport

    def report(ticker: str, value: float, text: str) -> SliceReport:
        figure = Figure(title="Operating margin", period="FY2022", value=value, unit="%", text=text)
        probe = ProbeAnswer(index=1, probe_title="margin", probe_question="?", figures=[figure])
        return SliceReport(slice=SliceRef(ticker=ticker, fy=2022, fq=4), probe_answers=[probe])

    return [report("BA", -0.053, "-5.3%"), report("MMM", 0.191, "19.1%")]


def test_a_sentence_ranking_a_company_the_other_way_than_its_figures_is_removed():
    """Boeing's -5.3% beside 3M's 19.1%: "Boeing's higher margins" goes; rankings the
    figures support, changes over time and other measures stay."""
    from programs.figure_check import drop_contradicting
    from retrieval.companies import load_companies

    wrong = [
        "The main driver of Boeing's higher margins was higher services volume¹.",
        "Yes, Boeing had the higher operating margin in FY2022¹.",
        "3M's operating margin was lower than Boeing's².",
    ]
    right = [
        "3M had the higher operating margin in FY2022².",
        "Boeing's operating margin was lower than 3M's¹.",
        "Boeing's margins were higher than in the prior year¹.",
        "Boeing reported higher revenue from services¹.",
        "Boeing's revenue rose while 3M had the higher operating margin².",  # 3M is ranked
        "The higher operating margin was 3M's².",
    ]
    answer = CitedAnswer(body=" ".join(wrong + right))
    kept, removed = drop_contradicting(answer, _two_company_margins(), load_companies())
    assert removed == len(wrong)
    assert all(s not in kept.body for s in wrong) and all(s in kept.body for s in right)


def test_a_slices_finding_that_ranks_the_companies_wrongly_is_removed_from_the_findings():
    """The 3M slice's researcher saw only 3M's page and wrote "Boeing had the higher
    operating margin": with both companies' figures known, the findings drop it."""
    from programs.composer import NO_CITED_FINDINGS, _findings_section
    from retrieval.companies import load_companies

    slices = _two_company_margins()
    wrong = "#### Probe 2: The question\n\nYes, Boeing had the higher operating margin²."
    mmm = slices[1].model_copy(update={"answer": with_references_stub(wrong)})
    section = _findings_section(mmm, [slices[0], mmm], load_companies())
    assert "Boeing had the higher" not in section.body and NO_CITED_FINDINGS in section.body
    assert "Probe 2" not in section.body  # a heading left with nothing under it goes too
    alone = _findings_section(mmm, [mmm], load_companies())  # nothing to rank it against
    assert "Boeing had the higher" in alone.body and "Probe 2" in alone.body


def with_references_stub(body: str) -> CitedAnswer:
    from citations.markup import Citation, Footnote, ReferenceList

    cite = Citation(uid="0" * 12, doc_label="MMM 10-K FY2022", page_index=47, page_id=1)
    return CitedAnswer(
        body=body, references=ReferenceList(footnotes=[Footnote(number=2, citation=cite)])
    )


def test_a_finding_opening_with_the_other_verdict_than_the_trend_is_removed():
    """The later slice's researcher wrote "Yes, gross margin improved" of a margin that fell
    from 68.2% to 67.3%: code's trend verdict is "No", and the findings drop the opening."""
    from programs.composer import _gather_findings
    from retrieval.companies import load_companies

    def cited(report):  # the figure read from a statement page
        probe = report.probe_answers[0]
        figure = probe.figures[0].model_copy(update={"uids": [f"{report.slice.fy:012d}"]})
        figured = probe.model_copy(update={"figures": [figure]})
        return report.model_copy(update={"probe_answers": [figured]})

    earlier, later = (cited(report) for report in _margin_slices())
    said = "Yes, gross margin improved in FY2022². Costs of products sold rose²."
    later = later.model_copy(update={"answer": with_references_stub(said)})
    question = "Did JNJ's gross margin improve in FY2022?"
    findings = _gather_findings([earlier, later], question, load_companies(), {})
    assert "improved" not in findings.merged.body
    assert "Costs of products sold rose" in findings.merged.body
    asked_otherwise = _gather_findings(
        [earlier, later], "What drove JNJ's gross margin in FY2022?", load_companies(), {}
    )
    assert "Yes, gross margin improved" in asked_otherwise.merged.body  # no verdict to oppose
