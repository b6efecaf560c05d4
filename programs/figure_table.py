"""The report's figures, laid out by code: comparison-table rows and formula notes.

Figures were computed from statement facts (:mod:`programs.figures`); here they become the
comparison table's rows (one per figure title, one cell per slice, each cell cited to its
inputs' pages) and the Notes line that shows each computed formula once, with the report's
own citation numbers. No model writes a digit of either.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from itertools import pairwise

from citations.markup import Citation, CitedAnswer, Footnote, ReferenceList, render_marker
from citations.renumbering import rewrite_markers
from domain.cells import SliceRef
from domain.periods import parse_cell
from programs.inapplicable import DOES_NOT_APPLY
from programs.series_verdicts import (
    recovery_verdict,
    sign_verdict,
    steadiness_verdict,
    stepwise_verdict,
)
from programs.verdicts import Point, asks_direction, trend_verdict
from signatures.composer import TableRow
from signatures.planner import ResearchPlan
from signatures.synthesiser import Figure, SliceReport
from textnorm.casing import lower_first


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


def figure_markers(figure: Figure, numbers: dict[str, int]) -> str:
    """The figure's citation markers in the report's numbering ('' if none can be cited)."""
    marks = sorted({numbers[u] for u in figure.uids if u in numbers})
    return render_marker(marks) if marks else ""


def figure_rows(slices: Sequence[SliceReport], numbers: dict[str, int]) -> list[TableRow]:
    """One row per figure title, in first-seen order; a cell is the value and its markers."""
    rows: dict[str, dict[str, str]] = {}
    for report in slices:
        for figure in slice_figures(report):
            markers = figure_markers(figure, numbers)
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
            markers = figure_markers(figure, numbers)
            if markers:
                title = lower_first(figure.title)
                lines.append(f"{report.slice.label}: {title} was {figure.text}{markers}.")
    return "\n\n".join(lines)


def figure_verdicts(
    slices: Sequence[SliceReport],
    numbers: dict[str, int],
    over_series: Collection[tuple[str, str]] = (),
) -> list[str]:
    """Code's yes/no on each benchmarked figure (:mod:`programs.verdicts`), cited: the
    direct answer a judgement question opens with; labelled by slice when there are several.
    A figure whose series code answered as one (``over_series``: ticker and title, from
    :func:`series_verdicts`) has no verdict of each period's too."""
    lines = []
    for report in slices:
        for figure in slice_figures(report):
            markers = figure_markers(figure, numbers)
            if (report.slice.ticker, figure.title) in over_series:
                continue
            if figure.verdict and markers:
                label = f"{report.slice.label}: " if len(slices) > 1 else ""
                lines.append(f"{label}{figure.verdict}{markers}.")
    return lines


_SCALE_RE = re.compile(r"\b(thousand|million|billion|trillion)\b")
_SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}


def amount_like(value: float, like: Figure) -> str:
    """``value`` written as ``like`` writes its figure: currency sign, scale word, decimals."""
    decimals = len(m.group(1)) if (m := re.search(r"\d\.(\d+)", like.text)) else 0
    word = m.group(1) if (m := _SCALE_RE.search(like.text)) else ""
    # A figure's value is in units (dollars); its text in the scale it was printed in.
    printed = (
        abs(value) / _SCALES[word] if word and abs(like.value) >= _SCALES[word] else abs(value)
    )
    sign = "$" if "$" in like.text else ""
    return f"{sign}{printed:,.{decimals}f}" + (f" {word}" if word else "")


_PERCENT_RE = re.compile(r"(-?[\d,]*\.?\d+)\s*%")


def percent_points(figure: Figure) -> float:
    """A percentage figure in points as printed (``19.1%`` -> 19.1). The calculator keeps a
    ratio as a fraction (0.191), so subtracting values would give 0.017 "points"; a change
    or gap read from the printed figures is also the one the reader can check."""
    found = _PERCENT_RE.search(figure.text)
    return float(found.group(1).replace(",", "")) if found else figure.value * 100


def span(before: Figure, after: Figure) -> str:
    """``from $1,577 million in FY2021 to $1,749 million in FY2022``: both periods' figures,
    as the change line and code's trend verdict both write them."""
    return f"from {before.text} in {before.period} to {after.text} in {after.period}"


def change(before: Figure, after: Figure) -> str:
    """``up $172 million (+10.9%)``, ``down 0.9 percentage points`` or ``unchanged``: the
    change and its direction, by code. A percentage's change is in percentage points; a fall
    in a figure is "down" whatever the figure means (whether that is better is the analyst's
    reading). The relative change is given between two positive figures only: from a loss
    (PG&E's net income, -$88 million to $1,814 million, "+2161.4%") or to one, a percentage
    says nothing analysts would read ("not meaningful")."""
    delta = after.value - before.value
    direction = "up" if delta > 0 else "down" if delta < 0 else "unchanged"
    if direction == "unchanged":
        return direction
    if "%" in after.text:
        points = percent_points(after) - percent_points(before)
        return f"{direction} {abs(points):.1f} percentage points"
    relative = f" ({delta / before.value:+.1%})" if before.value > 0 < after.value else ""
    return f"{direction} {amount_like(delta, after)}{relative}"


def change_sentence(ticker: str, before: Figure, after: Figure, markers: str) -> str:
    """``MMM capital expenditure went from $1,577 million in FY2021 to $1,749 million in
    FY2022, up $172 million (+10.9%)¹²``: both figures, the change and its direction."""
    title = lower_first(after.title)
    return f"{ticker} {title} went {span(before, after)}, {change(before, after)}{markers}."


def figure_changes(
    slices: Sequence[SliceReport], numbers: dict[str, int], told: str = ""
) -> list[str]:
    """One sentence per consecutive pair of periods of the same figure of the same company
    (a trend or multi-year question's answer states every period, the change and its
    direction, each cited); nothing when no figure spans two periods, and none for a pair
    whose two figures ``told`` (the answer so far) already gives (code's trend verdict)."""
    sentences = []
    for ticker, figures in _series(slices, numbers):
        for before, after in pairwise(figures):
            if span(before, after) not in told:
                marks = _pair_markers(before, after, numbers)
                sentences.append(change_sentence(ticker, before, after, marks))
    return sentences


def series_lines(
    slices: Sequence[SliceReport], numbers: dict[str, int], stated: str
) -> re.Pattern[str] | None:
    """Code's one-figure sentences (``Operating margin in FY2021 was 20.8%.``, ``Capital
    expenditure (purchases of …) in FY2021 was …``, ``MMM FY2021 Q4: operating margin was
    20.8%.``, citation marks aside), and a composer's copy of one without its period
    (``Effective tax rate was 12.2%.``, which says less than the line), for each figure
    whose periods ``stated`` already gives pair by pair (a change line, code's trend
    verdict): beside it they say the same figures a second time. None when there are none."""
    forms = []
    labels = {(r.slice.ticker, f.period): r.slice.label for r in slices for f in slice_figures(r)}
    for ticker, figures in _series(slices, numbers):
        if not all(span(before, after) in stated for before, after in pairwise(figures)):
            continue
        for figure in figures:
            value = re.escape(f" was {figure.text}.")
            period = re.escape(figure.period)
            forms.append(rf"{re.escape(figure.title)}(?: \(.*\))?(?: in {period})?{value}")
            label = labels.get((ticker, figure.period))
            if label:
                forms.append(re.escape(f"{label}: {lower_first(figure.title)}") + value)
    return re.compile("|".join(forms)) if forms else None


def trend_verdicts(
    question: str,
    slices: Sequence[SliceReport],
    numbers: dict[str, int],
    sectors: dict[str, str] | None = None,
) -> list[str]:
    """Code's answer to a yes/no question on whether a figure improved, rose or fell
    (:func:`programs.verdicts.trend_verdict`), from its first to its last period, or stayed
    within a band each year (:func:`programs.series_verdicts.steadiness_verdict`), or was
    negative in any period (:func:`programs.series_verdicts.sign_verdict`) or turned
    positive by the last (:func:`programs.series_verdicts.recovery_verdict`), cited."""
    return series_verdicts(question, slices, numbers, sectors)[0]


def series_verdicts(
    question: str,
    slices: Sequence[SliceReport],
    numbers: dict[str, int],
    sectors: dict[str, str] | None = None,
) -> tuple[list[str], set[tuple[str, str]]]:
    """:func:`trend_verdicts`' lines, and the ticker and title of each figure answered over
    its whole series (a band, a sign, each step), whose periods need no verdict of their own."""
    lines, whole = [], set()
    for ticker, series in _series(slices, numbers):
        figures = _asked(series, slices)
        first, last = figures[0], figures[-1]
        label = f"{ticker}: " if len(_tickers(slices)) > 1 else ""
        if "%" in last.text and (
            steady := steadiness_verdict(
                question, last.title, [(f.period, percent_points(f), f.text) for f in figures]
            )
        ):
            markers = sorted({numbers[u] for f in figures for u in f.uids if u in numbers})
            lines.append(f"{label}{steady}{render_marker(markers)}.")
            whole.add((ticker, last.title))
            continue
        sector = (sectors or {}).get(ticker, "")
        series = [Point(f.text, f.period, f.value) for f in figures]
        if over_series := (
            stepwise_verdict(question, last.title, series, sector)
            or sign_verdict(question, last.title, series)
            or recovery_verdict(question, last.title, series)
        ):
            markers = sorted({numbers[u] for f in figures for u in f.uids if u in numbers})
            lines.append(f"{label}{over_series}{render_marker(markers)}.")
            whole.add((ticker, last.title))
            continue
        points = [Point(f.text, f.period, f.value) for f in (first, last)]
        verdict = trend_verdict(question, last.title, *points, sector=sector)
        if verdict and len(figures) == 2 and first.value != last.value:
            verdict += f", {change(first, last)}"  # the change line would repeat the figures
        if verdict:
            lines.append(f"{label}{verdict}{_pair_markers(first, last, numbers)}.")
    return lines, whole


def incomparable_verdicts(
    question: str,
    slices: Sequence[SliceReport],
    numbers: dict[str, int],
    sectors: dict[str, str] | None = None,
) -> list[str]:
    """The direct answer to a yes/no question on whether a figure rose or improved when it
    does not apply in one of the periods asked, cited: ``Not comparable: debt-to-equity
    does not apply in FY2022; it was 84.33 in FY2023².`` (Oracle's FY2022 equity was a
    deficit). No trend is drawn across such a period, so :func:`trend_verdicts` says
    nothing, and the figure of the period where it applies would otherwise stand only in
    the table."""
    lines = []
    for ticker in dict.fromkeys(report.slice.ticker for report in slices):
        reports = [report for report in slices if report.slice.ticker == ticker]
        lacking: dict[str, list[str]] = {}  # title -> the periods it does not apply in
        for report in reports:
            for probe in report.probe_answers:
                if probe.probe_title.endswith(DOES_NOT_APPLY) and probe.figures:
                    title = probe.probe_title.removesuffix(DOES_NOT_APPLY)
                    lacking.setdefault(title, []).append(probe.figures[0].period)
        sector = (sectors or {}).get(ticker, "")
        for title, periods in lacking.items():
            shown = [
                f
                for report in reports
                for f in slice_figures(report)
                if f.title == title and f.period not in periods and figure_markers(f, numbers)
            ]
            if not shown or not asks_direction(question, title, sector):
                continue
            label = f"{ticker}: " if len(_tickers(slices)) > 1 else ""
            stated = "; ".join(f"{f.text} in {f.period}{figure_markers(f, numbers)}" for f in shown)
            lines.append(
                f"{label}Not comparable: {lower_first(title)} does not apply in "
                f"{' and '.join(periods)}; it was {stated}."
            )
    return lines


def _tickers(slices: Sequence[SliceReport]) -> set[str]:
    return {report.slice.ticker for report in slices}


def _series(
    slices: Sequence[SliceReport], numbers: dict[str, int]
) -> list[tuple[str, list[Figure]]]:
    """Each company's cited figure of one title over two periods or more, oldest first."""
    series: dict[tuple[str, str, str], dict[str, tuple[tuple[int, int], Figure]]] = {}
    for report in slices:
        ref = report.slice
        for figure in slice_figures(report):
            if figure_markers(figure, numbers):
                key = (ref.ticker, figure.title, figure.unit)
                series.setdefault(key, {}).setdefault(
                    figure.period, (_position(figure, ref), figure)
                )
    return [
        (ticker, [figure for _, figure in sorted(points.values(), key=lambda p: p[0])])
        for (ticker, _, _), points in series.items()
        if len(points) > 1
    ]


def _asked(figures: list[Figure], slices: Sequence[SliceReport]) -> list[Figure]:
    """The figures of the periods planned, where two or more are: asked "Did Foot Locker's
    total debt rise in FY2023?", FY2022 was planned beside it, and FY2022's filing also
    printed FY2021's, so a verdict from the first figure to the last answered "Yes: rose from
    $110 million in FY2021 to $452 million in FY2023" where FY2023's fell from FY2022's.
    A period read only from a comparative column (no slice of its own) stays when it is
    the one earlier figure the question has."""
    planned = {(r.slice.fy, r.slice.fq or 4) for r in slices}
    within = [f for f in figures if _position(f, slices[0].slice) in planned]
    return within if len(within) > 1 else figures


def _position(figure: Figure, ref: SliceRef) -> tuple[int, int]:
    """Where ``figure`` stands in time: its own period ("FY2021" read from FY2022's
    comparative columns stands before FY2022's figure of the same slice), else its slice's."""
    try:
        fy, fq = parse_cell(figure.period)
    except ValueError:
        return ref.fy, ref.fq or 4
    return fy, fq or 4


#: An input's period as :meth:`calculator.result.Calculation.input_lines` writes it.
_INPUT_PERIOD = re.compile(r"^\S+ (FY\d{4}(?:Q[1-4])?):")


def _input_positions(figure: Figure) -> list[tuple[int, int]]:
    """The periods ``figure``'s inputs were read for: a growth figure's prior year too."""
    positions = []
    for line in figure.inputs:
        if (found := _INPUT_PERIOD.match(line)) is not None:
            fy, fq = parse_cell(found.group(1))
            positions.append((fy, fq or 4))
    return positions


def _pair_markers(before: Figure, after: Figure, numbers: dict[str, int]) -> str:
    return render_marker(sorted({numbers[u] for u in [*before.uids, *after.uids] if u in numbers}))


def read_from_later_filings(plan: ResearchPlan, slices: Sequence[SliceReport]) -> ResearchPlan:
    """``plan`` with each cell it lists as not in the grid, whose figure a later slice read
    from its own filing's comparative columns, said so in Scope instead: "Not in the grid,
    so not researched: AXP FY2021 Q4" beside an answer stating FY2021's revenue read as if
    the figure came from nowhere."""
    read: dict[str, str] = {}
    for report in slices:
        for figure in slice_figures(report):
            # its own period, and each input's ("revenue FY2022: …" in a growth figure)
            periods = [_position(figure, report.slice), *_input_positions(figure)]
            for fy, fq in periods:
                label = SliceRef(ticker=report.slice.ticker, fy=fy, fq=fq).label
                if label in plan.missing and label != report.slice.label:
                    read.setdefault(label, report.slice.label)
    if not read:
        return plan
    lines = [
        f"{label} is not in the grid; its figures are read from {later}'s filing, which "
        "reports them beside its own"
        for label, later in read.items()
    ]
    return plan.model_copy(
        update={
            "missing": [m for m in plan.missing if m not in read],
            "scope": [*plan.scope, *lines],
        }
    )
