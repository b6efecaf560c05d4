"""Interest expense read from a note's table, where the income statement prints none.

Apple, Microsoft, eBay, 3M, Pfizer and PepsiCo print no interest expense row on their
income statements: it sits inside "Other income/(expense), net" or "Interest expense, net",
and its own figure is in a note ("Interest and other, net": interest income, interest
expense, …). 71 of the grid's 248 10-Ks had no interest expense fact, so an interest
coverage question went to the agents, who wrote "Yes, above 5" with no figure.

A note's row is read only where nothing else is: the document's statements hold no
interest expense at all; the row's label is the line itself ("Interest expense", "Total
interest expense"), not a non-GAAP adjustment ("Interest expense (after-tax)"); and its
table also prints interest income, as a table of interest is. A table of derivative gains
by the line they were booked in ("Interest expense | 43") prints none, and is not read.
Its header must place every column in the fiscal calendar and state a scale (or the
document's statements must), as for a statement's row, and a row with a percentage among
its values is not read: MD&A prints a change column after each year's ("2016 | % Change |
2015"), and eBay's FY2015 interest expense had been read as the 56% beside FY2016's.
Such facts carry the statement :data:`NOTES`: the calculator prefers a statement's own row
wherever one is printed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from retrieval.facts.columns import columns, page_head, scale_of
from retrieval.facts.fiscal import place_columns
from retrieval.facts.layout import column_count, segments
from retrieval.facts.model import NOTES, Fact
from retrieval.facts.row_facts import row_facts
from retrieval.pages import Page

#: The row labels read, as printed (a footnote mark aside), and the concept each is.
_LINES = {"interest expense": "interest_expense", "total interest expense": "interest_expense"}
_FOOTNOTE_MARK = re.compile(r"\s*(?:\(\w\)|\*+)\s*$")
#: A row of interest earned: what makes a table a table of interest.
_INTEREST_INCOME = re.compile(r"\binterest\b[\w\s,&]*\bincome\b|\binvestment income\b", re.I)


def _line(label: str) -> str | None:
    return _LINES.get(_FOOTNOTE_MARK.sub("", " ".join(label.lower().split())))


def note_facts(
    pages: Sequence[Page], read: Sequence[Fact], usual_scale: float | None
) -> list[Fact]:
    """The interest expense facts of the document's note tables (see the module's
    docstring); none when its statements, ``read``, already hold interest expense.
    ``usual_scale`` is the scale the document's statements state most often."""
    if any(fact.concept in _LINES.values() for fact in read):
        return []
    found: list[Fact] = []
    for page in pages:
        if "interest expense" not in page.text.lower() or page.page_id is None:
            continue
        head = page_head(page.text)
        for table in segments(page.text, carried="income"):
            if not any(_INTEREST_INCOME.search(row.label) for row in table.rows):
                continue
            width = column_count(table)
            cols = columns(table.header_lines, table.years, width)
            periods = cols and place_columns(cols, "income", page.doc_type, page.fy, page.fq)
            scale = scale_of(" ".join(table.header_lines)) or scale_of(head) or usual_scale
            if not cols or not periods or scale is None:
                continue
            for row in table.rows:
                concept = _line(row.label)
                if concept is None or len(row.values) != width:
                    continue
                if any("%" in value.text for value in row.values):
                    continue  # change columns among the years' (MD&A): not placed apart
                found.extend(
                    row_facts(
                        page,
                        page.page_id,
                        statement=NOTES,
                        label=row.label,
                        concept=concept,
                        unit="USD",
                        cols=cols,
                        periods=periods,
                        values=row.values[: len(cols)],
                        multiplier=scale,
                    )
                )
    return found
