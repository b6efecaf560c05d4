"""The report's figures, laid out by code: comparison-table rows and formula notes.

Figures were computed from statement facts (:mod:`programs.figures`); here they become the
comparison table's rows (one per figure title, one cell per slice, each cell cited to its
inputs' pages) and the Notes line that shows each computed formula once, with the report's
own citation numbers. No model writes a digit of either.
"""

from __future__ import annotations

from collections.abc import Sequence

from citations.markup import Citation, CitedAnswer, Footnote, ReferenceList, render_marker
from citations.renumbering import rewrite_markers
from programs.figures import lower_first
from signatures.composer import TableRow
from signatures.synthesiser import Figure, SliceReport


def slice_figures(report: SliceReport) -> list[Figure]:
    return [f for p in report.probe_answers for f in p.figures]


def with_figure_citations(
    merged: CitedAnswer, slices: Sequence[SliceReport]
) -> tuple[CitedAnswer, dict[str, int]]:
    """``merged`` with a footnote for every figure input page it lacks, and uid -> number.

    A slice summary the model wrote may not cite the page a figure came from; the table
    cites it all the same, so the page joins the list the report is verified against.
    """
    footnotes = list(merged.references.footnotes)
    numbers = {f.citation.uid: f.number for f in footnotes}
    known: dict[str, Citation] = {
        f.citation.uid: f.citation for s in slices for f in s.answer.references.footnotes
    }
    for report in slices:
        for figure in slice_figures(report):
            for uid in figure.uids:
                if uid not in numbers and uid in known:
                    numbers[uid] = max(numbers.values(), default=0) + 1
                    footnotes.append(Footnote(number=numbers[uid], citation=known[uid]))
    references = ReferenceList(footnotes=footnotes)
    return merged.model_copy(update={"references": references}), numbers


def _markers(figure: Figure, numbers: dict[str, int]) -> str:
    """The figure's citation markers in the report's numbering ('' if none can be cited)."""
    marks = sorted({numbers[u] for u in figure.uids if u in numbers})
    return render_marker(marks) if marks else ""


def figure_rows(slices: Sequence[SliceReport], numbers: dict[str, int]) -> list[TableRow]:
    """One row per figure title, in first-seen order; a cell is the value and its markers."""
    rows: dict[str, dict[str, str]] = {}
    for report in slices:
        for figure in slice_figures(report):
            markers = _markers(figure, numbers)
            if not markers:
                continue  # a figure whose pages cannot be cited is not shown
            cells = rows.setdefault(figure.title, {})
            cells.setdefault(report.slice.label, f"{figure.text}{markers}")
    return [TableRow(metric=title, values=values) for title, values in rows.items()]


def formula_notes(slices: Sequence[SliceReport], final: ReferenceList) -> list[str]:
    """``MMM FY2022 Q4: Operating margin = operating income¹ ÷ revenue²``, once per figure,
    numbered as the finished report numbers its Sources."""
    numbers = {f.citation.uid: f.number for f in final.footnotes}
    lines: list[str] = []
    for report in slices:
        for figure in slice_figures(report):
            if not figure.formula or not all(u in numbers for u in figure.uids):
                continue
            local = {i: numbers[uid] for i, uid in enumerate(figure.uids, 1)}
            line = f"{report.slice.label}: " + rewrite_markers(figure.formula, local.get)
            if line not in lines:
                lines.append(line)
    return lines


def figure_sentences(slices: Sequence[SliceReport], numbers: dict[str, int]) -> str:
    """The figures as plain cited sentences: the answer code can give when the model wrote
    none that cites anything."""
    lines = []
    for report in slices:
        for figure in slice_figures(report):
            markers = _markers(figure, numbers)
            if markers:
                title = lower_first(figure.title)
                lines.append(f"{report.slice.label}: {title} was {figure.text}{markers}.")
    return "\n\n".join(lines)
