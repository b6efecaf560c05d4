"""The answer to a question about a company's parts, written by code from the breakdown
table :mod:`programs.part_tables` found: the choice asked first (the highest, the lowest,
the parts above a share, those that declined, the one named and which way it moved), then
every part with its amount, its share and, where printed, its change, cited to the table's
page and the consolidated figure to its statement page. A table that foots to its own total
before reconciling items (intersegment eliminations) says so, with both totals.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from calculator.breakdown import Breakdown, Part
from calculator.result import fact_citation
from citations.markup import Citation, CitedAnswer, Footnote, ReferenceList, render_marker
from domain.cells import SliceRef
from programs.comparisons import millions
from programs.part_tables import PartAsk, PartTable, part_label
from programs.verdicts import FALLS, RISES, direction_answer
from signatures.probes import Probe
from signatures.synthesiser import Figure

#: Rows that reconcile the parts to the total rather than being a part of the business
#: (Intel's "All other": start-up businesses, restructuring charges, unallocated costs).
_ADJUSTMENT = re.compile(
    r"\b(?:eliminat\w*|unallocat\w*|intersegment|reconcil\w*|adjust\w*)\b|^all\s+other\b",
    re.I,
)
#: "Corporate" names a reconciling row only with nothing but such words beside it
#: ("Corporate and other", "Corporate expenses"); "Corporate & Investment Bank" (JPMorgan's)
#: and "International Developmental Licensed Markets & Corporate" (McDonald's) are segments.
_CORPORATE_ONLY = re.compile(
    r"^(?:\W|\b(?:corporate|other|and|the|expenses?|costs?|items?|activities|unallocated|"
    r"shared|services|center|centre|general)\b)*$",
    re.I,
)


def _is_adjustment(label: str) -> bool:
    """Whether a row reconciles the parts to the total rather than being a part."""
    return bool(_ADJUSTMENT.search(label) or _CORPORATE_ONLY.fullmatch(label.strip()))


def _change(breakdown: Breakdown, part: Part) -> str:
    """``, +7.0% from $191,973 million`` (none for a reconciling row: its size is no trend)."""
    change = None if _is_adjustment(part.label) else breakdown.change(part)
    return "" if change is None else f", {change * 100:+.1f}% from {millions(part.prior or 0)}"


def part_probe(table: PartTable, ref: SliceRef) -> Probe:
    """The probe code answers: the measure by part, read from the filing's table."""
    measure, period = table.ask.measure, table.total.period.label
    return Probe(
        probe_title=f"{measure.capitalize()} by part (from the filing's table)",
        probe_question=f"How did {ref.ticker}'s {measure} in {period} split among its parts?",
    )


def part_answer(table: PartTable) -> tuple[CitedAnswer, Figure]:
    """The parts' figures in one cited sentence, after code's answer to the choice asked
    (the highest, the lowest, those above a share, those that declined)."""
    ask, breakdown = table.ask, table.breakdown
    fact_pages = _fact_pages(table)
    citations = list({c.uid: c for c in [table.page, *fact_pages]}.values())
    numbers = {c.uid: n for n, c in enumerate(citations, 1)}
    page_mark = render_marker([numbers[table.page.uid]])
    every_mark = render_marker(list(numbers.values()))
    total_mark = render_marker(sorted({numbers[c.uid] for c in fact_pages}))
    period = table.total.period.label
    listed = "; ".join(
        f"{part_label(p)} {millions(p.value)} ({breakdown.share(p) * 100:.1f}%"
        f"{_change(breakdown, p)})"
        for p in breakdown.parts
    )
    whole = breakdown.total if breakdown.consolidated is None else breakdown.consolidated
    body = f"{ask.measure.capitalize()} in {period} was {millions(whole)}{total_mark}, "
    if breakdown.consolidated is not None:  # the table foots to its own total
        reconciling = millions(breakdown.consolidated - breakdown.total)
        body = (
            f"{body.removesuffix(', ')}; the table's parts add up to "
            f"{millions(breakdown.total)} before reconciling items of {reconciling}, "
        )
    body += f"split as: {listed}{page_mark}."
    prior = table.prior.period.label if table.prior else None
    periods = (prior, period) if prior else None
    verdict, chosen = _verdict(ask, breakdown, table.named, periods)
    if verdict:
        body = f"{verdict}{every_mark}. {body}"
    footnotes = [Footnote(number=n, citation=c) for n, c in enumerate(citations, 1)]
    answer = CitedAnswer(body=body, references=ReferenceList(footnotes=footnotes))
    figure = Figure(
        title=f"{ask.measure.capitalize()} of {part_label(chosen)}" if chosen else ask.measure,
        period=period,
        value=chosen.value if chosen else whole,
        unit="USD",
        text=millions(chosen.value if chosen else whole),
        uids=list(numbers),
        verdict=verdict,
    )
    return answer, figure


def _compared(ask: PartAsk, breakdown: Breakdown, named: Sequence[Part]) -> str:
    """``Americas grew faster than Europe: +10.7% against +6.5%`` for exactly two named
    parts whose change the table gives; empty otherwise."""
    changes = [(p, c) for p in named if (c := breakdown.change(p)) is not None]
    if len(named) != 2 or len(changes) != 2:
        return ""
    (first, a), (second, b) = sorted(changes, key=lambda pc: -pc[1])
    if a == b:
        return f"{part_label(first)} and {part_label(second)} changed alike: {a:+.1%}"
    better = "grew faster than" if b >= 0 else "grew while" if a >= 0 else "fell less than"
    if better == "grew while":
        return (
            f"{part_label(first)}{_possessive(first)} {ask.measure} grew {a:+.1%} while "
            f"{part_label(second)}{_possessive(second)} fell {b:+.1%}"
        )
    return f"{part_label(first)} {better} {part_label(second)}: {a:+.1%} against {b:+.1%}"


def _moved(ask: PartAsk, breakdown: Breakdown, part: Part) -> str | None:
    """``Decreased: iPhone’s revenue fell from $40,665 million to $39,669 million (-2.4%),
    48.5% of revenue`` for a yes/no question on which way the one part named moved; None
    when the question asks no direction or the prior period was not read."""
    change = breakdown.change(part)
    if change is None or part.prior is None:
        return None
    word = direction_answer(ask.asked, part.value != part.prior, part.value > part.prior, "higher")
    if word is None:
        return None
    verb = "rose" if part.value > part.prior else "fell" if part.value < part.prior else "was flat"
    return (
        f"{word}: {part_label(part)}{_possessive(part)} {ask.measure} {verb} from "
        f"{millions(part.prior)} to {millions(part.value)} ({change:+.1%}), "
        f"{breakdown.share(part) * 100:.1f}% of {ask.measure}"
    )


#: A question about a part's share of the whole, not its amount: "did that share grow?",
#: "what percentage of revenue came from iPhone, and did it rise?".
_ASKS_SHARE = re.compile(r"\b(?:share|percent(?:age)?|portion|proportion|mix)\b", re.I)


def _share_moved(
    ask: PartAsk, breakdown: Breakdown, part: Part, periods: tuple[str, str]
) -> str | None:
    """``No: iPhone’s share of revenue fell from 52.5% in FY2021 to 52.1% in FY2022 (-0.4
    points), though its revenue rose 7.0%`` for a question on which way the named part's
    *share* moved: a part can grow more slowly than the whole. None when the question asks
    no share's direction or the prior period's total was not read."""
    asked = ask.asked
    moves = RISES.search(asked) or FALLS.search(asked)
    prior_share = breakdown.prior_share(part)
    if not (_ASKS_SHARE.search(asked) and moves) or prior_share is None:
        return None
    before, now = prior_share * 100, breakdown.share(part) * 100
    points = round(now, 1) - round(before, 1)
    word = direction_answer(asked, points != 0, points > 0, None)
    verb = "rose" if points > 0 else "fell" if points < 0 else "was unchanged"
    prior_label, label = periods
    line = (
        f"{part_label(part)}{_possessive(part)} share of {ask.measure} {verb} from "
        f"{before:.1f}% in {prior_label} to {now:.1f}% in {label} ({points:+.1f} points)"
    )
    if (change := breakdown.change(part)) is not None:
        grew = "rose" if change > 0 else "fell"
        though = "though" if (change > 0) != (points > 0) and points != 0 else "as"
        line += f", {though} its {ask.measure} {grew} {abs(change):.1%}"
    return f"{word}: {line}" if word else line


def _against_threshold(ask: PartAsk, breakdown: Breakdown, part: Part) -> str:
    """``Yes: Cloud services and license support had 71.1% of revenue, more than 70%``: the
    one part named, its share against the share the question asks about."""
    share = breakdown.share(part) * 100
    above = share > (ask.threshold or 0.0)
    opening = ("Yes: " if above else "No: ") if ask.yes_no else ""
    than = "more than" if above else "not more than"
    return (
        f"{opening}{part_label(part)} had {share:.1f}% of {ask.measure}, {than} {ask.threshold:g}%"
    )


#: Of two parts the question names, one is the higher, not the highest.
_PAIRED = {"highest": "higher", "lowest": "lower"}


def _possessive(part: Part) -> str:
    return "’" if part_label(part).endswith("s") else "’s"


def _fact_pages(table: PartTable) -> list[Citation]:
    """The pages of the consolidated figure (and the prior year's) the parts add up to."""
    computed = [table.total, *([table.prior] if table.prior else [])]
    return [fact_citation(f) for c in computed for f in c.inputs]


def _verdict(
    ask: PartAsk,
    breakdown: Breakdown,
    asked_parts: Sequence[Part] = (),
    periods: tuple[str, str] | None = None,
) -> tuple[str, Part | None]:
    """Code's answer to the choice asked, and the part it names (None for a list); a list
    asked of two parts the question names ("How did Americas' growth compare with
    Europe's?") opens with their comparison."""
    parts = [p for p in breakdown.parts if not _is_adjustment(p.label)]
    if not parts:
        return "", None
    if ask.kind == "listed" and (compared := _compared(ask, breakdown, asked_parts)):
        return compared, None
    if ask.kind == "named" and len(asked_parts) == 1 and ask.threshold is not None:
        return _against_threshold(ask, breakdown, asked_parts[0]), asked_parts[0]
    if (
        ask.kind == "named"
        and len(asked_parts) == 1
        and periods is not None
        and (moved := _share_moved(ask, breakdown, asked_parts[0], periods))
    ):
        return moved, asked_parts[0]
    if (
        ask.kind == "named"
        and len(asked_parts) == 1
        and (moved := _moved(ask, breakdown, asked_parts[0]))
    ):
        return moved, asked_parts[0]
    if ask.kind == "named" and asked_parts:
        shares = "; ".join(
            f"{part_label(p)}: {millions(p.value)}, {breakdown.share(p) * 100:.1f}% of "
            f"{ask.measure}{_change(breakdown, p)}"
            for p in asked_parts
        )
        return shares, asked_parts[0]
    if ask.kind == "offered":
        ranked = sorted(parts, key=lambda p: -p.value)
        named = ", ".join(f"{part_label(p)} ({breakdown.share(p) * 100:.1f}%)" for p in ranked)
        return f"What it sells, by share of {ask.measure}: {named}", None
    if ask.kind in ("highest", "lowest"):
        pick = max if ask.kind == "highest" else min
        # "electric or natural gas, which brought in more?": among the parts it names
        part = pick(asked_parts if len(asked_parts) >= 2 else parts, key=lambda p: p.value)
        share = breakdown.share(part) * 100
        rank = _PAIRED[ask.kind] if len(asked_parts) == 2 else ask.kind
        line = (
            f"{part_label(part)} had the {rank} {ask.measure}: {millions(part.value)}, "
            f"{share:.1f}% of the total"
        )
        return line, part
    if ask.kind == "above" and ask.threshold is not None:
        above = [p for p in parts if breakdown.share(p) * 100 > ask.threshold]
        named = ", ".join(f"{part_label(p)} ({breakdown.share(p) * 100:.1f}%)" for p in above)
        opening = ("Yes: " if above else "No: ") if ask.yes_no else ""
        if not above:
            return f"{opening}no part had more than {ask.threshold:g}% of {ask.measure}", None
        had = "each had" if len(above) > 1 else "had"
        return f"{opening}{named} {had} more than {ask.threshold:g}% of {ask.measure}", None
    changed = [p for p in parts if breakdown.change(p) is not None]
    if ask.kind in ("fastest", "slowest") and changed:
        pick = max if ask.kind == "fastest" else min
        part = pick(changed, key=lambda p: breakdown.change(p) or 0.0)
        change = breakdown.change(part) or 0.0
        moved = (
            f"grew fastest: {change:+.1%}"
            if ask.kind == "fastest"
            else f"changed least: {change:+.1%}"
            if change >= 0
            else f"fell the most: {change:+.1%}"
        )
        line = (
            f"{part_label(part)}{_possessive(part)} {ask.measure} {moved}, "
            f"from {millions(part.prior or 0)} to {millions(part.value)}"
        )
        return line, part
    if ask.kind == "declined" and breakdown.prior_total is not None:
        fell = sorted(
            (p for p in parts if (c := breakdown.change(p)) is not None and c < 0),
            key=lambda p: breakdown.change(p) or 0.0,
        )
        if not fell:
            return f"No part's {ask.measure} declined", None
        named = ", ".join(
            f"{part_label(p)} ({(breakdown.change(p) or 0) * 100:+.1f}%)" for p in fell
        )
        return f"{ask.measure.capitalize()} declined in {named}", fell[0]
    return "", None
