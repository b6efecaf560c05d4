"""Stating a computed figure the way the question asks: percent, ratio, days or an amount
in millions/billions, rounded as requested. Formatting only; the value is never changed
except by the rounding the reader asked for."""

from __future__ import annotations

from dataclasses import replace

from calculator.choice import Presentation
from calculator.evaluation import change_ends
from calculator.result import Calculation

_DEFAULT_DECIMALS = {"percent": 1, "points": 1, "ratio": 2, "days": 2, "per_share": 2}


def format_value(calculation: Calculation, presentation: Presentation) -> str:
    """``24.3%``, ``-1.7 percentage points``, ``1.33``, ``42.69 days``, ``$1,577 million``,
    ``$8.70 billion``."""
    display = presentation.display
    decimals = presentation.decimals
    value = calculation.value
    if calculation.unit in ("USD", "shares") and display in ("percent", "points", "ratio", "days"):
        display = "amount"  # an amount asked "as a %" is still an amount
    if display in ("percent", "points"):
        places = _DEFAULT_DECIMALS[display] if decimals is None else decimals
        unit = "%" if display == "percent" else " percentage points"
        return f"{value * 100:,.{places}f}{unit}"
    if display in ("ratio", "days"):
        text = f"{value:,.{_DEFAULT_DECIMALS[display] if decimals is None else decimals}f}"
        return f"{text} days" if display == "days" else text
    if display == "per_share" or calculation.unit == "USD/share":
        return f"${value:,.{2 if decimals is None else decimals}f} per share"
    scaled = value / presentation.scale
    if decimals is None:  # no precision the page does not give: 88 is "$88 million"
        decimals = 2 if abs(scaled) < 100 and scaled != round(scaled) else 0
    sign = "-" if scaled < 0 else ""
    prefix = "$" if calculation.unit == "USD" else ""
    suffix = "" if calculation.unit == "USD" else f" {calculation.unit}"
    return f"{sign}{prefix}{abs(scaled):,.{decimals}f} {presentation.scale_word}{suffix}"


def answer_sentence(calculation: Calculation, presentation: Presentation) -> str:
    """``Operating margin (FY2018): 22.3%.``"""
    value = format_value(calculation, presentation)
    return f"{calculation.title} ({calculation.period.label}): {value}."


def figure_sentence(
    calculation: Calculation, presentation: Presentation, when: str, printed: str, value: str
) -> str:
    """``Capital expenditure (purchases of property) in FY2022 was $1,749 million``: the
    figure (``value`` as formatted, ``printed``: the row label it was read under) at
    ``when`` (:func:`programs.figure_periods.figure_when`); a change with its direction and
    both periods' figures (:func:`change_sentence`)."""
    changed = change_sentence(calculation, presentation, when)
    return changed or f"{calculation.title}{printed} {when} was {value}"


def change_sentence(calculation: Calculation, presentation: Presentation, when: str) -> str | None:
    """``Gross margin rose by 0.7 percentage points from FY2019 to FY2020 (75.3% to
    75.9%)``: a change said with its direction and both periods' figures, as a reader of a
    trend asks it. None for a figure that is no change of one level (a growth, a ratio)."""
    base = calculation.title.removeprefix("Change in ")
    ends = change_ends(calculation)
    if base == calculation.title or base.endswith(" growth") or ends is None:
        return None
    level = replace(
        presentation,
        display="percent" if presentation.display == "points" else presentation.display,
    )
    earlier, later = (format_value(replace(calculation, value=v), level) for v in ends)
    size = format_value(replace(calculation, value=abs(calculation.value)), presentation)
    value = calculation.value
    moved = f"rose by {size}" if value > 0 else f"fell by {size}" if value < 0 else "was unchanged"
    return f"{base[:1].upper()}{base[1:]} {moved} {when} ({earlier} to {later})"
