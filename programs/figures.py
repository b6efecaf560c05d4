"""Figures from code: the number a question asks for, computed from a slice's statement facts.

A model that copies digits from page text misreads columns and does sums wrong, and a small
one cannot do it at all. When the question names a line item or a metric the calculator
knows ("capital expenditure", "operating margin", "revenue growth"), the figure is read from
the statement facts parsed at ingest and computed by :mod:`calculator`; the model writes prose.

A slice gets one *figure probe* (its question is written here, so the probe loop can tell it
from the model's probes and answer it without a model call). Its answer is one sentence with
the figure and a citation to every input's page; the same :class:`Figure` fills the report's
comparison table and its formula note, so the table is code's, not the model's. A metric
that does not apply (a bank's gross margin, a software company's inventory turnover) gets
code's answer that it does not, beside its revenue or cash (:mod:`programs.inapplicable`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from calculator.answers import figure_sentence, format_value
from calculator.choice import FormulaChoice
from calculator.concepts import CONCEPTS
from calculator.errors import CalculationError
from calculator.evaluation import calculate
from calculator.labelled_lines import line_choice
from calculator.resolution import FactResolver
from calculator.result import Calculation
from citations.markup import CitedAnswer, ReferenceList, render_marker
from domain.cells import SliceRef
from domain.periods import Period, read_periods, slice_period
from domain.quarter_pairs import paired_cells
from programs.absent_items import absence_verdict, unprinted
from programs.comparisons import (
    RACES,
    choice_answer,
    choice_probe,
    comparison_probe,
    cover_answer,
    numbered_footnotes,
    read_cover,
    summed_text,
)
from programs.figure_choice import ChoiceQuestion, read_choice
from programs.figure_formulas import (
    formula_asked,
    formula_inputs,
    names_fixed_years,
    size_asked,
)
from programs.figure_periods import asked_period, figure_when, period_text
from programs.figure_questions import asks_to_choose, outside_the_statements
from programs.figure_verdicts import settled_verdict, verdict_with_period
from programs.inapplicable import (
    deficit_reason,
    inapplicable_probe,
    inapplicable_verdict,
    says_does_not_apply,
    why_inapplicable,
)
from programs.part_answers import part_answer, part_probe
from programs.part_tables import PageSearch, PartTable, PartTables
from programs.row_choices import row_choice_answer, row_choice_probe
from programs.share_asks import share_base, share_sentence, without_share_ask
from programs.verdicts import benchmark_verdict
from retrieval.facts.model import Fact
from retrieval.search.query import drop_instructions
from signatures.probes import FROM_THE_STATEMENTS, Probe
from signatures.synthesiser import Figure
from textnorm.casing import lower_first

FactSource = Callable[[SliceRef], Sequence[Fact]]


@dataclass(frozen=True)
class Computed:
    calculation: Calculation
    choice: FormulaChoice

    @property
    def value_text(self) -> str:
        return format_value(self.calculation, self.choice.presentation)


class Figures:
    """Computes question figures per slice from the store's facts (read once per slice)."""

    def __init__(
        self,
        facts: FactSource,
        sectors: dict[str, str] | None = None,
        pages: PageSearch | None = None,
    ) -> None:
        self._source = facts
        self._sectors = dict(sectors or {})  # ticker -> GICS sector, for the verdicts
        # A question about the company's parts is answered from a searched page's breakdown.
        self._parts = PartTables(pages) if pages is not None else None
        self._cache: dict[SliceRef, list[Fact]] = {}
        self._lock = threading.Lock()

    def __deepcopy__(self, memo: dict) -> Figures:  # a cache over the store, not state
        return self

    def sector(self, ticker: str) -> str:
        """The company's GICS sector ("" when the company map has none)."""
        return self._sectors.get(ticker, "")

    def facts(self, ref: SliceRef) -> list[Fact]:
        with self._lock:
            if ref not in self._cache:
                self._cache[ref] = list(self._source(ref))
            return self._cache[ref]

    def compute(self, question: str, ref: SliceRef, parts: bool = True) -> Computed | None:
        """The question's figure for this slice, or None (nothing computable, or an input
        the slice's filings do not print: never a made-up number; or a question that asks
        which item, not how much, or whether one figure covers another, or what the statements
        do not print: a part of the company, an adjusted measure; or a ratio to negative
        equity, which :meth:`inapplicable` says is not meaningful)."""
        computed = self._figure(question, ref, parts)
        return None if computed and deficit_reason(computed.calculation) else computed

    def _figure(self, question: str, ref: SliceRef, parts: bool = True) -> Computed | None:
        """:meth:`compute`'s figure, a ratio to negative equity included."""
        if asks_to_choose(question) or outside_the_statements(question) or read_cover(question):
            return None
        if parts and self.part_table(question, ref) is not None:
            return None  # the parts' table answers it, not the whole company's figure
        period = asked_period(question, ref)
        choice = formula_asked(without_share_ask(question), period)
        if choice is not None and names_fixed_years(choice):
            if choice.period != period:
                return None  # a fixed-years figure belongs to the slice of its last year
        elif choice is not None:
            choice = replace(choice, period=period)
        if choice is not None and (computed := self._calculated(choice, ref)):
            return computed
        return self._labelled(question, ref, period)

    def _labelled(self, question: str, ref: SliceRef, period: Period) -> Computed | None:
        """The line ``question`` names by its printed label, where the formula its words
        name has no inputs in the slice (Oracle prints depreciation apart from amortisation)."""
        try:
            line = line_choice(question, self.facts(ref), period)
        except Exception:  # as in _calculated
            return None
        return self._calculated(line[0], ref, line[1]) if line else None

    def part_table(self, question: str, ref: SliceRef) -> PartTable | None:
        """The parts' breakdown the question asks about (:mod:`programs.part_tables`)."""
        return None if self._parts is None else self._parts.table(question, ref, self.consolidated)

    def consolidated(
        self, measure: str, question: str, ref: SliceRef
    ) -> tuple[Calculation | None, Calculation | None]:
        """The slice's consolidated ``measure`` ("revenue") for the period the question asks,
        and the year before's as the same filing prints it."""
        period = asked_period(question, ref)
        now, before = (self._concept(measure, ref, p) for p in (period, period.shifted(-1)))
        return (now.calculation if now else None), (before.calculation if before else None)

    def _calculated(
        self, choice: FormulaChoice, ref: SliceRef, resolver: FactResolver | None = None
    ) -> Computed | None:
        """``choice`` computed from the slice's facts (or ``resolver``'s, a labelled line's);
        None when an input is not printed."""
        try:
            facts = self.facts(ref)
        except Exception:  # a store that fails here fails the agents' searches visibly
            return None
        if not facts:
            return None
        try:
            calculation = calculate(
                choice.formula,
                resolver or facts,
                choice.period,
                title=choice.title,
                definitions=choice.definitions,
            )
        except CalculationError:
            return None
        return Computed(calculation, choice)

    def fixed_years(self, question: str, ref: SliceRef) -> list[int]:
        """The other fiscal years a fixed-years figure of this slice spans ("the FY2017 -
        FY2019 average" in FY2019 reads FY2017 and FY2018 from its filing; a CAGR from FY2019
        to FY2021 spans FY2020 too; a race of two growths in FY2022 reads FY2021); else []."""
        computed = self.compute(question, ref)
        if computed is not None and names_fixed_years(computed.choice):
            inputs = list(computed.calculation.inputs)
        elif computed is None and (covered := self.cover(question, ref)) and covered[2] in RACES:
            inputs = [fact for c in covered[:2] for fact in c.calculation.inputs]
        else:
            return []
        return list(range(min(f.fy for f in inputs), ref.fy))

    def probe(self, question: str, ref: SliceRef) -> Probe | None:
        """The figure probe for this slice, when the question asks for a computable figure
        or a choice among statement figures."""
        if (table := self.part_table(question, ref)) is not None:
            return part_probe(table, ref)
        if (largest := row_choice_probe(question, self.facts(ref), ref)) is not None:
            return largest
        computed = self.compute(question, ref)
        if computed is None and (inapplicable := self.inapplicable(question, ref)):
            title, verdict, _ = inapplicable
            return inapplicable_probe(title, verdict, slice_period(ref).label)
        if computed is None and (covered := self.cover(question, ref)):
            source, use, relation = covered
            return comparison_probe(
                source.calculation, use.calculation, relation, slice_period(ref).label
            )
        if computed is None:
            chosen = self.choose(question, ref)
            return choice_probe(chosen[0], slice_period(ref).label) if chosen else None
        title, period = computed.calculation.title, period_text(computed.calculation.period)
        return Probe(
            probe_title=f"{title}{FROM_THE_STATEMENTS}",
            probe_question=f"What was {lower_first(title)} in {period}?",
        )

    def inapplicable(self, question: str, ref: SliceRef) -> tuple[str, str, Computed] | None:
        """(the metric's title, code's verdict that it does not apply, the cash or revenue
        read instead) when the company's statements lack what the metric is built on
        (:mod:`programs.inapplicable`); or (the item's title, code's "No" or its ratio's 0,
        the financing total) when they print no such payment (:mod:`programs.absent_items`)."""
        if asks_to_choose(question) or outside_the_statements(question):
            return None
        period = asked_period(question, ref)
        choice = formula_asked(question, period)
        concepts = {r.concept for r in formula_inputs(choice)} if choice is not None else set()
        facts = self.facts(ref)
        if choice and (none := absence_verdict(question, choice, facts, period.label)):
            financing = self._concept("cash flow from financing activities", ref, period)
            return (choice.title, none, financing) if financing else None
        raw = self._figure(question, ref)
        if raw and (deficit := deficit_reason(raw.calculation)):  # equity read instead
            equity, what = self._concept("shareholders' equity", ref, period), "equity"
            verdict = inapplicable_verdict(choice.title, ref.ticker, deficit, what)
            return (choice.title, verdict, equity) if equity else None
        reason, instead = why_inapplicable(concepts, self.sector(ref.ticker), facts) or ("", ())
        found = [(name, c) for name in instead if (c := self._concept(name, ref, period))]
        if choice is None or not found or raw is not None:
            return None  # nothing to read instead, or its statements hold the inputs after all
        name, reported = found[0]
        return choice.title, inapplicable_verdict(choice.title, ref.ticker, reason, name), reported

    def choose(self, question: str, ref: SliceRef) -> tuple[ChoiceQuestion, list[Computed]] | None:
        """The choice the question asks among statement figures and each option's figure,
        in the question's order; None unless every option's figure is computable here."""
        asked = read_choice(drop_instructions(question))
        if asked is None or outside_the_statements(question):
            return None
        period = asked_period(question, ref)
        computed: list[Computed] = []
        for candidates in asked.candidates:
            figure = next(
                (c for text in candidates if (c := self._concept(text, ref, period))), None
            )
            if figure is None:
                return None
            computed.append(figure)
        names = {c.choice.formula for c in computed}
        return (asked, computed) if len(names) == len(computed) else None

    def cover(self, question: str, ref: SliceRef) -> tuple[Computed, Computed, str] | None:
        """The two figures a "did A cover B?", "was A more than B?" or "did A grow faster than
        B?" question compares, and how (:mod:`programs.comparisons`), read from the slice's
        facts: both sizes in money, or both growths over the year before; else None."""
        asked = read_cover(drop_instructions(question))
        if asked is None or outside_the_statements(question):
            return None
        period, race = asked_period(question, ref), asked.relation in RACES
        read = self._growth if race else self._size
        source, use = (read(text, ref, period) for text in (asked.source, asked.use))
        if source is None or use is None:
            return None
        amounts = source.calculation.unit == use.calculation.unit == "USD"
        return (source, use, asked.relation) if amounts or race else None

    def _growth(self, text: str, ref: SliceRef, period: Period) -> Computed | None:
        choice = formula_asked(f"What was {text} growth?", period)  # over the year before
        grown = choice is not None and choice.title.endswith(" growth")
        return self._calculated(choice, ref) if grown and choice.period == period else None

    def _size(self, text: str, ref: SliceRef, period: Period) -> Computed | None:
        """A line item or metric ``text`` names, as asked its size (an outflow's ``abs``)."""
        facts = self.facts(ref)  # "capex and dividends": their sum, a payment not made none
        choice = size_asked(text, period, lambda item: unprinted(item, facts))
        if choice is None:
            return None
        calculated = self._calculated(choice, ref)
        return calculated or self._labelled(f"What was {text}?", ref, period)

    def _concept(self, text: str, ref: SliceRef, period: Period) -> Computed | None:
        """One line item named by ``text``, read from the slice's facts (a metric is no
        option's figure: "cash flow from operations" is cash from operations, not a ratio)."""
        choice = formula_asked(f"What was {text}?", period)
        if choice is None or choice.formula not in CONCEPTS:
            return None
        return self._calculated(replace(choice, period=period), ref)

    def judges(self, question: str, ref: SliceRef) -> bool:
        """Whether the slice's figure settles the question's "is it healthy?" by a shared
        benchmark (:func:`programs.verdicts.benchmark_verdict`)."""
        if (computed := self.compute(question, ref)) is None:
            return False
        calc = computed.calculation
        return benchmark_verdict(question, calc.title, calc.value, computed.value_text) is not None

    def is_figure_probe(self, probe: Probe, question: str, ref: SliceRef) -> bool:
        """Whether ``probe`` is the one :meth:`probe` writes (stateless, so resume agrees)."""
        mine = self.probe(question, ref)
        return mine is not None and mine == probe

    def answer(
        self, question: str, ref: SliceRef, parts: bool = True
    ) -> tuple[CitedAnswer, Figure] | None:
        """The figure probe's answer: one cited sentence, and the figure for table and notes
        (``parts=False``: not the parts' table, for a draft's sentence checked by code)."""
        if parts and (table := self.part_table(question, ref)) is not None:
            return part_answer(table)
        if (largest := row_choice_answer(question, self.facts(ref), ref)) is not None:
            return largest
        computed = self.compute(question, ref, parts=False)
        if computed is None and (inapplicable := self.inapplicable(question, ref)):
            _, verdict, reported = inapplicable
            return self._answer(question, ref, reported, verdict)
        if computed is None and (covered := self.cover(question, ref)):
            source, use, relation = covered
            texts = [
                summed_text(c.value_text, c.choice.formula, c.calculation) for c in (source, use)
            ]
            return cover_answer(source.calculation, texts[0], use.calculation, texts[1], relation)
        if computed is None:
            chosen = self.choose(question, ref)
            if chosen is None:
                return None
            asked, options = chosen
            texts = [c.value_text for c in options]
            return choice_answer(asked, [c.calculation for c in options], texts)
        return self._answer(question, ref, computed)

    def years_before(self, question: str, ref: SliceRef) -> list[tuple[CitedAnswer, Figure]]:
        """The earlier years' figures as this slice's filing prints them beside its own,
        earliest first: each earlier year asked (the year before, for a trend) that its own
        slice cannot give. AmEx's FY2021 revenue "compared with the prior year" is in the
        FY2022 10-K; Intel's gross margin "from FY2018 to FY2020" is in the FY2020 one."""
        computed = self.compute(question, ref) or self._read_instead(question, ref)
        asked, own = read_periods(question), computed.calculation.period.fy if computed else 0
        years = asked.fiscal_years  # "between FY2022 and FY2023": FY2021 is not asked
        wanted = [fy for fy in sorted(years) if fy < own]
        if asked.trend and len(years) < 2:
            wanted = [own - 1]
        if pairs := paired_cells(asked):  # quarter by quarter: the year-ago one only if asked
            wanted = [ref.fy - 1] if (ref.fy - 1, ref.fq) in pairs else []
        if computed is None or asked.sequential or not wanted:
            return []
        if any(r.period.absolute or r.period.offset for r in formula_inputs(computed.choice)):
            return []  # the figure is a change or a fixed-years figure already
        found = []
        for fy in wanted:
            before = SliceRef(ticker=ref.ticker, fy=fy, fq=ref.fq)
            if self.compute(question, before) or self._read_instead(question, before):
                continue  # the earlier slice gives it from its own filing
            period = computed.choice.period.shifted(fy - own)
            earlier = self._calculated(replace(computed.choice, period=period), ref)
            if earlier is None or deficit_reason(earlier.calculation):
                continue  # not printed, or a ratio to a deficit, which is not meaningful
            found.append(self._answer(question, ref, earlier, judged=False))
        return found

    def _read_instead(self, question: str, ref: SliceRef) -> Computed | None:
        """The figure read instead of a metric that does not apply (FedEx's operating income
        for a gross margin it cannot have): asked whether its gross margin improved, the
        answer gives both years of what is read instead, not one year and no direction.
        None for a payment the statements do not print or a ratio to a deficit, whose
        stand-ins (the financing total, equity) say nothing about a trend."""
        inapplicable = self.inapplicable(question, ref)
        if inapplicable is None or not says_does_not_apply(inapplicable[1]):
            return None
        reported = inapplicable[2]
        return None if reported.choice.formula == "equity" else reported

    def _share_base(self, question: str, ref: SliceRef, figure: Calculation) -> Computed | None:
        """The figure a question asks ``figure``'s share of, read in the same period
        (:mod:`programs.share_asks`); None unless both are amounts and the base is positive."""
        text = share_base(drop_instructions(question))
        if text is None or figure.unit != "USD":
            return None
        base = self._size(text, ref, figure.period)
        positive = base is not None and base.calculation.value > 0
        return base if positive and base.calculation.unit == "USD" else None

    def _answer(
        self,
        question: str,
        ref: SliceRef,
        computed: Computed,
        verdict: str | None = None,
        judged: bool = True,
    ) -> tuple[CitedAnswer, Figure]:
        """``computed``'s cited sentence and figure, after code's verdict (``verdict``, or,
        when ``judged``, a benchmark's or a change's that the figure settles)."""
        calculation = computed.calculation
        base = self._share_base(question, ref, calculation)
        numbers, footnotes = numbered_footnotes(
            [calculation, *([base.calculation] if base else [])]
        )
        marker = render_marker([numbers[uid] for uid in dict.fromkeys(calculation.citations)])
        value = computed.value_text
        printed = calculation.printed_as()
        when = figure_when(calculation, names_fixed_years(computed.choice))
        said = figure_sentence(calculation, computed.choice.presentation, when, printed, value)
        sentence = f"{said}{marker}."
        verdict = verdict or (
            judged
            and settled_verdict(
                question,
                computed.choice.formula,
                calculation.title,
                calculation.value,
                value,
                computed.choice.presentation.display,
                self.sector(ref.ticker),
            )
        )
        if verdict:  # a yes/no the figure settles (a benchmark, a direction): the answer first
            said = verdict_with_period(verdict, value, when)  # the figure said once, dated
            named = lower_first(calculation.title)  # with its printed label, as the line had
            verdict = said.replace(named, named + printed, 1) if said else verdict
            sentence = f"{verdict}{marker}." if said else f"{verdict}{marker}. {sentence}"
        if base:  # "…, and what share of revenue was that?"
            every = render_marker(list(numbers.values()))
            sentence += " " + share_sentence(calculation, base.calculation, base.value_text, every)
        answer = CitedAnswer(body=sentence, references=ReferenceList(footnotes=footnotes))
        figure = Figure(
            title=calculation.title,
            period=period_text(calculation.period),
            value=calculation.value,
            unit=calculation.unit,
            text=value,
            formula=calculation.formula_line() if len(calculation.inputs) > 1 else "",
            uids=list(numbers),  # its pages, and a share's base's where one is given
            inputs=calculation.input_lines(),
            verdict=verdict or "",
        )
        return answer, figure
