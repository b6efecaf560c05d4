"""The research program end to end, with a scripted LM over the real sample grid."""

from __future__ import annotations

import json
import re

import dspy
import pytest
from scripted_lm import FABRICATED_HIT, ScriptedLM

from citations import parse_cited_answer, split_sentences
from citations.markup import DAGGER, from_superscript, iter_markers
from domain.cells import SliceRef
from metrics import composite_metric, score_daggers
from programs.errors import PlanningError
from programs.research_program import ResearchProgram, ResearchSettings

QUESTION = "How did 3M and PepsiCo's capital expenditure compare in FY2021 and FY2022?"


def flagged_probe(slice_label: str, probe_question: str) -> bool:
    return slice_label == "PEP FY2022 Q4" and probe_question.startswith("Drivers and risks")


def fabricating_probe(slice_label: str, probe_question: str) -> bool:
    return slice_label == "MMM FY2021 Q4" and probe_question == QUESTION


AGENTS_ONLY = ResearchSettings(figures=False)  # the model's probes alone: the agent loop


def run(searcher, question=QUESTION, settings=None, observer=None, **lm_kwargs):
    lm = ScriptedLM(**lm_kwargs)
    program = ResearchProgram(searcher, settings=settings or AGENTS_ONLY)
    program.observer = observer
    with dspy.context(lm=lm):  # context, not configure: worker threads must inherit it
        pred = program(question=question)
    return program, lm, pred


@pytest.fixture(scope="module")
def two_by_two(searcher):
    events = []
    program, lm, pred = run(
        searcher,
        settings=AGENTS_ONLY,
        observer=events.append,
        insufficient=flagged_probe,
        fabricate=fabricating_probe,
    )
    return program, lm, pred, events


@pytest.fixture(scope="module")
def with_figures(searcher):
    _, lm, pred = run(searcher, settings=ResearchSettings(), insufficient=flagged_probe)
    return lm, pred


def test_two_companies_two_years_make_four_slices_and_a_comparison_table(two_by_two):
    _, _, pred, _ = two_by_two
    labels = ["MMM FY2021 Q4", "MMM FY2022 Q4", "PEP FY2021 Q4", "PEP FY2022 Q4"]
    assert [s.label for s in pred.plan.slices] == labels
    assert [s.slice.label for s in pred.slices] == labels
    assert "| Metric | " + " | ".join(labels) + " |" in pred.report
    row = next(line for line in pred.report.splitlines() if line.startswith("| Headline figure"))
    assert len(re.findall(r"\d[¹²³⁴⁵⁶⁷⁸⁹⁰]", row)) == 4  # every cell a cited figure


def test_figures_from_statement_facts_fill_the_table(with_figures):
    _, pred = with_figures
    labels = ["MMM FY2021 Q4", "MMM FY2022 Q4", "PEP FY2021 Q4", "PEP FY2022 Q4"]
    assert "| Metric | " + " | ".join(labels) + " |" in pred.report
    # The question names a line item the statements hold, so code fills the table from facts
    # (the model's own rows are not used) and every cell cites its cash-flow page.
    row = next(line for line in pred.report.splitlines() if line.startswith("| Capital exp"))
    cells = [c.strip() for c in row.strip("|").split("|")][1:]
    values = [re.sub(r"[¹²³⁴⁵⁶⁷⁸⁹⁰˒†]", "", c) for c in cells]  # PEP FY2022 is flagged
    assert values == ["$1,603 million", "$1,749 million", "$4,625 million", "$5,207 million"]
    assert all(re.search(r"million[¹²³⁴⁵⁶⁷⁸⁹⁰]", c) for c in cells)
    assert not any(line.startswith("| Headline figure") for line in pred.report.splitlines())


def test_citations_are_renumbered_globally_and_resolve_to_real_pages(two_by_two, sample_store):
    _, _, pred, _ = two_by_two
    report = parse_cited_answer(pred.report)
    numbers = [f.number for f in report.references.footnotes]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 8
    first_seen = []
    for _, nums in iter_markers(report.body):
        first_seen.extend(n for n in nums if n not in first_seen)
    assert first_seen == numbers  # numbered by first appearance, from ¹
    pages = {
        p.uid: p
        for p in sample_store.pages_by_uid(f.citation.uid for f in report.references.footnotes)
    }
    for foot in report.references.footnotes:
        page = pages[foot.citation.uid]
        assert (foot.citation.doc_label, foot.citation.page_index, foot.citation.page_id) == (
            page.doc_label, page.page_index, page.page_id,
        )  # fmt: skip
    assert set(pred.retrieved_uids) >= set(pages) and set(pred.page_texts) == set(
        pred.retrieved_uids
    )


def test_insufficient_evidence_probe_puts_daggers_and_a_note(two_by_two):
    _, _, pred, _ = two_by_two
    pep22 = next(s for s in pred.slices if s.slice.label == "PEP FY2022 Q4")
    assert pep22.open_issues and pep22.open_issues[0].startswith("† Probe 2: insufficient evidence")
    assert [s.slice.label for s in pred.flagged_slices] == ["PEP FY2022 Q4"]
    report = parse_cited_answer(pred.report)
    (note,) = [n.render() for n in report.dagger_notes]
    assert note.startswith(
        "† Evidence incomplete for PEP FY2022 Q4 – the filing pages found do not answer "
        "“Drivers and risks:"
    )  # what is missing, not a "Probe 2" section the report does not have
    table = report.references.by_number()
    for sentence in split_sentences(report.body):
        uses_flagged = any(table[n].uid in pep22.uids() for n in sentence.markers if n in table)
        assert (DAGGER in sentence.text) == uses_flagged, sentence.text
    assert score_daggers(pred.report, pred.flagged_slices).score == 1.0
    probe = pred.record["slices"][3]["probes"][1]
    assert probe["status"] == "insufficient_evidence" and len(probe["rounds"]) == 2


def test_fabricated_citations_are_removed_and_counted(two_by_two):
    _, _, pred, _ = two_by_two
    fabricated = f"[{FABRICATED_HIT}]"
    assert "guided to growth" not in pred.report  # its only citation was made up
    probe = pred.record["slices"][0]["probes"][0]
    assert probe["fabricated_citations"] == 1
    assert probe["rounds"][0]["fabricated"] == [fabricated]
    assert fabricated in probe["rounds"][0]["draft"]
    assert fabricated not in probe["rounds"][0]["verified_draft"]
    assert pred.record["fabricated_citations"]["total"] == 1


def test_record_events_metric_and_call_count(two_by_two):
    _, lm, pred, events = two_by_two
    record = json.loads(json.dumps(pred.record))  # JSON-serialisable
    searches = [
        s
        for sl in record["slices"]
        for p in sl["probes"]
        for r in p["rounds"]
        for s in r["searches"]
    ]
    assert searches and all(s["query"] and s["uids"] for s in searches)
    assert all(
        r["verdict"]["done"] is not None
        for sl in record["slices"]
        for p in sl["probes"]
        for r in p["rounds"]
    )
    kinds = {e.kind for e in events}
    assert kinds == {
        "planning",
        "plan",
        "slice_start",
        "probes",
        "search",
        "draft",
        "verdict",
        "slice_done",
        "report",
    }
    assert [e.kind for e in events[:2]] == ["planning", "plan"] and events[-1].kind == "report"
    score = composite_metric(dspy.Example(answer="3M's capex"), pred)
    assert 0.0 < score <= 1.0
    # 1 facets + 4 probe lists + 8 probes x (a first draft from code's own search + review)
    # + 1 follow-up round for the flagged probe (a ReAct step + extract + review) + 4
    # summaries + 1 report = 29.
    assert lm.calls["researcher.react"] == 1 and lm.calls["reviewer"] == 9
    assert lm.total_calls == 29


def test_reviewer_garbage_never_passes_a_draft(searcher):
    settings = ResearchSettings(max_rounds=3, figures=False)
    _, lm, pred = run(searcher, "3M capex in FY2022", settings=settings, reviewer="garbage")
    (only,) = pred.slices
    assert [p.insufficient_evidence for p in only.probe_answers] == [True, True]
    for probe in pred.record["slices"][0]["probes"]:
        assert len(probe["rounds"]) == 3  # every round re-drafted, none accepted
        assert not any(r["verdict"]["parsed"] for r in probe["rounds"])
        assert probe["status"] == "insufficient_evidence"
    assert lm.calls["researcher.extract"] == 6
    assert DAGGER in parse_cited_answer(pred.report).body


def test_a_failing_probe_closes_with_insufficient_evidence_and_the_run_goes_on(searcher):
    def broken(agent, inputs):
        title = inputs.get("probe_title", "")
        return agent.startswith("researcher") and title.startswith("Drivers and risks")

    _, _, pred = run(searcher, "3M capex in FY2022", garbage=broken)
    first, second = pred.slices[0].probe_answers
    assert not first.insufficient_evidence and first.answer.references.footnotes
    assert second.insufficient_evidence and "research failed" in second.reason
    assert "error" in pred.record["slices"][0]["probes"][1]["rounds"][0]
    assert "do not answer “Drivers and risks: 3M capex in FY2022”" in pred.report


def test_a_failed_slice_summary_flags_the_slice_and_keeps_its_findings(searcher):
    _, _, pred = run(
        searcher, "3M capex in FY2022", garbage=lambda agent, _: agent == "synthesiser"
    )
    (report,) = pred.slices
    assert any("slice summary not written" in issue for issue in report.open_issues)
    assert report.answer.references.footnotes  # the probes' cited findings are kept
    assert pred.flagged_slices and DAGGER in parse_cited_answer(pred.report).body
    assert pred.record["slices"][0]["synthesis"]["error"]


def test_slices_and_probes_run_concurrently_and_keep_the_context_lm(searcher):
    _, lm, pred = run(searcher, QUESTION, delay=0.02)
    assert lm.max_in_flight >= 2 and len(pred.slices) == 4
    _, lm, _ = run(searcher, "3M capex FY2022", ResearchSettings(concurrency=1), delay=0.01)
    assert lm.max_in_flight == 1


def test_per_predictor_lm_is_used_in_worker_threads(searcher):
    program = ResearchProgram(searcher)
    reviewer_lm = ScriptedLM(reviewer="accept")
    program.reviewer.review.lm = reviewer_lm
    with dspy.context(lm=ScriptedLM(reviewer="garbage")):
        pred = program(question="3M capex FY2022: what is its outlook?")
    assert reviewer_lm.calls["reviewer"] == 2 and set(reviewer_lm.calls) == {"reviewer"}
    assert not any(p.insufficient_evidence for p in pred.slices[0].probe_answers)


def test_program_exposes_named_sub_modules_and_predictors(searcher):
    program = ResearchProgram(searcher)
    names = [name for name, _ in program.named_predictors()]
    assert names == [
        "planner.extract_facets", "planner.equity_to_ticker", "probes.generate",
        "researcher.react", "researcher.extract", "researcher.pick", "reviewer.review",
        "synthesiser.synthesise", "composer.compose",
    ]  # fmt: skip
    assert "wissen_equity_search" in program.researcher.react.signature.instructions
    copy = program.deepcopy()
    assert [n for n, _ in copy.named_predictors()] == names


def test_mandatory_angles_from_settings_or_environment(searcher, monkeypatch):
    program = ResearchProgram(searcher, settings=ResearchSettings(mandatory_angles="liquidity"))
    instructions = program.probes.generate.signature.instructions
    assert (
        "MANDATORY_ANGLES: every slice must have a probe" in instructions
        and "liquidity" in instructions
    )
    monkeypatch.setenv("WISSEN_MANDATORY_ANGLES", "capital allocation")
    assert "capital allocation" in ResearchProgram(searcher).probes.generate.signature.instructions
    monkeypatch.delenv("WISSEN_MANDATORY_ANGLES")
    assert (
        "MANDATORY_ANGLES: none" in ResearchProgram(searcher).probes.generate.signature.instructions
    )


def test_search_budget_per_turn_is_enforced(searcher):
    settings = ResearchSettings(max_searches=2, figures=False, answer_first=False)
    _, _, pred = run(searcher, "3M capex FY2022", settings=settings, searches_per_turn=6)
    rounds = [r for p in pred.record["slices"][0]["probes"] for r in p["rounds"]]
    assert rounds and all(len(r["searches"]) == 2 for r in rounds)


def test_unknown_names_are_noted_and_a_broken_observer_is_ignored(searcher):
    def observer(event):
        raise RuntimeError("display crashed")

    _, _, pred = run(searcher, "3M and Apple capex in FY2022", observer=observer)
    assert pred.plan.unknown == ["Apple (AAPL) is not in the grid"]
    assert "**Scope**" in pred.report and "- Apple (AAPL) is not in the grid" in pred.report


def test_bad_questions_raise_planning_errors(searcher):
    with pytest.raises(PlanningError, match="No company in the question is in the grid"):
        run(searcher, "What did Tesla spend on capex?")
    with pytest.raises(PlanningError, match="empty"):
        run(searcher, "")


def test_single_slice_report_has_no_comparison_table(searcher):
    _, _, pred = run(searcher, "3M capex FY2022")
    assert "## Comparison" not in pred.report and "| Metric" not in pred.report
    assert from_superscript("¹") == 1 and "¹" in pred.report


def test_a_slice_without_citations_shows_no_uncited_prose(searcher, monkeypatch):
    from programs.composer import NO_CITED_FINDINGS

    monkeypatch.setattr(type(searcher), "search", lambda self, *args, **kwargs: [])  # no page
    _, lm, pred = run(
        searcher,
        question="What was 3M's capital expenditure in FY2022?",
        insufficient=lambda s, p: True,
        searches_per_turn=0,
    )
    assert NO_CITED_FINDINGS in pred.report
    assert "_No cited answer could be written" in pred.report
    assert lm.calls["composer"] == 0  # nothing to cite: no answer asked for
    assert "MMM FY2022 Q4: evidence incomplete" in pred.report


def test_figure_probe_is_answered_from_facts_with_no_lm_call(with_figures):
    lm, pred = with_figures
    for report in pred.slices:
        first = report.probe_answers[0]
        assert first.probe_title.startswith("Capital expenditure")
        assert first.rounds == 0 and len(first.figures) == 1
        assert first.figures[0].uids == [f.citation.uid for f in first.answer.references.footnotes]
    probes = [p for s in pred.record["slices"] for p in s["probes"]]
    assert sum(p.get("answered_by") == "statement facts" for p in probes) == 4
    prompts = " ".join(str(h.get("messages")) for h in lm.history)
    assert "What was capital expenditure in FY2022?" not in prompts  # never sent to a model


def test_one_probe_slot_makes_figures_the_whole_research(searcher):
    _, lm, pred = run(searcher, settings=ResearchSettings(max_probes=1))
    assert all(len(s.probe_answers) == 1 for s in pred.slices)
    assert "insufficient" not in pred.report and "†" not in pred.report
    # Planner, one summary per slice and the composer: no probe generation or research call.
    assert len(lm.history) <= 1 + len(pred.slices) + 1


def test_one_slot_still_researches_what_a_question_asks_beyond_its_figure(searcher):
    """The figure is computed for free; the judgement the question asks (here: what drove
    it) is researched as the question itself, not dropped for want of a slot."""
    question = "What drove 3M's capital expenditure in FY2022?"
    _, lm, pred = run(searcher, question=question, settings=ResearchSettings(max_probes=1))
    (only,) = pred.slices
    titles = [a.probe_title for a in only.probe_answers]
    assert titles == ["Capital expenditure (from the statements)", "The question"]
    prompts = " ".join(str(h.get("messages")) for h in lm.history)
    assert question in prompts  # researched by the model
    assert "What was capital expenditure in FY2022?" not in prompts  # computed by code


def test_a_trend_judgement_is_researched_in_the_latest_filing_only(searcher):
    """The FY2022 filing discusses the change from FY2021; the FY2021 slice gives its figure."""
    question = "Is 3M's capital expenditure growing as of FY2022, and what drove it?"
    _, _, pred = run(searcher, question=question, settings=ResearchSettings(max_probes=1))
    titles = {s.slice.label: [a.probe_title for a in s.probe_answers] for s in pred.slices}
    assert titles == {
        "MMM FY2021 Q4": ["Capital expenditure (from the statements)"],
        "MMM FY2022 Q4": ["Capital expenditure (from the statements)", "The question"],
    }


def test_the_composer_reads_findings_without_probe_headings(two_by_two):
    """A small model copies the structure it is shown: "Probe 2" headings would reappear in
    its answer under the wrong slice."""
    _, lm, pred, _ = two_by_two
    prompts = [
        entry["messages"][-1]["content"]
        for entry in lm.history
        if "report_markdown" in entry["messages"][0]["content"]
    ]
    assert prompts and all("#### Probe" not in prompt for prompt in prompts)
    assert "## Findings by slice" in pred.report


def test_an_uncited_last_round_draft_closes_without_a_reviewer_call(searcher, monkeypatch):
    monkeypatch.setattr(type(searcher), "search", lambda self, *args, **kwargs: [])  # no page
    _, lm, pred = run(
        searcher,
        question="What was 3M's capital expenditure in FY2022?",
        settings=ResearchSettings(figures=False, max_probes=1, max_rounds=1),
        searches_per_turn=0,
    )
    probes = [p for s in pred.record["slices"] for p in s["probes"]]
    assert probes and all(p["reason"] == "draft cites no retrieved page" for p in probes)
    assert lm.calls["researcher.extract"] == len(probes) and lm.calls["reviewer"] == 0


@pytest.mark.parametrize(
    ("question", "closes"),
    [
        ("How much had 3M accrued for its respirator litigation in FY2022?", True),
        ("What litigation did 3M describe in FY2022?", False),
    ],
)
def test_an_answer_without_a_figure_to_a_how_much_question_is_not_accepted(
    searcher, question, closes
):
    lm = ScriptedLM(probes_per_slice=1)
    lm._researcher_extract = lambda inputs: {
        "answer_markdown": "The filing describes the respirator mask litigation [1]."
    }  # cited, and no figure in it
    program = ResearchProgram(searcher, settings=ResearchSettings(figures=False, max_rounds=3))
    with dspy.context(lm=lm):
        pred = program(question=question)
    (probe,) = [p for s in pred.record["slices"] for p in s["probes"]]
    assert lm.calls["reviewer"] == 1  # the reviewer accepted; code did not
    assert probe["rounds"] and len(probe["rounds"]) == 1  # closed, not sent back
    if closes:
        assert probe["status"] == "insufficient_evidence"
        assert probe["reason"] == "the question asks how much and the answer states no figure"
        assert DAGGER in pred.report
    else:
        assert probe["status"] == "accepted" and DAGGER not in pred.report


class _HeadingComposerLM(ScriptedLM):
    """A composer that copies a findings heading into its answer, as a small model does."""

    def _composer(self, inputs):
        out = super()._composer(inputs)
        label = json.loads(inputs.get("slice_labels", "[]"))[0]
        return {**out, "report_markdown": f"### {label}\n\n{out['report_markdown']}"}


def test_a_heading_the_composer_copies_into_its_answer_is_dropped(searcher):
    program = ResearchProgram(searcher, settings=AGENTS_ONLY)
    with dspy.context(lm=_HeadingComposerLM()):
        pred = program(question=QUESTION)
    answer = pred.report.split("## Comparison")[0]
    assert answer.startswith("## Answer\n\n") and "###" not in answer


def test_a_prior_period_added_for_a_trend_gives_its_figure_only(searcher):
    """With every probe slot free, the FY2021 slice still gives only its figure: researched,
    the question would be answered there for the wrong year."""
    question = "Is 3M's capital expenditure growing as of FY2022, and what drove it?"
    _, _, pred = run(searcher, question=question, settings=ResearchSettings(max_probes=3))
    assert pred.plan.compared == [SliceRef(ticker="MMM", fy=2021, fq=4)]
    titles = {s.slice.label: [a.probe_title for a in s.probe_answers] for s in pred.slices}
    assert titles["MMM FY2021 Q4"] == ["Capital expenditure (from the statements)"]
    assert len(titles["MMM FY2022 Q4"]) > 1  # the latest filing researches the question


def test_a_prior_period_with_no_figure_is_read_from_the_later_filing(searcher):
    question = "Has 3M's respirator mask litigation grown as of FY2022?"
    _, _, pred = run(searcher, question=question, settings=ResearchSettings(max_probes=1))
    assert [s.slice.label for s in pred.slices] == ["MMM FY2022 Q4"]
    assert pred.plan.compared == []
    assert "MMM FY2021 Q4: not researched apart" in pred.report  # a Scope line says so


def test_a_sequential_prior_quarter_with_no_figure_is_dropped_and_said(searcher):
    # A quarter's filing reports the year-ago quarter, not the quarter before: read from the
    # later filing, a Scope line would claim what it does not print; researched, the
    # earlier filing answers the question for its own quarter.
    question = "Has PepsiCo's litigation grown quarter over quarter in Q2 2023?"
    _, _, pred = run(searcher, question=question, settings=ResearchSettings(max_probes=1))
    assert [s.slice.label for s in pred.slices] == ["PEP FY2023 Q2"]
    assert pred.plan.compared == []
    assert "not researched apart" not in pred.report
    assert "PEP FY2023 Q1: not researched" in pred.report
    assert "the sequential change is not computed" in pred.report


class _SpeculatingLM(ScriptedLM):
    """Opens with a direct answer and ends on a guess, neither cited."""

    def _researcher_extract(self, inputs):
        cited = super()._researcher_extract(inputs)["answer_markdown"]
        return {
            "answer_markdown": "Mostly new plant capacity. "
            + cited
            + " One possible reason could be a change of strategy by the management team."
        }


def test_an_answer_states_nothing_uncited_after_its_opening(searcher):
    lm = _SpeculatingLM()
    program = ResearchProgram(searcher, settings=ResearchSettings(figures=False, max_probes=1))
    with dspy.context(lm=lm):
        pred = program(question="What drove 3M's capital expenditure in FY2022?")
    answer = pred.report.split("**Sources**")[0]
    assert "Mostly new plant capacity." in answer  # the direct answer opens it
    assert "filing discusses" in answer  # the cited support
    assert "One possible reason" not in answer


def test_a_comparison_table_with_no_figure_row_is_left_out():
    """An evidence row alone compares nothing; a row with a figure brings it back."""
    from programs.composer import comparison_table
    from signatures.composer import TableRow
    from signatures.synthesiser import SliceReport

    slices = [SliceReport(slice=SliceRef(ticker=t, fy=2022, fq=4)) for t in ("MMM", "PEP")]
    labels = [s.slice.label for s in slices]
    empty = TableRow(metric="Capex", values={"MMM FY2022 Q4": "", "XYZ": "1"})
    assert comparison_table(labels, [empty], slices) == ""
    capex = TableRow(metric="Capex", values={"MMM FY2022 Q4": "1,749¹"})
    table = comparison_table(labels, [empty, capex], slices)
    assert "| Capex | 1,749¹ | – |" in table and table.endswith("| complete | complete |")


def test_an_unsettled_draft_is_a_finding_under_its_dagger_not_the_answer(searcher):
    # The reviewer closes the only probe as insufficient evidence: its draft is shown among
    # the findings, daggered, and the answer says none could be written.
    _, _, pred = run(
        searcher,
        question="What drove 3M's results in FY2022?",
        insufficient=lambda s, p: True,
        settings=ResearchSettings(figures=False, max_probes=1),
    )
    answer, findings = pred.report.split("## Findings by slice")
    assert "_No cited answer could be written; the findings by slice follow._" in answer
    assert "¹" not in answer
    assert "#### Probe 1: The question" in findings and f"¹.{DAGGER}" in findings
    assert "† Evidence incomplete for MMM FY2022 Q4" in findings


def test_a_comparison_with_a_year_the_grid_lacks_reads_it_from_the_later_filing(searcher):
    # FY2017 is not in the sample grid; 3M's FY2018 10-K prints it beside FY2018.
    _, _, pred = run(
        searcher,
        question="How did 3M's capital expenditure in FY2018 compare with the prior year?",
        settings=ResearchSettings(max_probes=1),
    )
    answer = pred.report.split("**Sources**")[0]
    assert "went from $1,373 million in FY2017 to $1,577 million in FY2018, up $204 million" in (
        answer
    )
    assert "Not in the grid" not in pred.report  # the year is read, from FY2018's filing
    assert (
        "MMM FY2017 Q4 is not in the grid; its figures are read from MMM FY2018 Q4's filing, "
        "which reports them beside its own"
    ) in pred.report
    probe = pred.record["slices"][0]["probes"][0]
    assert [f["period"] for f in probe["earlier_figures"]] == ["FY2017"]


def test_a_growth_figure_whose_prior_year_the_grid_lacks_says_where_that_year_was_read(searcher):
    # A growth figure's period is the later year; its prior-year input is FY2017's revenue,
    # printed in FY2018's 10-K: Scope says so, not that FY2017 was not researched.
    _, _, pred = run(
        searcher,
        question="What is 3M's revenue growth from FY2017 to FY2018?",
        settings=ResearchSettings(max_probes=1),
    )
    assert "Revenue growth" in pred.report.split("**Sources**")[0]
    assert "Not in the grid" not in pred.report
    assert (
        "MMM FY2017 Q4 is not in the grid; its figures are read from MMM FY2018 Q4's filing"
    ) in pred.report
