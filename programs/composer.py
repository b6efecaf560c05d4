"""ReportComposer: slice results -> the final Markdown report.

The LLM writes the argument and chooses the table's figures; code does the rest: slice
summaries merged with one global numbering for the LLM to cite, a comparison table with
one column per slice in plan order (cells the LLM filled, plus an evidence row), the
final renumbering from ¹ by first appearance, fabricated citations removed and counted,
daggers on every sentence that uses a flagged slice, and the Notes and Sources blocks.
A question that came down to one probe of one slice is answered by that probe's cited
answer as it stands, and findings that cite no page get no answer: neither makes an LM
call. A sentence the model wrote without a mark keeps one when it restates a cited
finding (the finding's own markers, found by code:
:func:`programs.attribution.attribute_to_findings`); one that names a company and cites
none of its filings is removed (:mod:`programs.company_check`), and so is one that gives a
company's figure a value its statement facts do not hold (:mod:`programs.figure_check`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence

import dspy

from citations.daggers import SliceResult, apply_daggers
from citations.markup import CitedAnswer, iter_markers
from citations.sentences import without_empty_claims, without_uncited
from citations.verification import verify_answer
from programs.attribution import attribute_to_findings
from programs.company_check import drop_misattributed
from programs.figure_check import drop_contradicting
from programs.figure_table import (
    figure_changes,
    figure_comparisons,
    figure_rows,
    figure_sentences,
    formula_notes,
    with_figure_citations,
)
from programs.synthesiser import merge_parts, with_references
from retrieval.companies import Company, load_companies
from signatures.composer import ComposeReport, TableRow
from signatures.planner import ResearchPlan
from signatures.synthesiser import SliceReport

logger = logging.getLogger(__name__)
#: A probe's heading inside a slice's findings: the model is shown the findings without
#: them (it copies structure, and "Probe 2" under the wrong slice misleads a reader).
_PROBE_HEADING = re.compile(r"^#### Probe \d+:.*\n+", re.MULTILINE)


def _cell(text: str) -> str:
    return re.sub(r"\s+", " ", str(text)).replace("|", "/").strip() or "–"


NO_CITED_FINDINGS = "_No cited findings: the evidence gathered did not support any claim._"


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
    """One column per slice (plan order); rows the LLM filled; an evidence row from code."""
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


def _single_finding(slices: Sequence[SliceReport]) -> str | None:
    """The body of the only probe answer of the only slice, if that is all there is and it
    cites something (then it is the answer as it stands); None otherwise."""
    if len(slices) != 1 or len(slices[0].probe_answers) != 1:
        return None
    answer = slices[0].probe_answers[0].answer
    cites = answer.references.footnotes and any(True for _ in iter_markers(answer.body))
    return answer.body.strip() if cites else None


class ReportComposer(dspy.Module):
    def __init__(
        self, include_slice_summaries: bool = True, companies: Sequence[Company] | None = None
    ) -> None:
        super().__init__()
        self.include_slice_summaries = include_slice_summaries
        # Who a sentence names, to check it cites that company's filings.
        self.companies = tuple(companies) if companies is not None else load_companies()
        self.compose = dspy.Predict(ComposeReport)

    def forward(
        self,
        question: str,
        plan: ResearchPlan,
        slices: Sequence[SliceReport],
        retrieved_uids: Iterable[str],
    ) -> dspy.Prediction:
        labels = [s.slice.label for s in slices]
        sections = []
        for s in slices:
            # A slice whose synthesis failed, or whose summary cites nothing, still reaches
            # the report through its probes' cited answers.
            summary_cites = any(True for _ in iter_markers(s.summary.body))
            source = s.summary if summary_cites else s.answer
            # Prose that cites nothing is not a finding: a slice without one citation shows
            # that plainly instead of unsupported text.
            text = source.body if source.references.footnotes else NO_CITED_FINDINGS
            body = f"### {s.slice.label}\n\n{text}"
            sections.append(CitedAnswer(body=body, references=source.references))
        merged, parts = merge_parts(sections)
        merged, figure_numbers = with_figure_citations(merged, slices)
        code_rows = figure_rows(slices, figure_numbers)
        issues = "\n".join(
            f"{s.slice.label}: {'; '.join(s.open_issues)}" for s in slices if s.flagged
        )
        error = None
        prose, rows = CitedAnswer(), []
        single = _single_finding(slices)
        if single is not None:
            # One slice, one probe: its cited answer is the answer; the findings would only
            # repeat it, and there is nothing for a model to compose.
            prose = CitedAnswer(body=single, references=merged.references)
        elif not merged.references.footnotes:
            pass  # no page to cite: whatever a model wrote would be removed as uncited
        else:
            try:
                out = self.compose(
                    question=question,
                    slice_labels=labels,
                    slice_summaries=_PROBE_HEADING.sub("", merged.to_markdown()),
                    open_issues=issues or "none",
                )
                prose = with_references(str(out.report_markdown or ""), merged.references)
                prose, _ = attribute_to_findings(prose, merged)
                prose, _ = drop_misattributed(prose, self.companies)
                prose, _ = drop_contradicting(prose, slices, self.companies)
                prose = prose.model_copy(update={"body": without_uncited(prose.body)})
                rows = code_rows or _rows(out.comparison_rows)
            except Exception as exc:
                logger.warning("report composition failed: %s", exc)
                error = f"{type(exc).__name__}: {exc}"[:500]
        rows = rows or code_rows
        cited = any(True for _ in iter_markers(prose.body))
        from_figures = not cited and bool(code_rows)
        if from_figures:
            # Code's figures are an answer in their own right, cited to their statement pages.
            prose = CitedAnswer(
                body=figure_sentences(slices, figure_numbers), references=merged.references
            )
            cited = True
        computed = figure_comparisons(slices, figure_numbers) + figure_changes(
            slices, figure_numbers
        )
        if cited and computed:
            # Gaps between companies, and every period's figure with the change and its
            # direction: computed by code, never written by the model.
            body = prose.body.rstrip() + "\n\n" + " ".join(computed)
            prose = prose.model_copy(update={"body": body})
        blocks = [f"## Answer\n\n{prose.body.strip()}" if cited else "## Answer"]
        if not cited or (error and not from_figures):
            # As for slices: an answer that cites nothing is not shown as one.
            blocks.append("_No cited answer could be written; the findings by slice follow._")
        if len(slices) > 1:
            blocks.append("## Comparison\n\n" + comparison_table(labels, rows, slices))
        if (self.include_slice_summaries and single is None) or error:
            blocks.append("## Findings by slice\n\n" + "\n\n".join(p.body for p in parts))
        draft = CitedAnswer(body="\n\n".join(blocks), references=merged.references)
        checked = verify_answer(draft, retrieved_uids)
        # A claim that states nothing (``<br>¹``) cites nothing, so no dagger lands on it.
        stated = checked.answer.model_copy(
            update={"body": without_empty_claims(checked.answer.body)}
        )
        report = apply_daggers(stated, slices)
        markdown = report.to_markdown()
        formulas = formula_notes(slices, report.references)
        if formulas:
            markdown += "\n\n**Formulas**\n\n" + "\n".join(f"- {f}" for f in formulas)
        notes = plan.user_notes() + unused_flag_notes(report, slices)
        if notes:
            markdown += "\n\n**Scope**\n\n" + "\n".join(f"- {n}" for n in notes)
        return dspy.Prediction(
            report=report,
            markdown=markdown,
            fabricated_citations=checked.fabricated_count,
            dangling_markers=checked.dangling_markers,
            table_rows=[r.model_dump() for r in rows],
            error=error,
        )
