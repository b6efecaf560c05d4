"""ReportComposer: slice results -> the final Markdown report.

The LLM writes the argument and chooses the table's figures; code does the rest: slice
summaries merged with one global numbering for the LLM to cite, a comparison table with
one column per slice in plan order (cells the LLM filled, plus an evidence row), the
final renumbering from ¹ by first appearance, fabricated citations removed and counted,
daggers on every sentence that uses a flagged slice, and the Notes and Sources blocks.
A question that came down to one slice with one researched probe (beside code's figures)
is answered by its probes' cited answers as they stand; one slice with angles beside the
question's own probe is answered by that probe (and code's figures), the angles shown as
findings; several slices whose question probe a page answered in its own words, by code,
are answered by that page (:mod:`programs.standing_answers`); findings that cite no page
get no answer. None of these makes an LM call. What the
model writes stands only as far as code's checks allow (:mod:`programs.prose_checks`), and a
sentence standing only on the pages or the words of probes closed as insufficient evidence
stays among the findings, not in the answer (:mod:`programs.answer_support`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import dspy

from citations.daggers import SliceResult, apply_daggers
from citations.markup import (
    DAGGER,
    FORMULAS_HEADING,
    MARKER_RE,
    NO_CITED_FINDINGS,
    SCOPE_HEADING,
    CitedAnswer,
)
from citations.sentences import (
    split_sentences,
    without_empty_claims,
    without_repeats,
    without_units,
    without_units_and_followers,
)
from citations.verification import verify_answer
from metrics.answer_verdicts import yes_no_polarity
from programs.answer_support import unsettled_pages, unsettled_sentences, without_unsettled
from programs.figure_check import drop_misranked
from programs.figure_rankings import figure_comparisons, ranking_lines, without_model_rankings
from programs.figure_table import (
    figure_changes,
    figure_rows,
    figure_sentences,
    figure_verdicts,
    formula_notes,
    incomparable_verdicts,
    read_from_later_filings,
    series_lines,
    series_verdicts,
    slice_figures,
    trend_verdicts,
    with_figure_citations,
)
from programs.prose_checks import (
    check_composed,
    without_restated_figures,
    without_restated_verdict,
)
from programs.standing_answers import (
    answer_to_the_question,
    cites,
    code_answer_to_the_question,
    single_finding,
)
from programs.synthesiser import merge_parts, with_references
from programs.verdicts import opposes
from retrieval.companies import Company, load_companies
from signatures.composer import ComposeReport, TableRow
from signatures.planner import ResearchPlan
from signatures.synthesiser import SliceReport

logger = logging.getLogger(__name__)
#: A probe's heading inside a slice's findings: the model is shown the findings without
#: them (it copies structure, and "Probe 2" under the wrong slice misleads a reader).
_PROBE_HEADING = re.compile(r"^#### Probe \d+:.*\n+", re.MULTILINE)


#: A heading the model copied from the findings into its answer ("### VZ FY2022 Q4"): the
#: report's own headings frame the answer, and one inside it reads as a new section.
_HEADING_LINE = re.compile(r"^#{1,6}\s.*\n*", re.MULTILINE)


#: A heading with nothing under it before the next heading or the end (a probe whose every
#: sentence a check removed).
_EMPTY_HEADING = re.compile(r"^#{1,6} [^\n]*\n(?:\s*\n)*(?=#{1,6} |\Z)", re.MULTILINE)


def _unmarked(text: str) -> str:
    """A sentence without its citation marks and daggers, as code wrote it."""
    return MARKER_RE.sub("", text).replace(DAGGER, "").strip()


def _cell(text: str) -> str:
    return re.sub(r"\s+", " ", str(text)).replace("|", "/").strip() or "–"


def unused_flag_notes(report: CitedAnswer, slices: Sequence[SliceResult]) -> list[str]:
    """Open issues of flagged slices whose data the report never uses: no sentence carries
    their †, so without this line a reader would not learn their evidence is incomplete."""
    daggered = {n.slice_label for n in report.dagger_notes}
    return [
        f"{s.slice.label}: evidence incomplete, nothing from it is used above ("
        + "; ".join(i.lstrip("† ").strip() for i in s.open_issues)
        + ")"
        for s in slices
        if s.flagged and s.slice.label not in daggered
    ]


def comparison_table(
    labels: Sequence[str], rows: Iterable[TableRow], slices: Sequence[SliceReport]
) -> str:
    """One column per slice (plan order); rows the LLM filled; an evidence row from code.
    Empty when no row holds a figure: an evidence row alone compares nothing (the Scope
    line already says which slices are incomplete)."""
    lines = [
        "| Metric | " + " | ".join(labels) + " |",
        "| --- | " + " | ".join("---" for _ in labels) + " |",
    ]
    for row in rows:
        values = {k.strip(): v for k, v in row.values.items()}
        if not any(values.get(label) for label in labels):
            continue
        lines.append(
            f"| {_cell(row.metric)} | "
            + " | ".join(_cell(values.get(label, "")) for label in labels)
            + " |"
        )
    if len(lines) == 2:
        return ""
    evidence = {
        s.slice.label: "incomplete (see Notes or Scope)" if s.flagged else "complete"
        for s in slices
    }
    lines.append("| Evidence | " + " | ".join(evidence.get(label, "–") for label in labels) + " |")
    return "\n".join(lines)


def _rows(raw: object) -> list[TableRow]:
    rows = []
    for item in raw or []:  # type: ignore[union-attr]
        try:
            rows.append(item if isinstance(item, TableRow) else TableRow.model_validate(item))
        except Exception:
            continue
    return rows


def _without_opposing(body: str, trends: Sequence[str], incomparable: bool = False) -> str:
    """``body`` less the prose sentences opening with the other yes/no than one of code's
    trend verdicts, or with any yes/no where code found the periods ``incomparable``, and
    the uncited ones pointing back at them (unchanged when none does)."""
    opposing = [
        s
        for s in split_sentences(body)
        if not s.in_table
        and (
            any(opposes(s.text, v) for v in trends)
            or (incomparable and yes_no_polarity(s.text) is not None)
        )
    ]
    return without_units_and_followers(body, opposing) if opposing else body


def _figure_uids(slices: Sequence[SliceReport]) -> list[str]:
    """The pages of every slice's figures, in first-seen order."""
    uids = (u for report in slices for f in slice_figures(report) for u in f.uids)
    return list(dict.fromkeys(uids))


@dataclass
class _Findings:
    """Every slice's findings under one numbering, with code's figures cited in it."""

    labels: list[str]
    merged: CitedAnswer
    parts: list[CitedAnswer]
    figure_numbers: dict[str, int]
    code_rows: list[TableRow]
    #: The answer as it stands, when there is one (:mod:`programs.standing_answers`).
    single: str | None
    #: The only slice's angles are findings beside its answer to the question.
    with_angles: bool = False


@dataclass
class _Answer:
    """The report's answer as it is built: its prose, the table's rows, and what failed."""

    prose: CitedAnswer
    rows: list[TableRow]
    error: str | None
    cited: bool = False
    from_figures: bool = False
    #: Sentences left out of the answer: they stand on unsettled probes' pages or words alone.
    withheld: int = 0


def _findings_section(
    report: SliceReport,
    slices: Sequence[SliceReport],
    companies: Sequence[Company],
    trends: Sequence[str] = (),
) -> CitedAnswer:
    """A slice's findings: its summary, or its probes' cited answers when the summary cites
    nothing (a synthesis that failed); prose that cites nothing is not a finding, so a slice
    without one citation says that plainly instead of showing unsupported text. A sentence
    ranking two companies against their figures goes (:func:`drop_misranked`), and so does
    one opening with the other yes/no than code's verdict on the figure's trend: "Yes, gross
    margin improved" beside a margin that fell from 53.3% to 53.0%."""
    summary_cites = cites(report.summary.body)
    source = report.summary if summary_cites else report.answer
    if len(slices) > 1:
        source = drop_misranked(source, slices, companies)
    if (body := _without_opposing(source.body, trends)) != source.body:
        source = source.model_copy(update={"body": body}).cited_only()
    text = _EMPTY_HEADING.sub("", source.body.strip() + "\n").strip()
    if not (text and source.references.footnotes):
        text = NO_CITED_FINDINGS
    body = f"### {report.slice.label}\n\n{text}"
    return CitedAnswer(body=body, references=source.references)


def _gather_findings(
    slices: Sequence[SliceReport],
    question: str,
    companies: Sequence[Company],
    sectors: dict[str, str],
) -> _Findings:
    """Every slice's findings under one numbering; the answer to the question as asked, when
    it stands as one (:mod:`programs.standing_answers`), is numbered first, as it is shown."""
    # Code's trend verdicts, for their direction only: every figure page numbered.
    pages = {u: n for n, u in enumerate(_figure_uids(slices), start=1)}
    trends = trend_verdicts(question, slices, pages, sectors)
    sections = [_findings_section(s, slices, companies, trends) for s in slices]
    lead = answer_to_the_question(slices, question) or code_answer_to_the_question(slices, question)
    merged, parts = merge_parts([lead, *sections] if lead else sections)
    merged, figure_numbers = with_figure_citations(merged, slices)
    return _Findings(
        labels=[s.slice.label for s in slices],
        merged=merged,
        parts=parts[1:] if lead else parts,
        figure_numbers=figure_numbers,
        code_rows=figure_rows(slices, figure_numbers),
        single=parts[0].body if lead else single_finding(slices),
        with_angles=lead is not None,
    )


def _fall_back_to_figures(
    answer: _Answer, slices: Sequence[SliceReport], findings: _Findings
) -> None:
    """Notes whether the answer cites anything; an answer that cites nothing gives way to
    code's figures, an answer in their own right, cited to their statement pages."""
    answer.cited = cites(answer.prose.body)
    answer.from_figures = not answer.cited and bool(findings.code_rows)
    if answer.from_figures:
        body = figure_sentences(slices, findings.figure_numbers)
        answer.prose = CitedAnswer(body=body, references=findings.merged.references)
        answer.cited = True


def _open_with_verdicts(
    answer: _Answer,
    question: str,
    slices: Sequence[SliceReport],
    findings: _Findings,
    sectors: dict[str, str],
) -> None:
    """Code's yes/no on a benchmarked figure, or on a figure's trend, opens a cited answer:
    the direct answer first, then what supports it. Sentences opening with the other
    verdict on a single figure are gone already; those opposing a trend verdict go here."""
    said = answer.prose.body
    numbers = findings.figure_numbers
    trends, over_series = series_verdicts(question, slices, numbers, sectors)
    incomparable = incomparable_verdicts(question, slices, numbers, sectors)
    given = incomparable + figure_verdicts(slices, numbers, over_series) + trends
    verdicts = [v for v in given if v not in said]
    if answer.cited and verdicts:
        opening = " ".join(verdicts)
        kept = _without_opposing(said, trends, bool(incomparable))
        body = opening + "\n\n" + without_restated_figures(kept, opening).lstrip()
        answer.prose = answer.prose.model_copy(update={"body": body})


def _append_computed_figures(
    answer: _Answer,
    slices: Sequence[SliceReport],
    findings: _Findings,
    question: str,
    companies: Sequence[Company],
) -> None:
    """Gaps between two companies, the order of three or more (:mod:`programs.figure_rankings`)
    and each period's figure with the change: code's, after a cited answer, or before it when
    the question asks which company or their order (the direct answer had stood last).
    Code's one-figure lines for a figure whose periods these state leave the answer."""
    numbers = findings.figure_numbers
    said = answer.prose.body
    ranks = ranking_lines(slices, numbers)
    if ranks:
        said = without_model_rankings(said, slices, numbers, companies)
    gaps = figure_comparisons(slices, numbers) + ranks
    computed = gaps + figure_changes(slices, numbers, said)
    if not answer.cited:
        return
    # Each period's figure stated with the change: code's one-figure lines would repeat it.
    lines = series_lines(slices, numbers, said + " ".join(computed))
    repeated = [s for s in split_sentences(said) if lines and lines.fullmatch(_unmarked(s.text))]
    if repeated or computed:
        said = without_units(said, repeated).strip()
        parts = (" ".join(computed), said) if gaps and _WHICH.search(question) else None
        body = "\n\n".join(part for part in parts or (said, " ".join(computed)) if part)
        answer.prose = answer.prose.model_copy(update={"body": body})


#: "Which had the higher …, eBay or Oracle?", "Which company …?", "Rank Apple, eBay and Intel".
_WHICH = re.compile(
    r"^\s*(?:which|who)\b|\bwhich\s+(?:company|companies|one|firm)\b|\brank(?:ed|ing)?\b",
    re.I,
)


def _daggered(checked: CitedAnswer, slices: Sequence[SliceReport]) -> CitedAnswer:
    """Daggers on every claim that uses a flagged slice; a claim that states nothing
    (``<br>¹``) cites nothing, so no dagger lands on it."""
    stated = checked.model_copy(update={"body": without_empty_claims(checked.body)})
    return apply_daggers(stated, slices)


def _with_notes(report: CitedAnswer, plan: ResearchPlan, slices: Sequence[SliceReport]) -> str:
    """The report's Markdown with its Formulas and Scope blocks."""
    markdown = report.to_markdown()
    formulas = formula_notes(slices, report.references)
    if formulas:
        markdown += f"\n\n{FORMULAS_HEADING}\n\n" + "\n".join(f"- {f}" for f in formulas)
    notes = read_from_later_filings(plan, slices).user_notes() + unused_flag_notes(report, slices)
    if notes:
        markdown += f"\n\n{SCOPE_HEADING}\n\n" + "\n".join(f"- {n}" for n in notes)
    return markdown


class ReportComposer(dspy.Module):
    """Slice reports -> the report (the stage contract: :class:`programs.stages.ComposerStage`)."""

    def __init__(
        self, include_slice_summaries: bool = True, companies: Sequence[Company] | None = None
    ) -> None:
        super().__init__()
        self.include_slice_summaries = include_slice_summaries
        # Who a sentence names, to check it cites that company's filings.
        self.companies = tuple(companies) if companies is not None else load_companies()
        self.sectors = {c.ticker: c.sector for c in self.companies}
        self.compose = dspy.Predict(ComposeReport)

    def forward(
        self,
        question: str,
        plan: ResearchPlan,
        slices: Sequence[SliceReport],
        retrieved_uids: Iterable[str],
    ) -> dspy.Prediction:
        """Findings -> answer (written, or code's figures) -> layout -> citations verified
        -> daggers -> notes."""
        findings = _gather_findings(slices, question, self.companies, self.sectors)
        answer = self._write_answer(question, slices, findings)
        answer.prose, answer.withheld = without_unsettled(
            answer.prose, unsettled_pages(slices), unsettled_sentences(slices)
        )
        _fall_back_to_figures(answer, slices, findings)
        _open_with_verdicts(answer, question, slices, findings, self.sectors)
        _append_computed_figures(answer, slices, findings, question, self.companies)
        # one finding pasted twice is said once; a bare yes after code's cited one goes
        body = without_restated_verdict(without_repeats(answer.prose.body))
        answer.prose = answer.prose.model_copy(update={"body": body})
        draft = self._layout(answer, slices, findings)
        checked = verify_answer(draft, retrieved_uids)
        report = _daggered(checked.answer, slices)
        return dspy.Prediction(
            report=report,
            markdown=_with_notes(report, plan, slices),
            fabricated_citations=checked.fabricated_count,
            dangling_markers=checked.dangling_markers,
            table_rows=[r.model_dump() for r in answer.rows],
            error=answer.error,
        )

    def _write_answer(
        self, question: str, slices: Sequence[SliceReport], findings: _Findings
    ) -> _Answer:
        """The answer's prose and the table's rows: one slice's one probe answer as it
        stands, nothing when no page can be cited, else the model's, checked by code."""
        merged = findings.merged
        answer = _Answer(prose=CitedAnswer(), rows=[], error=None)
        if findings.single is not None:
            # One slice, one probe: its cited answer is the answer; the findings would only
            # repeat it, and there is nothing for a model to compose. Beside angles, the
            # question's own probe answers the question and the angles stay findings.
            answer.prose = CitedAnswer(body=findings.single, references=merged.references)
        elif not merged.references.footnotes:
            pass  # no page to cite: whatever a model wrote would be removed as uncited
        else:
            issues = "\n".join(
                f"{s.slice.label}: {'; '.join(s.open_issues)}" for s in slices if s.flagged
            )
            try:
                out = self.compose(
                    question=question,
                    slice_labels=findings.labels,
                    slice_summaries=_PROBE_HEADING.sub("", merged.to_markdown()),
                    open_issues=issues or "none",
                )
                # A step that fails keeps what the steps before it made (answer.prose).
                written = _HEADING_LINE.sub("", str(out.report_markdown or "")).strip()
                prose = with_references(written, merged.references)
                answer.prose = check_composed(prose, merged, slices, self.companies)
                answer.rows = findings.code_rows or _rows(out.comparison_rows)
            except Exception as exc:
                logger.warning("report composition failed: %s", exc)
                answer.error = f"{type(exc).__name__}: {exc}"[:500]
        answer.rows = answer.rows or findings.code_rows
        return answer

    def _layout(
        self, answer: _Answer, slices: Sequence[SliceReport], findings: _Findings
    ) -> CitedAnswer:
        """The report's blocks: Answer, Comparison (several slices), Findings by slice."""
        prose, error = answer.prose, answer.error
        blocks = [f"## Answer\n\n{prose.body.strip()}" if answer.cited else "## Answer"]
        if not answer.cited or (error and not answer.from_figures):
            # As for slices: an answer that cites nothing is not shown as one.
            blocks.append("_No cited answer could be written; the findings by slice follow._")
        table = comparison_table(findings.labels, answer.rows, slices) if len(slices) > 1 else ""
        if table:
            blocks.append("## Comparison\n\n" + table)
        # A withheld draft stays among the findings, under its dagger.
        shown = findings.single is None or findings.with_angles or answer.withheld
        if (self.include_slice_summaries and shown) or error:
            findings_text = "\n\n".join(p.body for p in findings.parts)
            blocks.append("## Findings by slice\n\n" + findings_text)
        return CitedAnswer(body="\n\n".join(blocks), references=findings.merged.references)
